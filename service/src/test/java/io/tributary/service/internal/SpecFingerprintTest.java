package io.tributary.service.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.service.spec.PipelineSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SpecFingerprintTest {
    static final String SPEC = """
            name: q
            source:
              files:
                path: in/
                format: json
                schema: "id INT, user STRING, amt DOUBLE, ts TIMESTAMP"
            aggregate:
              eventTime: ts
              watermark: 5 minutes
              window: 10 minutes
              groupBy: [user]
              select: { t: sum(amt) }
            sink:
              delta:
                path: out/
                properties: { secret.token: abc }
            kafka:
              bootstrap.servers: "127.0.0.1:9092"
            """;

    @TempDir
    Path dir;

    PipelineSpec load(Map<String, String> set) throws IOException {
        Path f = dir.resolve("pipeline.yaml");
        Files.writeString(f, SPEC);
        return PipelineSpec.load(f, Map.of(), set);
    }

    @Test
    void perInstanceSettingsDoNotCount() throws IOException {
        SpecFingerprint a = SpecFingerprint.of(load(Map.of("instance.id", "a", "state", "state-a", "http.port", "8081",
                "kafka.client.id", "a", "sink.delta.allowedLatency", "5 seconds")));
        SpecFingerprint b = SpecFingerprint.of(load(Map.of("instance.id", "b", "state", "state-b", "http.port", "8082")));
        assertThat(b.differences(a)).isEmpty();
        assertThat(SpecFingerprint.parse(a.toJson("a"), "t").differences(a)).isEmpty();
    }

    @Test
    void theDefiningSettingsThatDifferAreNamedWithBothValues() throws IOException {
        SpecFingerprint recorded = SpecFingerprint.of(load(Map.of()));
        SpecFingerprint mine = SpecFingerprint.of(load(Map.of("aggregate.window", "5 minutes", "sink.delta.path", "table-c/",
                "outputMode", "update", "sink.delta.properties.secret.token", "xyz")));
        assertThat(mine.differences(recorded)).extracting(Object::toString).containsExactly(
                "aggregate.window ('10 minutes' there, '5 minutes' here)",
                "outputMode ('append' there, 'update' here)",
                "sink.delta.path ('" + dir.resolve("out") + "' there, '" + dir.resolve("table-c") + "' here)",
                "sink.delta.properties.secret.token (****** there, ****** here)");
        assertThat(mine.toJson("c")).doesNotContain("xyz").doesNotContain("abc");
    }

    @Test
    void aSettingOneVersionDoesNotKnowIsNotCompared() throws IOException {
        SpecFingerprint mine = SpecFingerprint.of(load(Map.of("topic.trim", "false")));
        java.util.Set<String> olderCovers = new java.util.TreeSet<>(mine.covers());
        olderCovers.remove("topic.trim");
        SpecFingerprint older = new SpecFingerprint(SpecFingerprint.of(load(Map.of())).values(), olderCovers);
        assertThat(mine.differences(older)).isEmpty();
        assertThat(mine.differences(SpecFingerprint.of(load(Map.of())))).extracting(SpecFingerprint.Difference::key)
                .containsExactly("topic.trim");
    }
}
