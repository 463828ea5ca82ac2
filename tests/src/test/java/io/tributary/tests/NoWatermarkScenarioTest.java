package io.tributary.tests;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.sink.DeltaTables;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * An aggregation without {@code aggregate.watermark}, as Spark allows it in complete and update
 * mode: nothing is ever late and no state is dropped, so after each run the table holds every
 * group's running totals, over three runs as the quickstart's (a file, no new file, a new file).
 * Spark's Delta sink in complete mode rewrites the whole result table at each batch; Tributary
 * upserts each result row by (window, group), which leaves the same rows.
 */
@Tag("integration")
@Timeout(300)
class NoWatermarkScenarioTest {
    static final String SPEC = """
            name: revenue
            source:
              files:
                path: in/
                format: json
                schema: "id INT, user STRING, amt DOUBLE, ts TIMESTAMP"
            aggregate:
              eventTime: ts
              window: 10 minutes
              groupBy: [user]
              select: { t: sum(amt) }
            outputMode: complete
            sink:
              delta:
                path: agg/
            topic:
              partitions: 2
            trigger: availableNow
            """;
    static final String W0950 = "{2026-01-01 09:50:00, 2026-01-01 10:00:00}";
    static final String W1000 = "{2026-01-01 10:00:00, 2026-01-01 10:10:00}";
    static final String W1020 = "{2026-01-01 10:20:00, 2026-01-01 10:30:00}";
    static final String W1030 = "{2026-01-01 10:30:00, 2026-01-01 10:40:00}";
    static final List<String> AFTER_RUN_1 = List.of(W1000 + "|a|8.0", W1000 + "|b|7.0", W1020 + "|c|1.0");
    /** Run 3 adds to a window long past the newest event time (a row a watermark would drop) and opens two windows. */
    static final List<String> AFTER_RUN_3 = List.of(W1000 + "|a|18.0", W1000 + "|b|7.0", W1020 + "|c|1.0",
            W1030 + "|b|3.0", W0950 + "|d|4.0");

    @TempDir
    java.nio.file.Path dir;

    @Test
    void completeModeWritesEveryGroupsRunningTotalsAtEveryRun() {
        threeRuns(SPEC, "complete");
    }

    @Test
    void updateModeWithoutWatermarkLeavesTheSameTable() {
        threeRuns(SPEC.replace("outputMode: complete", "outputMode: update"), "update");
    }

    private void threeRuns(String spec, String mode) {
        Workspace ws = new Workspace(dir, spec);
        String table = dir.resolve("agg").toString();
        ws.addFile("events-1.json",
                "{\"id\": 1, \"user\": \"a\", \"amt\": 5.0, \"ts\": \"2026-01-01T10:01:00Z\"}",
                "{\"id\": 2, \"user\": \"a\", \"amt\": 1.0, \"ts\": \"2026-01-01T10:04:00Z\"}",
                "{\"id\": 3, \"user\": \"b\", \"amt\": 7.0, \"ts\": \"2026-01-01T10:05:00Z\"}",
                "{\"id\": 4, \"user\": \"a\", \"amt\": 2.0, \"ts\": \"2026-01-01T10:09:00Z\"}",
                "{\"id\": 5, \"user\": \"c\", \"amt\": 1.0, \"ts\": \"2026-01-01T10:20:00Z\"}");
        Workspace.Result run1 = ws.tributary("run").assertOk();
        assertThat(GoldenWindowsScenarioTest.table(table)).as("%s, after run 1", mode).containsExactlyInAnyOrderElementsOf(AFTER_RUN_1);
        assertThat(run1.summary().at("/stages/revenue~1aggregate/numOutputRows").asLong()).as("rows the aggregation wrote").isEqualTo(3);
        // the run's files were written just before it, so the ingest waits for them to settle while the aggregation
        // already polls: the aggregation may take the rows and the ingest's end markers in two batches
        assertThat(run1.progress("revenue/aggregate")).isNotEmpty()
                .allSatisfy(p -> assertThat(p.at("/stateOperators/0/numRowsDroppedByWatermark").asLong()).isZero())
                .allSatisfy(p -> assertThat(p.has("eventTime")).as("no watermark to report").isFalse())
                .extracting(p -> p.at("/numInputRows").asLong()).as("rows the aggregation read").containsOnlyOnce(5L);
        long version = DeltaTables.latestVersion(table);

        // no new file: as Spark, no batch runs and the table is not written
        ws.tributary("run").assertOk();
        assertThat(DeltaTables.latestVersion(table)).isEqualTo(version);
        assertThat(GoldenWindowsScenarioTest.table(table)).as("%s, after run 2", mode).containsExactlyInAnyOrderElementsOf(AFTER_RUN_1);

        ws.addFile("events-2.json",
                "{\"id\": 6, \"user\": \"a\", \"amt\": 10.0, \"ts\": \"2026-01-01T10:02:00Z\"}",
                "{\"id\": 7, \"user\": \"b\", \"amt\": 3.0, \"ts\": \"2026-01-01T10:31:00Z\"}",
                "{\"id\": 8, \"user\": \"d\", \"amt\": 4.0, \"ts\": \"2026-01-01T09:55:00Z\"}");
        ws.tributary("run").assertOk();
        assertThat(GoldenWindowsScenarioTest.table(table)).as("%s, after run 3", mode).containsExactlyInAnyOrderElementsOf(AFTER_RUN_3);
        assertThat(DeltaTables.latestVersion(table)).isEqualTo(version + 1);
    }
}
