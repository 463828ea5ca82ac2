package io.tributary.service.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.broker.EmbeddedBroker;
import io.tributary.schema.Timestamps;
import io.tributary.service.spec.PipelineSpec;
import io.tributary.sink.DeltaTables;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Stateful parts over several availableNow runs on a real broker (events topic of three partitions), against Spark 4.2's
 * tables after every run: deduplication with late duplicates, ties at the watermark, null keys and keys of two columns
 * (golden/dedup/late-*), and session windows where a late row merges two open sessions, a row lands exactly on the
 * watermark and a session closed in one run gets a row in the next (golden/sessions/append-late-runs), and per-user
 * sessions of the rows a deduplication keeps (golden/dedup/then-session).
 */
@Tag("integration")
@Tag("scenarios")
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class StatefulRunsPipelineTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SOURCE = """
            source:
              files:
                path: in/
                schema: "id INT, user STRING, amt DOUBLE, ts TIMESTAMP"
                maxFilesPerTrigger: 1
            topic:
              partitions: 3
            sink:
              delta:
                path: out/
            trigger: availableNow
            """;

    @TempDir
    Path dir;
    private EmbeddedBroker broker; // one for all the runs, as a cluster outlives its pipelines' runs

    @BeforeEach
    void startBroker() throws Exception {
        broker = EmbeddedBroker.start(dir.resolve("kafka"));
    }

    @AfterEach
    void stopBroker() {
        broker.close();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"late-within-watermark", "late-keys-not-event-time", "late-keys-with-event-time"})
    void eachDedupRunLeavesSparksTable(String name) throws Exception {
        JsonNode c = JSON.readTree(golden("dedup/" + name + "/case.json"));
        List<String> keys = new ArrayList<>();
        c.get("keys").forEach(k -> keys.add(k.asText()));
        String delayKey = c.get("operator").asText().equals("withinWatermark") ? "withinWatermark" : "watermark";
        String spec = "name: dedup\n" + SOURCE + "transform:\n  dropDuplicates: { keys: [" + String.join(", ", keys)
                + "], eventTime: ts, " + delayKey + ": " + c.get("watermark").asText() + " }\n";
        runs(spec, "dedup/" + name + "/", c, run -> {
            List<String> expected = goldenRows("dedup/" + name + "/after-run" + run + ".txt");
            assertThat(table(r -> r[0] + "|" + r[1] + "|" + r[2] + "|" + ts(r[3]))).as("%s after run %d", name, run)
                    .containsExactlyInAnyOrderElementsOf(expected);
        });
    }

    @Test
    void eachSessionRunLeavesSparksSessions() throws Exception {
        JsonNode c = JSON.readTree(golden("sessions/append-late-runs/case.json"));
        String spec = "name: sessions\n" + SOURCE + """
                aggregate:
                  eventTime: ts
                  watermark: 5 minutes
                  session: 10 minutes
                  groupBy: [user]
                  select: { t: sum(amt), n: count(*), hi: max(amt) }
                outputMode: append
                """;
        runs(spec, "sessions/input/", c, run -> {
            List<String> expected = goldenRows("sessions/append-late-runs/after-run" + run + ".txt").stream()
                    .filter(l -> !l.startsWith("out ")).toList();
            assertThat(table(r -> {
                Object[] w = (Object[]) r[0];
                return "{" + ts(w[0]) + ", " + ts(w[1]) + "}|" + r[1] + "|" + r[2] + "|" + r[3] + "|" + r[4];
            })).as("sessions after run %d", run).containsExactlyInAnyOrderElementsOf(expected);
        });
    }

    /**
     * Spark's {@code dropDuplicatesWithinWatermark("id", "user").groupBy(session_window("ts", "5 minutes"), "user")
     * .agg(count("*"), sum("amt"))} (golden/dedup/then-session): the rows the deduplication keeps make each user's sessions,
     * the group a part of the deduplication's key. The totals are compared to 9 decimals, as the partitions' rows may reach
     * the aggregation in another order.
     */
    @Test
    void eachDedupThenSessionRunLeavesSparksSessions() throws Exception {
        JsonNode c = JSON.readTree(golden("dedup/then-session/case.json"));
        String spec = "name: dedupsessions\n" + SOURCE + """
                transform:
                  dropDuplicates: { keys: [id, user], eventTime: ts, withinWatermark: 10 minutes }
                aggregate:
                  eventTime: ts
                  watermark: 10 minutes
                  session: 5 minutes
                  groupBy: [user]
                  select: { n: count(*), total: sum(amt) }
                outputMode: append
                """;
        runs(spec, "dedup/then-session/", c, run -> {
            List<String> expected = goldenRows("dedup/then-session/after-run" + run + ".txt").stream()
                    .map(StatefulRunsPipelineTest::rounded).toList();
            assertThat(table(r -> {
                Object[] w = (Object[]) r[0];
                return rounded(ts(w[0]) + "|" + ts(w[1]) + "|" + r[1] + "|" + r[2] + "|" + r[3]);
            })).as("sessions after run %d", run).containsExactlyInAnyOrderElementsOf(expected);
        });
    }

    private static String rounded(String line) {
        int bar = line.lastIndexOf('|');
        return line.substring(0, bar + 1) + Math.round(Double.parseDouble(line.substring(bar + 1)) * 1e9) / 1e9;
    }

    private interface RunCheck {
        void after(int run) throws IOException;
    }

    /** Each run of the case: its files placed in order (Spark's: oldest first), one availableNow run, then {@code check}. */
    private void runs(String specText, String inputs, JsonNode c, RunCheck check) throws Exception {
        Files.createDirectories(dir.resolve("in"));
        Path specFile = dir.resolve("pipeline.yaml");
        Files.writeString(specFile, specText + "kafka:\n  bootstrap.servers: " + broker.bootstrapServers() + "\n");
        long mtime = 1_000_000_000_000L;
        int run = 0;
        for (JsonNode files : c.get("runs")) {
            run++;
            for (JsonNode f : files) {
                Path p = Files.writeString(dir.resolve("in").resolve(f.asText()), golden(inputs + f.asText()));
                p.toFile().setLastModified(mtime += 1000);
            }
            PipelineSpec spec = PipelineSpec.load(specFile, Map.of(), Map.of());
            try (Pipeline pipeline = Pipeline.open(spec, RunOptions.DEFAULT)) {
                pipeline.run(spec.trigger(), p -> { });
            }
            check.after(run);
        }
    }

    private List<String> table(java.util.function.Function<Object[], String> line) {
        List<String> rows = new ArrayList<>();
        String path = dir.resolve("out").toString();
        if (DeltaTables.exists(path)) {
            DeltaTables.readRows(path).forEach(r -> rows.add(line.apply(r)));
        }
        return rows;
    }

    private static String ts(Object micros) {
        return micros == null ? "null" : Timestamps.formatMicros((Long) micros).replace('T', ' ').replace("Z", "");
    }

    /** A golden after-run file's table rows: neither its comments nor its batches. */
    static List<String> goldenRows(String file) throws IOException {
        return golden(file).lines().filter(l -> !l.startsWith("#") && !l.startsWith("batches") && !l.isBlank()).toList();
    }

    static String golden(String file) throws IOException {
        try (InputStream in = StatefulRunsPipelineTest.class.getResourceAsStream("/golden/" + file)) {
            if (in == null) {
                throw new IOException("no golden fixture " + file);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
