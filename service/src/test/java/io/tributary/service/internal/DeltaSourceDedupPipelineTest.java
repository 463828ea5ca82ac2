package io.tributary.service.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.broker.EmbeddedBroker;
import io.tributary.schema.RowJson;
import io.tributary.schema.Schema;
import io.tributary.schema.Timestamps;
import io.tributary.service.spec.PipelineSpec;
import io.tributary.sink.DeltaTables;
import io.tributary.sink.SinkTables;
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

/**
 * A Delta source under {@code transform.dropDuplicates} and under an aggregation that groups by and aggregates
 * expressions, as Spark's {@code readStream.format("delta")} followed by {@code dropDuplicatesWithinWatermark("id")} or
 * {@code groupBy(window(...), expr(...))}: real tables written by Tributary's sink, availableNow runs on a real broker.
 */
@Tag("integration")
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class DeltaSourceDedupPipelineTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Schema ROWS = Schema.parse("id INT, user STRING, amt DOUBLE, ts TIMESTAMP");

    @TempDir
    Path dir;
    private EmbeddedBroker broker; // one for every run, as a cluster outlives its pipelines' runs

    @BeforeEach
    void startBroker() throws Exception {
        broker = EmbeddedBroker.start(dir.resolve("kafka"));
    }

    @AfterEach
    void stopBroker() {
        broker.close();
    }

    /**
     * golden/dedup/within-watermark (Spark 4.2's dropDuplicatesWithinWatermark over files read one a batch), over a Delta
     * table that gets each of the case's files as one commit before each run, read one commit a batch
     * ({@code maxFilesPerTrigger: 1}): the same batches as Spark's, so after each of the four runs the table holds Spark's rows.
     */
    @Test
    @Tag("scenarios")
    void eachRunOverADeltaTableLeavesSparksDeduplicatedRows() throws Exception {
        JsonNode c = JSON.readTree(golden("case.json"));
        SinkTables bronze = new SinkTables(dir.resolve("bronze").toString(), ROWS, List.of(), "bronze");
        Path specFile = spec("""
                name: ddedup
                source:
                  delta:
                    path: bronze/
                    maxFilesPerTrigger: 1
                transform:
                  dropDuplicates: { keys: [id], eventTime: ts, withinWatermark: 10 minutes }
                sink:
                  delta:
                    path: out/
                trigger: availableNow
                """);
        int run = 0;
        for (JsonNode files : c.get("runs")) {
            run++;
            for (JsonNode f : files) {
                bronze.commit(rows(golden(f.asText())));
            }
            run(specFile);
            List<String> expected = golden("after-run" + run + ".txt").lines()
                    .filter(l -> !l.startsWith("#") && !l.startsWith("batches") && !l.isBlank()).toList();
            List<String> table = new ArrayList<>();
            for (Object[] r : DeltaTables.readRows(dir.resolve("out").toString())) {
                table.add(r[0] + "|" + r[1] + "|" + r[2] + "|" + (r[3] == null ? "null" : ts(r[3])));
            }
            assertThat(table).as("after run %d", run).containsExactlyInAnyOrderElementsOf(expected);
        }
    }

    /**
     * dropDuplicates without a watermark over a Delta source: a key's first row is kept (the first in the table's order),
     * its later rows dropped in that batch and in the next run's, a null key being one key, as Spark's dropDuplicates("id").
     */
    @Test
    void aDeltaSourcesDuplicatesAreDroppedWithinABatchAndAcrossRuns() throws Exception {
        long t0 = java.time.Instant.parse("2026-01-01T10:00:00Z").getEpochSecond() * 1_000_000L;
        SinkTables bronze = new SinkTables(dir.resolve("bronze").toString(), ROWS, List.of(), "bronze");
        bronze.commit(List.of(new Object[] {1, "a", 1.0, t0}, new Object[] {2, "b", 2.0, t0}, new Object[] {1, "a", 1.5, t0},
                new Object[] {null, "n", 9.0, t0}, new Object[] {null, "n2", 9.5, t0}));
        Path specFile = spec("""
                name: dkeys
                source:
                  delta:
                    path: bronze/
                transform:
                  dropDuplicates: { keys: [id] }
                sink:
                  delta:
                    path: out/
                trigger: availableNow
                topic:
                  partitions: 3
                """);
        run(specFile);
        assertThat(amounts()).containsExactlyInAnyOrder("1|1.0", "2|2.0", "null|9.0");
        bronze.commit(List.of(new Object[] {2, "b", 2.5, t0}, new Object[] {3, "c", 3.0, t0}, new Object[] {null, "n3", 9.9, t0}));
        run(specFile);
        assertThat(amounts()).containsExactlyInAnyOrder("1|1.0", "2|2.0", "null|9.0", "3|3.0");
    }

    /**
     * Spark's {@code groupBy(window(ts, "10 minutes"), expr("upper(user)").alias("u")).agg(expr("sum(amt * 2)"),
     * count("*"))} over a Delta source: the expressions are computed over the table's rows as the file source computes them.
     */
    @Test
    void aDeltaSourcesRowsAreGroupedByAnExpressionAndAggregatedOverOne() throws Exception {
        long t0 = java.time.Instant.parse("2026-01-01T10:00:00Z").getEpochSecond() * 1_000_000L;
        long minute = 60_000_000L;
        new SinkTables(dir.resolve("bronze").toString(), ROWS, List.of(), "bronze").commit(List.of(new Object[] {1, "ann", 1.0, t0},
                new Object[] {2, "Ann", 2.0, t0 + minute}, new Object[] {3, "bob", 4.0, t0 + 2 * minute},
                new Object[] {4, "ann", 8.0, t0 + 12 * minute}, new Object[] {5, "cy", 1.0, t0 + 60 * minute}));
        run(spec("""
                name: dexpr
                source:
                  delta:
                    path: bronze/
                aggregate:
                  eventTime: ts
                  watermark: 10 minutes
                  window: 10 minutes
                  groupBy: ["upper(user) AS u"]
                  select: { t: "sum(amt * 2)", n: "count(*)" }
                sink:
                  delta:
                    path: out/
                trigger: availableNow
                """));

        assertThat(DeltaTables.schema(dir.resolve("out").toString()).orElseThrow().toDdl())
                .startsWith("window ").endsWith(", u STRING, t DOUBLE, n BIGINT");
        List<String> windows = DeltaTables.readRows(dir.resolve("out").toString()).stream()
                .map(r -> ts(((Object[]) r[0])[0]) + "|" + r[1] + "|" + r[2] + "|" + r[3]).toList();
        // the 11:00 window is still open at the watermark 10:50
        assertThat(windows).containsExactlyInAnyOrder("2026-01-01 10:00:00|ANN|6.0|2", "2026-01-01 10:00:00|BOB|8.0|1",
                "2026-01-01 10:10:00|ANN|16.0|1");
    }

    private Path spec(String yaml) throws IOException {
        Path f = dir.resolve("pipeline.yaml");
        Files.writeString(f, yaml + "kafka:\n  bootstrap.servers: " + broker.bootstrapServers() + "\n");
        return f;
    }

    private static void run(Path specFile) throws Exception {
        PipelineSpec spec = PipelineSpec.load(specFile, Map.of(), Map.of());
        try (Pipeline pipeline = Pipeline.open(spec, RunOptions.DEFAULT)) {
            pipeline.run(spec.trigger(), p -> { });
        }
    }

    /** The table's rows as {@code id|amt}. */
    private List<String> amounts() {
        return DeltaTables.readRows(dir.resolve("out").toString()).stream().map(r -> r[0] + "|" + r[2]).toList();
    }

    private static List<Object[]> rows(String lines) {
        RowJson json = new RowJson(ROWS);
        return lines.lines().filter(l -> !l.isBlank()).map(json::parse).toList();
    }

    private static String ts(Object micros) {
        return Timestamps.formatMicros((Long) micros).replace('T', ' ').replace("Z", "");
    }

    private static String golden(String file) throws IOException {
        try (InputStream in = DeltaSourceDedupPipelineTest.class.getResourceAsStream("/golden/dedup/within-watermark/" + file)) {
            if (in == null) {
                throw new IOException("no golden fixture " + file);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
