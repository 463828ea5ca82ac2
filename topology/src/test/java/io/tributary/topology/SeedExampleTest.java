package io.tributary.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The windows example (revenue per user per 10-minute window), batch by batch as Spark ran it. */
class SeedExampleTest {
    static final List<String> SEED_ROWS = List.of(
            "{\"id\":1,\"user\":\"a\",\"amt\":5.0,\"ts\":\"2026-01-01T10:01:00Z\"}",
            "{\"id\":2,\"user\":\"a\",\"amt\":1.0,\"ts\":\"2026-01-01T10:04:00Z\"}",
            "{\"id\":3,\"user\":\"b\",\"amt\":7.0,\"ts\":\"2026-01-01T10:05:00Z\"}",
            "{\"id\":4,\"user\":\"a\",\"amt\":2.0,\"ts\":\"2026-01-01T10:09:00Z\"}",
            "{\"id\":5,\"user\":\"a\",\"amt\":1.0,\"ts\":\"2026-01-01T10:20:00Z\"}");

    @TempDir
    Path stateDir;

    @Test
    void appendEmitsTheClosedWindowAndHoldsTheOneWithTenTwenty() {
        try (AggregationDriver driver = AggregationDriver.of(GoldenWindowsTest.goldenSpec(), stateDir)) {
            SparkBatches ingest = new SparkBatches(driver, Duration.ofMinutes(5));
            assertThat(ingest.run(List.of(SEED_ROWS))).isEqualTo("0:5,1:0");
            assertThat(driver.rows()).containsExactlyInAnyOrder(
                    "{2026-01-01 10:00:00, 2026-01-01 10:10:00}|a|8.0",
                    "{2026-01-01 10:00:00, 2026-01-01 10:10:00}|b|7.0");

            ingest.run(List.of(List.of("{\"id\":6,\"user\":\"a\",\"amt\":3.0,\"ts\":\"2026-01-01T10:36:00Z\"}")));
            assertThat(driver.rows()).containsExactly("{2026-01-01 10:20:00, 2026-01-01 10:30:00}|a|1.0");
        }
    }

    @Test
    void resultRowsHaveSparksSchemaAndABatchsRowsShareARecord() {
        AggregateSpec spec = GoldenWindowsTest.goldenSpec();
        assertThat(spec.outputSchema().toDdl()).isEqualTo("window STRUCT<start: TIMESTAMP, end: TIMESTAMP>, user STRING, t DOUBLE");
        try (AggregationDriver driver = AggregationDriver.of(spec, stateDir)) {
            new SparkBatches(driver, Duration.ofMinutes(5)).run(List.of(SEED_ROWS));
            List<AggregationDriver.Output> out = driver.drain();
            AggregationDriver.Output a = out.stream().filter(o -> !o.marker() && "a".equals(o.row()[1])).findFirst().orElseThrow();
            assertThat(a.value()).isEqualTo("{\"window\":{\"start\":\"2026-01-01T10:00:00Z\",\"end\":\"2026-01-01T10:10:00Z\"},\"user\":\"a\",\"t\":8.0}");
            AggregationDriver.Output b = out.stream().filter(o -> !o.marker() && "b".equals(o.row()[1])).findFirst().orElseThrow();
            assertThat(b.record()).isEqualTo(a.record());
        }
    }

    @Test
    void eachMarkerIsForwardedAfterItsBatchsRowsWithTheBatchCounts() {
        try (AggregationDriver driver = AggregationDriver.of(GoldenWindowsTest.goldenSpec(), stateDir)) {
            new SparkBatches(driver, Duration.ofMinutes(5)).run(List.of(SEED_ROWS));
            List<AggregationDriver.Output> out = driver.drain();
            assertThat(out).extracting(AggregationDriver.Output::marker).containsExactly(true, false, false, true);
            assertThat(out.get(0).json().toString()).isEqualTo("{\"batchId\":0,\"watermarkMs\":null,\"partition\":0,"
                    + "\"numRowsTotal\":3,\"numRowsUpdated\":3,\"numRowsDroppedByWatermark\":0,\"numOutputRows\":0}");
            assertThat(out.get(3).json().toString()).isEqualTo("{\"batchId\":1,\"watermarkMs\":1767262500000,\"partition\":0,"
                    + "\"numRowsTotal\":1,\"numRowsUpdated\":0,\"numRowsDroppedByWatermark\":0,\"numOutputRows\":2}");
        }
    }
}
