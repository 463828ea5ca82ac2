package io.tributary.service.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.schema.Progress;
import io.tributary.service.internal.Pipeline;
import io.tributary.service.metrics.PipelineMetrics;
import io.tributary.storage.SecretKeys;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The live page over real HTTP on 127.0.0.1: its files, its data, and what it hides. */
class LivePageTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newHttpClient();
    /** One instant for every record, inside one 10-second bucket. */
    private final ProgressHistory history = new ProgressHistory(() -> 1_767_261_601_000L);
    private final Map<String, Pipeline.Retrying> retrying = new LinkedHashMap<>();
    private PipelineMetrics metrics;
    private StatusServer server;

    @BeforeEach
    void start() {
        Map<String, String> spec = new LinkedHashMap<>();
        spec.put("name", "orders");
        spec.put("kafka.sasl.jaas.config", "PlainLoginModule required password=\"hunter2\";");
        spec.put("kafka.ssl.truststore.password", "hunter3");
        spec.put("kafka.sasl.oauthbearer.token.endpoint.url", "tok");
        spec.put("source.s3.secretAccessKey", "hunter4");
        spec.put("sink.delta.keys", "id");
        spec.put("sink.delta.path", "out/");
        metrics = new PipelineMetrics("orders");
        history.declare("orders/ingest");
        LivePage page = new LivePage(history, new LivePage.Sources("orders", "default", SecretKeys.masked(spec), () -> null, () -> Map.copyOf(retrying)));
        server = StatusServer.start("127.0.0.1", 0, metrics, () -> null, page);
    }

    @AfterEach
    void stop() {
        server.close();
        metrics.close();
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static Progress batch(long id, long rows) {
        return new Progress("orders/ingest", "r", "2026-01-01T10:00:00.000Z", id, rows, 1.0, 10.0, Map.of("triggerExecution", 100L), null, null,
                List.of(new Progress.Source("FileSource[in]", null, Map.of("logOffset", id), rows, Map.of("numBadRows", 0))),
                new Progress.Sink("KafkaSink[t]", rows, Map.of()));
    }

    @Test
    void thePageAndItsFilesComeFromTheJarAndNameNoOtherHost() throws Exception {
        HttpResponse<String> page = get("/");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Type")).hasValue("text/html; charset=utf-8");
        assertThat(page.body()).contains("<script src=\"/ui/page.js\"></script>", "href=\"/ui/page.css\"");
        HttpResponse<String> script = get("/ui/page.js");
        assertThat(script.statusCode()).isEqualTo(200);
        assertThat(script.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/javascript"));
        HttpResponse<String> style = get("/ui/page.css");
        assertThat(style.statusCode()).isEqualTo(200);
        Pattern url = Pattern.compile("(?:https?:)?//[A-Za-z0-9.-]+");
        for (String body : List.of(page.body(), script.body(), style.body())) {
            Matcher m = url.matcher(body);
            while (m.find()) {
                assertThat(m.group()).as("an address in the page's files").isEqualTo("http://www.w3.org"); // the SVG namespace, never fetched
            }
        }
        assertThat(get("/ui/nothing").statusCode()).isEqualTo(404);
    }

    @Test
    void theDataHasTheBatchesSinceTheLastPollAndTheSpecWithSecretsMasked() throws Exception {
        history.add(batch(0, 3));
        history.add(batch(1, 4));
        JsonNode first = JSON.readTree(get("/ui/data?since=0").body());
        assertThat(first.get("pipeline").asText()).isEqualTo("orders");
        assertThat(first.get("ready").asBoolean()).isTrue();
        assertThat(first.get("seq").asLong()).isEqualTo(2);
        assertThat(first.get("stages").toString()).isEqualTo("[\"orders/ingest\"]");
        assertThat(first.get("batches")).hasSize(2);
        assertThat(first.at("/batches/1/progress/numInputRows").asLong()).isEqualTo(4);
        assertThat(first.at("/batches/1/summary/inputRows").asLong()).isEqualTo(4);
        assertThat(first.at("/instance/pid").asLong()).isEqualTo(ProcessHandle.current().pid());
        JsonNode spec = first.get("spec");
        for (String secret : List.of("kafka.sasl.jaas.config", "kafka.ssl.truststore.password", "kafka.sasl.oauthbearer.token.endpoint.url",
                "source.s3.secretAccessKey")) {
            assertThat(spec.get(secret).asText()).as(secret).isEqualTo("******");
        }
        assertThat(spec.get("sink.delta.path").asText()).isEqualTo("out/");
        assertThat(spec.get("sink.delta.keys").asText()).isEqualTo("id");
        assertThat(first.toString()).doesNotContain("hunter");

        history.add(batch(2, 5));
        retrying.put("orders/ingest", new Pipeline.Retrying("TimeoutException: Timed out waiting for a node assignment", 1_000L, 3));
        JsonNode next = JSON.readTree(get("/ui/data?since=2&hour=1").body());
        assertThat(next.get("batches")).hasSize(1);
        assertThat(next.at("/batches/0/progress/batchId").asLong()).isEqualTo(2);
        assertThat(next.has("spec")).as("the spec comes with the first answer only").isFalse();
        assertThat(next.at("/hour/orders~1ingest/0/inputRows").asLong()).isEqualTo(12);
        assertThat(next.at("/retrying/orders~1ingest/error").asText()).contains("Timed out");
        assertThat(next.at("/retrying/orders~1ingest/attempts").asInt()).isEqualTo(3);

        HttpResponse<String> one = get("/ui/batch?stage=orders/ingest&id=1");
        assertThat(one.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(one.body())).isEqualTo(JSON.readTree(batch(1, 4).toJson()));
        assertThat(get("/ui/batch?stage=orders/ingest&id=99").statusCode()).isEqualTo(404);
    }
}
