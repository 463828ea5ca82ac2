package io.tributary.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Spark's window(ts, 10 minutes, 5 minutes): each event counts in every window that holds it. */
class HoppingWindowsTest {
    @TempDir
    Path stateDir;

    @Test
    void anEventCountsInBothOverlappingWindows() {
        AggregateSpec spec = AggregateSpec.builder().eventTime("ts").watermark(Duration.ofMinutes(5))
                .window(Duration.ofMinutes(10)).slide(Duration.ofMinutes(5)).groupBy("user")
                .select("t", "sum(amt)").select("n", "count(*)").outputMode(OutputMode.APPEND).build(AggregationDriver.seedSchema());
        try (AggregationDriver d = AggregationDriver.of(spec, stateDir)) {
            d.row("{\"user\":\"a\",\"amt\":1.0,\"ts\":\"2026-01-01T10:02:00Z\"}");
            d.row("{\"user\":\"a\",\"amt\":2.0,\"ts\":\"2026-01-01T10:07:00Z\"}");
            d.row("{\"user\":\"a\",\"amt\":4.0,\"ts\":\"2026-01-01T10:10:00Z\"}");
            d.marker(0, null);
            d.marker(1, AggregateFunctionsTest.ms("2026-01-01T10:20:00Z"));
            assertThat(d.rows()).containsExactly(
                    "{2026-01-01 09:55:00, 2026-01-01 10:05:00}|a|1.0|1",
                    "{2026-01-01 10:00:00, 2026-01-01 10:10:00}|a|3.0|2",
                    "{2026-01-01 10:05:00, 2026-01-01 10:15:00}|a|6.0|2",
                    "{2026-01-01 10:10:00, 2026-01-01 10:20:00}|a|4.0|1");
        }
    }

    @Test
    void aRowLateForItsOlderWindowStillCountsInTheOpenOne() {
        AggregateSpec spec = AggregateSpec.builder().eventTime("ts").watermark(Duration.ofMinutes(5))
                .window(Duration.ofMinutes(10)).slide(Duration.ofMinutes(5)).groupBy("user")
                .select("t", "sum(amt)").outputMode(OutputMode.UPDATE).build(AggregationDriver.seedSchema());
        try (AggregationDriver d = new AggregationDriver(spec, stateDir, true)) {
            d.marker(0, AggregateFunctionsTest.ms("2026-01-01T10:10:00Z"));
            d.row("{\"user\":\"a\",\"amt\":1.0,\"ts\":\"2026-01-01T10:07:00Z\"}");
            d.marker(1, AggregateFunctionsTest.ms("2026-01-01T10:10:00Z"));
            assertThat(d.rows()).containsExactly("{2026-01-01 10:05:00, 2026-01-01 10:15:00}|a|1.0");
            assertThat(d.lateRows()).hasSize(1).first()
                    .satisfies(j -> assertThat(j.path("window").path("end").asText()).isEqualTo("2026-01-01T10:10:00Z"));
        }
    }
}
