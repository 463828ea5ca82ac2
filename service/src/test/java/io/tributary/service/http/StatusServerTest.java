package io.tributary.service.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.schema.Progress;
import io.tributary.service.metrics.PipelineMetrics;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What an orchestrator and a Prometheus scraper see over real HTTP on 127.0.0.1. */
class StatusServerTest {
    private final HttpClient http = HttpClient.newHttpClient();
    private final AtomicReference<String> notReady = new AtomicReference<>("starting: connecting to Kafka and opening the stages");
    private PipelineMetrics metrics;
    private StatusServer server;

    @BeforeEach
    void start() {
        metrics = new PipelineMetrics("orders");
        metrics.declareStage("orders/ingest");
        metrics.declareStage("orders/sink");
        server = StatusServer.start("127.0.0.1", 0, metrics, notReady::get);
    }

    @AfterEach
    void stop() {
        server.close();
        metrics.close();
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static Progress ingest(long batchId, long rows, long bad, String watermark) {
        return new Progress("orders/ingest", "r1", "2026-01-01T10:00:00Z", batchId, rows, 0, 0, Map.of("triggerExecution", 120L),
                watermark == null ? null : Map.of("watermark", watermark), null,
                List.of(new Progress.Source("FileSource[in]", null, Map.of("logOffset", batchId), rows, Map.of("numBadRows", bad))),
                new Progress.Sink("KafkaSink[tributary.orders.events]", rows, Map.of()));
    }

    private static Progress sink(long batchId, long rows, long version, long endOffset) {
        return new Progress("orders/sink", "r1", "2026-01-01T10:00:01Z", batchId, rows, 0, 0, Map.of("triggerExecution", 900L),
                null, null, List.of(new Progress.Source("KafkaV2[Subscribe[tributary.orders.events]]", null,
                        Map.of("tributary.orders.events", Map.of("0", endOffset)), rows, Map.of())),
                new Progress.Sink("DeltaSink[out]", rows, Map.of("deltaVersion", version)));
    }

    @Test
    void liveAtOnceReadyOnlyWhenTheServiceSaysSo() throws Exception {
        assertThat(get("/health/live").statusCode()).isEqualTo(200);
        HttpResponse<String> starting = get("/health/ready");
        assertThat(starting.statusCode()).isEqualTo(503);
        assertThat(new ObjectMapper().readTree(starting.body()).get("reason").asText()).startsWith("starting");

        notReady.set("the Kafka cluster does not answer (TimeoutException: \"describeCluster\")");
        HttpResponse<String> down = get("/health/ready");
        assertThat(down.statusCode()).isEqualTo(503);
        assertThat(new ObjectMapper().readTree(down.body()).get("reason").asText()).contains("does not answer");

        notReady.set(null);
        assertThat(get("/health/ready").statusCode()).isEqualTo(200);
    }

    @Test
    void metricsCountRowsPerStageFromProgressInPrometheusText() throws Exception {
        metrics.readiness(() -> notReady.get() == null);
        metrics.record(ingest(0, 2, 0, null));
        metrics.record(ingest(1, 5, 1, "2026-01-01T10:05:00Z"));
        metrics.record(sink(0, 7, 3, 8));
        HttpResponse<String> r = get("/metrics");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/plain"));
        assertThat(r.body())
                .contains("tributary_stage_rows_input_total{pipeline=\"orders\",stage=\"orders/ingest\"} 7.0")
                .contains("tributary_stage_rows_output_total{pipeline=\"orders\",stage=\"orders/sink\"} 7.0")
                .contains("tributary_stage_batch_duration_seconds_count{pipeline=\"orders\",stage=\"orders/ingest\"} 2")
                .contains("tributary_stage_batch_id{pipeline=\"orders\",stage=\"orders/ingest\"} 1.0")
                .contains("tributary_ingest_rows_bad_total{pipeline=\"orders\",stage=\"orders/ingest\"} 1.0")
                .contains("tributary_stage_watermark_seconds{pipeline=\"orders\",stage=\"orders/ingest\"} 1.7672619E9")
                .contains("tributary_sink_delta_version{pipeline=\"orders\",stage=\"orders/sink\"} 3.0")
                .contains("tributary_pipeline_ready{pipeline=\"orders\"} 0.0")
                .contains("jvm_memory_used_bytes");
        assertThat(metrics.positions()).containsEntry("orders/sink",
                Map.of(new PipelineMetrics.PartitionKey("tributary.orders.events", 0), 8L));
    }

    @Test
    void progressIsTheLastRecordOfEveryStageInFlowOrder() throws Exception {
        assertThat(get("/progress").body().strip()).isEqualTo("[]");
        metrics.record(sink(0, 2, 0, 2));
        metrics.record(ingest(0, 2, 0, null));
        metrics.record(ingest(1, 3, 0, null));
        JsonNode a = new ObjectMapper().readTree(get("/progress").body());
        assertThat(a.size()).isEqualTo(2);
        assertThat(a.get(0).get("name").asText()).isEqualTo("orders/ingest");
        assertThat(a.get(0).get("batchId").asLong()).isEqualTo(1);
        assertThat(a.get(0).get("numInputRows").asLong()).isEqualTo(3);
        assertThat(a.get(1).get("name").asText()).isEqualTo("orders/sink");
    }

    @Test
    void unknownPathsAndWritesAreRefused() throws Exception {
        assertThat(get("/").statusCode()).isEqualTo(404);
        HttpResponse<String> post = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/metrics"))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(post.statusCode()).isEqualTo(405);
    }

    @Test
    void aTakenPortIsAClearError() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> StatusServer.start("127.0.0.1", server.port(), metrics, () -> null))
                .isInstanceOf(io.tributary.schema.TributaryException.class)
                .hasMessageContaining("http.port");
    }
}
