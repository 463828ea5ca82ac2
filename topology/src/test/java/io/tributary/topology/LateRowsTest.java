package io.tributary.topology;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The windows example's late row: dropped from the aggregate and counted, as in Spark; kept with its window and lateness on request. */
class LateRowsTest {
    static final String LATE = "{\"id\":7,\"user\":\"a\",\"amt\":100.0,\"ts\":\"2026-01-01T10:05:00Z\"}";

    @TempDir
    Path stateDir;

    @Test
    void aLateRowIsDroppedCountedAndLeavesTheTableAlone() {
        try (AggregationDriver d = AggregationDriver.of(GoldenWindowsTest.goldenSpec(), stateDir)) {
            SparkBatches ingest = new SparkBatches(d, Duration.ofMinutes(5));
            ingest.run(List.of(SeedExampleTest.SEED_ROWS));
            d.drain();
            assertThat(ingest.run(List.of(List.of(LATE)))).isEqualTo("2:1");
            List<AggregationDriver.Output> out = d.drain();
            assertThat(out).hasSize(1);
            assertThat(out.get(0).marker()).isTrue();
            assertThat(out.get(0).json().path(AggregateMetrics.MARKER_ROWS_DROPPED).asLong()).isEqualTo(1);
            assertThat(d.metric(AggregateMetrics.ROWS_DROPPED)).isEqualTo(1.0);
            assertThat(d.metric(AggregateMetrics.ROWS_TOTAL)).as("the 10:20 window only").isEqualTo(1.0);
        }
    }

    @Test
    void deadLetterKeepsTheLateRowWithItsWindowAndLateness() {
        try (AggregationDriver d = new AggregationDriver(GoldenWindowsTest.goldenSpec(), stateDir, true)) {
            SparkBatches ingest = new SparkBatches(d, Duration.ofMinutes(5));
            ingest.run(List.of(SeedExampleTest.SEED_ROWS));
            assertThat(d.lateRows()).isEmpty();
            ingest.run(List.of(List.of(LATE)));
            List<JsonNode> late = d.lateRows();
            assertThat(late).hasSize(1);
            JsonNode r = late.get(0);
            assertThat(r.path("row").path("amt").asDouble()).isEqualTo(100.0);
            assertThat(r.path("window").toString()).isEqualTo("{\"start\":\"2026-01-01T10:00:00Z\",\"end\":\"2026-01-01T10:10:00Z\"}");
            assertThat(r.path("watermark").asText()).isEqualTo("2026-01-01T10:15:00Z");
            assertThat(r.path("latenessMs").asLong()).isEqualTo(Duration.ofMinutes(10).toMillis());
            assertThat(r.path("topic").asText()).isEqualTo(AggregationDriver.EVENTS);
        }
    }

    /** A late row that came in binary (file-ingest's events for an aggregation) has the dead letter it has in JSON Lines. */
    @Test
    void deadLetterOfABinaryEventIsTheOneOfItsJson(@TempDir Path jsonState) {
        List<JsonNode> fromJson;
        try (AggregationDriver d = new AggregationDriver(GoldenWindowsTest.goldenSpec(), jsonState, true)) {
            SparkBatches ingest = new SparkBatches(d, Duration.ofMinutes(5));
            ingest.run(List.of(SeedExampleTest.SEED_ROWS));
            ingest.run(List.of(List.of(LATE)));
            fromJson = d.lateRows();
        }
        try (AggregationDriver d = AggregationDriver.binary(GoldenWindowsTest.goldenSpec(), stateDir, true)) {
            SparkBatches ingest = new SparkBatches(d, Duration.ofMinutes(5));
            ingest.run(List.of(SeedExampleTest.SEED_ROWS));
            ingest.run(List.of(List.of(LATE)));
            List<JsonNode> late = d.lateRows();
            assertThat(late).hasSize(1).isEqualTo(fromJson);
            assertThat(late.get(0).path("row").path("amt").asDouble()).isEqualTo(100.0);
            assertThat(late.get(0).path("row").path("user").asText()).isEqualTo("a");
            assertThat(d.metric(AggregateMetrics.ROWS_DROPPED)).isEqualTo(1.0);
        }
    }

    @Test
    void aWindowEndingExactlyAtTheWatermarkIsClosedAsInSpark() {
        try (AggregationDriver d = AggregationDriver.of(GoldenWindowsTest.goldenSpec(), stateDir)) {
            d.row("{\"user\":\"a\",\"amt\":1.0,\"ts\":\"2026-01-01T10:09:59.999999Z\"}");
            d.marker(0, AggregateFunctionsTest.ms("2026-01-01T10:10:00Z"));
            assertThat(d.rows()).as("end <= watermark: emitted").containsExactly("{2026-01-01 10:00:00, 2026-01-01 10:10:00}|a|1.0");
            d.row("{\"user\":\"a\",\"amt\":2.0,\"ts\":\"2026-01-01T10:00:00Z\"}");
            d.row("{\"user\":\"a\",\"amt\":4.0,\"ts\":\"2026-01-01T10:10:00Z\"}");
            d.marker(1, AggregateFunctionsTest.ms("2026-01-01T10:20:00Z"));
            assertThat(d.rows()).as("10:00 is late (its window ends at the watermark); 10:10 is not")
                    .containsExactly("{2026-01-01 10:10:00, 2026-01-01 10:20:00}|a|4.0");
            assertThat(d.metric(AggregateMetrics.ROWS_DROPPED)).isEqualTo(1.0);
        }
    }
}
