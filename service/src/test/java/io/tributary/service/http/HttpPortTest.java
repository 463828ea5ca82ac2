package io.tributary.service.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.service.spec.PipelineSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The HTTP port a run serves on: 8080 for a service, none for a bounded job unless asked. */
class HttpPortTest {
    @TempDir
    Path dir;

    private OptionalInt port(String trigger, Map<String, String> env, Map<String, String> set) throws IOException {
        Path spec = dir.resolve("p.yaml");
        Files.writeString(spec, "name: p\nsource: {files: {path: in/, schema: \"id INT\"}}\nsink: {delta: {path: out/}}\n"
                + (trigger == null ? "" : "trigger: " + trigger + "\n"));
        return ServiceEndpoints.port(PipelineSpec.load(spec, env, set));
    }

    @Test
    void continuousTriggersServeOn8080() throws IOException {
        assertThat(port(null, Map.of(), Map.of())).hasValue(8080);
        assertThat(port("{processingTime: 1 minute}", Map.of(), Map.of())).hasValue(8080);
    }

    @Test
    void boundedTriggersServeNothingUnlessAsked() throws IOException {
        assertThat(port("availableNow", Map.of(), Map.of())).isEmpty();
        assertThat(port("once", Map.of(), Map.of())).isEmpty();
        assertThat(port("availableNow", Map.of(), Map.of("http.port", "0"))).hasValue(0);
    }

    @Test
    void environmentAndSetOverrideAndMinusOneTurnsItOff() throws IOException {
        assertThat(port(null, Map.of("TRIBUTARY_HTTP_PORT", "9100"), Map.of())).hasValue(9100);
        assertThat(port(null, Map.of("TRIBUTARY_HTTP_PORT", "9100"), Map.of("http.port", "9200"))).hasValue(9200);
        assertThat(port(null, Map.of(), Map.of("http.port", "-1"))).isEmpty();
    }
}
