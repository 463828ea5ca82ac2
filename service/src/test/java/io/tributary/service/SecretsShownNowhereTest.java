package io.tributary.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.service.http.ServiceEndpoints;
import io.tributary.service.spec.PipelineSpec;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Secrets of every system a spec configures (Kafka, Schema Registry, S3A, Azure, GCS), set as a
 * user sets them, are masked by {@code checkpoint show} and on the live page's data, while the
 * settings that only look alike ({@code sink.delta.keys}) are shown.
 */
class SecretsShownNowhereTest {
    private static final Map<String, String> SECRETS = secrets();

    @TempDir
    Path dir;

    private static Map<String, String> secrets() {
        Map<String, String> s = new LinkedHashMap<>();
        List<String> keys = List.of("kafka.basic.auth.user.info", "kafka.schema.registry.basic.auth.user.info", "kafka.sasl.jaas.config",
                "kafka.ssl.key.password", "kafka.ssl.keystore.password", "storage.fs.azure.account.key.acct.dfs.core.windows.net",
                "storage.fs.azure.sas.box.acct.blob.core.windows.net", "storage.fs.azure.account.oauth2.client.secret",
                "storage.fs.s3a.secret.key", "storage.fs.s3a.access.key", "storage.fs.s3a.session.token",
                "storage.google.cloud.auth.service.account.json.keyfile");
        for (int i = 0; i < keys.size(); i++) {
            s.put(keys.get(i), "hunter" + i + "-in-clear");
        }
        return s;
    }

    private Path spec() throws Exception {
        Path spec = dir.resolve("pipeline.yaml");
        Files.createDirectories(dir.resolve("in"));
        Files.writeString(spec, """
                name: secrets
                source:
                  files:
                    path: in/
                    format: json
                    schema: "id INT, user STRING"
                sink:
                  delta:
                    path: out/
                    mode: upsert
                    keys: id
                kafka:
                  client.dns.lookup: use_all_dns_ips
                trigger: availableNow
                """);
        return spec;
    }

    private static String[] sets(String... first) {
        List<String> args = new java.util.ArrayList<>(List.of(first));
        SECRETS.forEach((k, v) -> {
            args.add("--set");
            args.add(k + "=" + v);
        });
        return args.toArray(String[]::new);
    }

    private static String tributary(String... args) {
        CliRun run = CliRun.of(args);
        assertThat(run.code()).as(String.join(" ", args) + ": " + run.err()).isZero();
        assertThat(run.out() + run.err()).doesNotContain("-in-clear");
        return run.out();
    }

    @Test
    void checkpointShowMasksEverySecret() throws Exception {
        Path spec = spec();
        tributary(sets("run", spec.toString()));
        String shown = tributary(sets("checkpoint", "show", spec.toString()));
        for (String key : SECRETS.keySet()) {
            assertThat(shown).contains("  " + key + " = ******\n");
        }
        assertThat(shown).contains("  sink.delta.keys = id\n").contains("  kafka.client.dns.lookup = use_all_dns_ips\n");
    }

    @Test
    void theLivePagesDataMasksEverySecret() throws Exception {
        Map<String, String> overrides = new LinkedHashMap<>(SECRETS);
        overrides.put("http.port", "0");
        PipelineSpec spec = PipelineSpec.load(spec(), Map.of(), overrides);
        try (ServiceEndpoints endpoints = ServiceEndpoints.start(spec)) {
            int port = endpoints.boundPort().orElseThrow();
            HttpResponse<String> data = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + port + "/ui/data?since=0")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(data.statusCode()).isEqualTo(200);
            JsonNode shown = new ObjectMapper().readTree(data.body()).get("spec");
            for (String key : SECRETS.keySet()) {
                assertThat(shown.path(key).asText()).as(key).isEqualTo("******");
            }
            assertThat(shown.path("sink.delta.keys").asText()).isEqualTo("id");
            assertThat(data.body()).doesNotContain("-in-clear");
        }
    }
}
