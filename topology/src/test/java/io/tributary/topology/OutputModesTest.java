package io.tributary.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** append, update and complete on the same runs, as Spark writes each. */
class OutputModesTest {
    static final String W1000 = "{2026-01-01 10:00:00, 2026-01-01 10:10:00}";
    static final String W1030 = "{2026-01-01 10:30:00, 2026-01-01 10:40:00}";
    static final String W1020 = "{2026-01-01 10:20:00, 2026-01-01 10:30:00}";
    static final String W0900 = "{2026-01-01 09:00:00, 2026-01-01 09:10:00}";

    @TempDir
    Path stateDir;

    static AggregateSpec spec(OutputMode mode) {
        return AggregateSpec.builder().eventTime("ts").watermark(Duration.ofMinutes(5)).window(Duration.ofMinutes(10))
                .groupBy("user").select("t", "sum(amt)").outputMode(mode).build(AggregationDriver.seedSchema());
    }

    static List<String> row(String user, double amt, String time) {
        return List.of("{\"user\":\"" + user + "\",\"amt\":" + amt + ",\"ts\":\"2026-01-01T" + time + ":00Z\"}");
    }

    @Test
    void updateWritesOnlyTheRowsChangedInEachBatchThenForgetsClosedWindows() {
        try (AggregationDriver d = AggregationDriver.of(spec(OutputMode.UPDATE), stateDir)) {
            SparkBatches ingest = new SparkBatches(d, Duration.ofMinutes(5));
            ingest.run(List.of(List.of(row("a", 5, "10:01").get(0), row("b", 7, "10:05").get(0))));
            assertThat(d.rows()).containsExactlyInAnyOrder(W1000 + "|a|5.0", W1000 + "|b|7.0");

            ingest.run(List.of(row("a", 1, "10:04")));
            assertThat(d.rows()).containsExactly(W1000 + "|a|6.0");

            ingest.run(List.of(row("c", 1, "10:30")));
            assertThat(d.rows()).containsExactly(W1030 + "|c|1.0");
            assertThat(d.metric(AggregateMetrics.ROWS_TOTAL)).as("10:00-10:10 purged at watermark 10:25").isEqualTo(1.0);

            ingest.run(List.of(row("a", 100, "10:02")));
            assertThat(d.rows()).isEmpty();
            assertThat(d.metric(AggregateMetrics.ROWS_DROPPED)).isEqualTo(1.0);
        }
    }

    @Test
    void updateWithoutWatermarkKeepsEveryWindowAndDropsNothing() {
        AggregateSpec spec = AggregateSpec.builder().eventTime("ts").watermark(null).window(Duration.ofMinutes(10))
                .groupBy("user").select("t", "sum(amt)").outputMode(OutputMode.UPDATE).build(AggregationDriver.seedSchema());
        try (AggregationDriver d = AggregationDriver.of(spec, stateDir)) {
            d.row(row("a", 5, "10:01").get(0));
            d.marker(0, null);
            d.row(row("c", 1, "11:30").get(0));
            d.marker(1, AggregateFunctionsTest.ms("2026-01-01T11:25:00Z"));
            d.drain();
            d.row(row("a", 1, "10:02").get(0));
            d.marker(2, AggregateFunctionsTest.ms("2026-01-01T11:25:00Z"));
            assertThat(d.rows()).containsExactly(W1000 + "|a|6.0");
            assertThat(d.metric(AggregateMetrics.ROWS_TOTAL)).isEqualTo(2.0);
        }
    }

    @Test
    void completeWritesTheWholeResultTableAtEveryBatchEnd() {
        try (AggregationDriver d = AggregationDriver.of(spec(OutputMode.COMPLETE), stateDir)) {
            SparkBatches ingest = new SparkBatches(d, Duration.ofMinutes(5));
            ingest.run(List.of(List.of(row("a", 5, "10:01").get(0), row("b", 7, "10:05").get(0))));
            assertThat(d.rows()).as("batch 0 and the no-data batch 1 each write the table")
                    .containsExactlyInAnyOrder(W1000 + "|a|5.0", W1000 + "|b|7.0", W1000 + "|a|5.0", W1000 + "|b|7.0");

            ingest.run(List.of(row("c", 1, "10:30")));
            assertThat(d.rows()).containsExactlyInAnyOrder(W1000 + "|a|5.0", W1000 + "|b|7.0", W1030 + "|c|1.0",
                    W1000 + "|a|5.0", W1000 + "|b|7.0", W1030 + "|c|1.0");

            ingest.run(List.of(row("a", 1, "10:02")));
            assertThat(d.rows()).as("complete keeps all state, so a row behind the watermark still counts")
                    .containsExactlyInAnyOrder(W1000 + "|a|6.0", W1000 + "|b|7.0", W1030 + "|c|1.0");
            assertThat(d.metric(AggregateMetrics.ROWS_DROPPED)).isEqualTo(0.0);
        }
    }

    /**
     * Spark allows complete mode without a watermark: each batch writes the whole result table,
     * every group's running totals; nothing is late and no state is ever dropped. The ingest's
     * markers then carry no watermark.
     */
    @Test
    void completeWithoutWatermarkWritesEveryGroupsRunningTotalsAtEachMarker() {
        AggregateSpec spec = AggregateSpec.builder().eventTime("ts").window(Duration.ofMinutes(10))
                .groupBy("user").select("t", "sum(amt)").outputMode(OutputMode.COMPLETE).build(AggregationDriver.seedSchema());
        try (AggregationDriver d = AggregationDriver.of(spec, stateDir)) {
            d.row(row("a", 5, "10:01").get(0));
            d.row(row("b", 7, "10:05").get(0));
            d.row(row("a", 1, "10:04").get(0));
            assertThat(d.rows()).as("nothing before the batch's marker").isEmpty();
            d.marker(0, null);
            assertThat(d.rows()).containsExactly(W1000 + "|a|6.0", W1000 + "|b|7.0");

            d.row(row("a", 2, "10:09").get(0));
            d.row(row("c", 1, "10:20").get(0));
            d.marker(1, null);
            assertThat(d.rows()).containsExactly(W1000 + "|a|8.0", W1000 + "|b|7.0", W1020 + "|c|1.0");

            d.row(row("a", 100, "09:00").get(0)); // hours behind the newest event: no watermark, so not late
            d.marker(2, null);
            assertThat(d.rows()).containsExactly(W0900 + "|a|100.0", W1000 + "|a|8.0", W1000 + "|b|7.0", W1020 + "|c|1.0");
            assertThat(d.metric(AggregateMetrics.ROWS_DROPPED)).isEqualTo(0.0);
            assertThat(d.metric(AggregateMetrics.ROWS_TOTAL)).isEqualTo(4.0);
            assertThat(d.metric(AggregateMetrics.OUTPUT_ROWS)).isEqualTo(2.0 + 3.0 + 4.0);
        }
    }

    /** The gauge a bounded run reads to tell rows that wait for their batch's marker from rows already written. */
    @Test
    void theOpenBatchPositionFollowsTheRowsUntilTheirMarker() {
        AggregateSpec spec = AggregateSpec.builder().eventTime("ts").window(Duration.ofMinutes(10))
                .groupBy("user").select("t", "sum(amt)").outputMode(OutputMode.UPDATE).build(AggregationDriver.seedSchema());
        try (AggregationDriver d = AggregationDriver.of(spec, stateDir)) {
            assertThat(d.metric(AggregateMetrics.OPEN_BATCH_POSITION)).isEqualTo(-1.0);
            d.row(row("a", 5, "10:01").get(0)); // offset 0
            d.row(row("b", 7, "10:05").get(0)); // offset 1
            assertThat(d.metric(AggregateMetrics.OPEN_BATCH_POSITION)).as("the offset after the batch's last row").isEqualTo(2.0);
            d.marker(0, null); // offset 2
            assertThat(d.metric(AggregateMetrics.OPEN_BATCH_POSITION)).as("the marker ended the batch").isEqualTo(-1.0);
            assertThat(d.rows()).containsExactlyInAnyOrder(W1000 + "|a|5.0", W1000 + "|b|7.0");
            d.row(row("a", 1, "10:02").get(0)); // offset 3
            assertThat(d.metric(AggregateMetrics.OPEN_BATCH_POSITION)).isEqualTo(4.0);
            assertThat(d.rows()).as("the update waits for its marker").isEmpty();
        }
    }

    @Test
    void appendWritesEachWindowOnceAndNeverAgain() {
        try (AggregationDriver d = AggregationDriver.of(spec(OutputMode.APPEND), stateDir)) {
            SparkBatches ingest = new SparkBatches(d, Duration.ofMinutes(5));
            ingest.run(List.of(List.of(row("a", 5, "10:01").get(0), row("b", 7, "10:05").get(0))));
            assertThat(d.rows()).isEmpty();
            ingest.run(List.of(row("c", 1, "10:30")));
            assertThat(d.rows()).containsExactlyInAnyOrder(W1000 + "|a|5.0", W1000 + "|b|7.0");
            ingest.run(List.of(row("c", 2, "10:31")));
            assertThat(d.rows()).isEmpty();
            assertThat(d.metric(AggregateMetrics.OUTPUT_ROWS)).isEqualTo(2.0);
        }
    }
}
