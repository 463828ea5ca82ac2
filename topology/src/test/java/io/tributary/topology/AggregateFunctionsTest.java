package io.tributary.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.schema.Schema;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every aggregate function with Spark's result type and null handling, on one window. */
class AggregateFunctionsTest {
    static final Schema INPUT = Schema.parse("id INT, user STRING, amt DOUBLE, qty INT, price DECIMAL(10,2), ts TIMESTAMP");

    @TempDir
    Path stateDir;

    @Test
    void everyFunctionGivesSparksValueAndType() {
        AggregateSpec spec = AggregateSpec.builder().eventTime("ts").watermark(Duration.ofMinutes(5))
                .window(Duration.ofMinutes(10)).groupBy("user")
                .select("n", "count(*)").select("c", "count(amt)").select("s", "sum(amt)").select("sq", "sum(qty)")
                .select("sp", "sum(price)").select("av", "avg(amt)").select("ap", "avg(price)").select("aq", "avg(qty)")
                .select("mn", "min(amt)").select("mx", "MAX(price)").select("f", "first(amt)").select("l", "last(qty)")
                .select("fu", "first(user)").select("mnts", "min(ts)")
                .outputMode(OutputMode.APPEND).build(INPUT);
        assertThat(spec.outputSchema().toDdl()).isEqualTo("window STRUCT<start: TIMESTAMP, end: TIMESTAMP>, user STRING, "
                + "n BIGINT, c BIGINT, s DOUBLE, sq BIGINT, sp DECIMAL(20,2), av DOUBLE, ap DECIMAL(14,6), aq DOUBLE, "
                + "mn DOUBLE, mx DECIMAL(10,2), f DOUBLE, l INT, fu STRING, mnts TIMESTAMP");
        try (AggregationDriver d = AggregationDriver.of(spec, stateDir)) {
            d.row("{\"id\":1,\"user\":\"a\",\"amt\":5.0,\"qty\":2,\"price\":1.25,\"ts\":\"2026-01-01T10:03:00Z\"}");
            d.row("{\"id\":2,\"user\":\"a\",\"amt\":null,\"qty\":3,\"price\":2.50,\"ts\":\"2026-01-01T10:01:00Z\"}");
            d.row("{\"id\":3,\"user\":\"a\",\"amt\":1.5,\"price\":null,\"ts\":\"2026-01-01T10:02:00Z\"}");
            d.marker(0, null);
            d.marker(1, ms("2026-01-01T10:10:00Z"));
            List<AggregationDriver.Output> rows = d.drain().stream().filter(o -> !o.marker()).toList();
            assertThat(rows).hasSize(1);
            Object[] r = rows.get(0).row();
            assertThat(r[1]).isEqualTo("a");
            assertThat(java.util.Arrays.asList(r).subList(2, r.length)).containsExactly(3L, 2L, 6.5, 5L, new BigDecimal("3.75"), 3.25,
                    new BigDecimal("1.875000"), 2.5, 1.5, new BigDecimal("2.50"), 5.0, null, "a", micros("2026-01-01T10:01:00Z"));
        }
    }

    /** In complete mode each batch writes every group: max_by and min_by's later row wins a tie across batches too. */
    @Test
    void maxByAndMinByInCompleteModeAcrossBatches() {
        AggregateSpec spec = AggregateSpec.builder().eventTime("ts").watermark(Duration.ofMinutes(5)).window(Duration.ofMinutes(10))
                .groupBy("user").select("hi", "max_by(id, amt)").select("lo", "min_by(id, amt)").select("last", "max_by(amt, id)")
                .outputMode(OutputMode.COMPLETE).build(INPUT);
        assertThat(spec.outputSchema().toDdl()).isEqualTo("window STRUCT<start: TIMESTAMP, end: TIMESTAMP>, user STRING, hi INT, lo INT,"
                + " last DOUBLE");
        try (AggregationDriver d = AggregationDriver.of(spec, stateDir)) {
            d.row("{\"id\":1,\"user\":\"a\",\"amt\":5.0,\"ts\":\"2026-01-01T10:03:00Z\"}");
            d.row("{\"id\":2,\"user\":\"a\",\"amt\":5.0,\"ts\":\"2026-01-01T10:01:00Z\"}");
            d.row("{\"id\":3,\"user\":\"a\",\"amt\":null,\"ts\":\"2026-01-01T10:02:00Z\"}");
            d.marker(0, null);
            assertThat(d.rows()).as("the later of equal amt; amt NULL at the greatest id").containsExactly(
                    "{2026-01-01 10:00:00, 2026-01-01 10:10:00}|a|2|2|null");
            d.row("{\"id\":4,\"user\":\"a\",\"amt\":5.0,\"ts\":\"2026-01-01T10:04:00Z\"}");
            d.marker(1, null);
            assertThat(d.rows()).as("a tie with the earlier batch's state: the new row").containsExactly(
                    "{2026-01-01 10:00:00, 2026-01-01 10:10:00}|a|4|4|5.0");
        }
    }

    /** In complete mode each batch writes every group: the regressions' moments and the distinct-count registers carry over. */
    @Test
    void regressionsAndApproxCountDistinctInCompleteModeAcrossBatches() {
        AggregateSpec spec = AggregateSpec.builder().eventTime("ts").watermark(Duration.ofMinutes(5)).window(Duration.ofMinutes(10))
                .groupBy("user").select("n", "regr_count(amt, qty)").select("sl", "regr_slope(amt, qty)")
                .select("ic", "regr_intercept(amt, qty)").select("ax", "regr_avgx(amt, qty)").select("d", "approx_count_distinct(qty, 0.01)")
                .select("u", "approx_count_distinct(user)").outputMode(OutputMode.COMPLETE).build(INPUT);
        assertThat(spec.outputSchema().toDdl()).isEqualTo("window STRUCT<start: TIMESTAMP, end: TIMESTAMP>, user STRING, n BIGINT,"
                + " sl DOUBLE, ic DOUBLE, ax DOUBLE, d BIGINT, u BIGINT");
        try (AggregationDriver d = AggregationDriver.of(spec, stateDir)) {
            d.row("{\"id\":1,\"user\":\"a\",\"amt\":5.0,\"qty\":2,\"ts\":\"2026-01-01T10:03:00Z\"}");
            d.row("{\"id\":2,\"user\":\"a\",\"amt\":3.0,\"qty\":4,\"ts\":\"2026-01-01T10:01:00Z\"}");
            d.row("{\"id\":3,\"user\":\"a\",\"amt\":null,\"qty\":8,\"ts\":\"2026-01-01T10:02:00Z\"}");
            d.marker(0, null);
            assertThat(d.rows()).as("the pair with a NULL amt skipped by the regressions, not by the distinct count").containsExactly(
                    "{2026-01-01 10:00:00, 2026-01-01 10:10:00}|a|2|-1.0|7.0|3.0|3|1");
            d.row("{\"id\":4,\"user\":\"a\",\"amt\":1.0,\"qty\":6,\"ts\":\"2026-01-01T10:04:00Z\"}");
            d.row("{\"id\":5,\"user\":\"a\",\"amt\":null,\"qty\":2,\"ts\":\"2026-01-01T10:04:00Z\"}");
            d.marker(1, null);
            assertThat(d.rows()).as("the earlier batch's state and this batch's rows").containsExactly(
                    "{2026-01-01 10:00:00, 2026-01-01 10:10:00}|a|3|-1.0|7.0|4.0|4|1");
        }
    }

    /**
     * In complete mode each batch writes every window: listagg joins a later batch's values after the kept ones, WITHIN GROUP sorts
     * them with the kept ones; without WITHIN GROUP it is refused with session windows, as collect_list is.
     */
    @Test
    void listaggInCompleteModeAcrossBatchesAndRefusedInSessionsWithoutWithinGroup() {
        AggregateSpec spec = AggregateSpec.builder().eventTime("ts").watermark(Duration.ofMinutes(5)).window(Duration.ofMinutes(10))
                .groupBy("user").select("ids", "listagg(id, ',')").select("by", "string_agg(id, '/') WITHIN GROUP (ORDER BY amt DESC)")
                .outputMode(OutputMode.COMPLETE).build(INPUT);
        assertThat(spec.outputSchema().toDdl()).isEqualTo("window STRUCT<start: TIMESTAMP, end: TIMESTAMP>, user STRING, ids STRING,"
                + " by STRING");
        try (AggregationDriver d = AggregationDriver.of(spec, stateDir)) {
            d.row("{\"id\":2,\"user\":\"a\",\"amt\":1.0,\"ts\":\"2026-01-01T10:03:00Z\"}");
            d.row("{\"id\":1,\"user\":\"a\",\"amt\":3.0,\"ts\":\"2026-01-01T10:01:00Z\"}");
            d.row("{\"id\":9,\"user\":\"b\",\"amt\":null,\"ts\":\"2026-01-01T10:12:00Z\"}");
            d.marker(0, null);
            assertThat(d.rows()).containsExactlyInAnyOrder("{2026-01-01 10:00:00, 2026-01-01 10:10:00}|a|2,1|1/2",
                    "{2026-01-01 10:10:00, 2026-01-01 10:20:00}|b|9|9");
            d.row("{\"id\":3,\"user\":\"a\",\"amt\":2.0,\"ts\":\"2026-01-01T10:04:00Z\"}");
            d.marker(1, null);
            assertThat(d.rows()).as("every window again, a's third value after the kept two, sorted among them").containsExactlyInAnyOrder(
                    "{2026-01-01 10:00:00, 2026-01-01 10:10:00}|a|2,1,3|1/3/2", "{2026-01-01 10:10:00, 2026-01-01 10:20:00}|b|9|9");
        }
        AggregateSpec.Builder session = AggregateSpec.builder().eventTime("ts").watermark(Duration.ofMinutes(5))
                .session(Duration.ofMinutes(10)).groupBy("user").outputMode(OutputMode.APPEND);
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> session.select("ids", "listagg(id, ',')").build(INPUT)))
                .hasMessageContaining("listagg(id, ',') is not supported with aggregate.session: Spark's value depends on the order");
        assertThat(AggregateSpec.builder().eventTime("ts").watermark(Duration.ofMinutes(5)).session(Duration.ofMinutes(10))
                .groupBy("user").outputMode(OutputMode.APPEND).select("ids", "listagg(id, ',') WITHIN GROUP (ORDER BY ts)").build(INPUT)
                .outputSchema().toDdl()).endsWith("ids STRING");
    }

    @Test
    void aggregatesOfOnlyNullsAreNullButCountsAreZero() {
        AggregateSpec spec = AggregateSpec.builder().eventTime("ts").watermark(Duration.ZERO).window(Duration.ofMinutes(10))
                .groupBy("user").select("n", "count(*)").select("c", "count(qty)").select("s", "sum(qty)")
                .select("a", "avg(qty)").select("m", "max(qty)").select("f", "first(qty)")
                .outputMode(OutputMode.APPEND).build(INPUT);
        try (AggregationDriver d = AggregationDriver.of(spec, stateDir)) {
            d.row("{\"id\":1,\"user\":\"a\",\"ts\":\"2026-01-01T10:03:00Z\"}");
            d.marker(0, ms("2026-01-01T10:10:00Z"));
            assertThat(d.rows()).containsExactly("{2026-01-01 10:00:00, 2026-01-01 10:10:00}|a|1|0|null|null|null|null");
        }
    }

    @Test
    void groupingByNothingAggregatesTheWholeWindow() {
        AggregateSpec spec = AggregateSpec.builder().eventTime("ts").watermark(Duration.ZERO).window(Duration.ofMinutes(10))
                .select("total", "sum(amt)").outputMode(OutputMode.APPEND).build(INPUT);
        assertThat(spec.outputSchema().toDdl()).isEqualTo("window STRUCT<start: TIMESTAMP, end: TIMESTAMP>, total DOUBLE");
        try (AggregationDriver d = AggregationDriver.of(spec, stateDir)) {
            d.row("{\"id\":1,\"user\":\"a\",\"amt\":2.0,\"ts\":\"2026-01-01T10:03:00Z\"}");
            d.row("{\"id\":2,\"user\":\"b\",\"amt\":3.0,\"ts\":\"2026-01-01T10:04:00Z\"}");
            d.marker(0, ms("2026-01-01T10:10:00Z"));
            assertThat(d.rows()).containsExactly("{2026-01-01 10:00:00, 2026-01-01 10:10:00}|5.0");
        }
    }

    @Test
    void rowsWithoutEventTimeAreSkippedAsSparksWindowSkipsThem() {
        try (AggregationDriver d = AggregationDriver.of(GoldenWindowsTest.goldenSpec(), stateDir)) {
            d.row("{\"id\":1,\"user\":\"a\",\"amt\":2.0,\"ts\":\"2026-01-01T10:03:00Z\"}");
            d.row("{\"id\":2,\"user\":\"a\",\"amt\":40.0,\"ts\":null}");
            d.marker(0, null);
            d.marker(1, ms("2026-01-01T10:10:00Z"));
            assertThat(d.rows()).containsExactly("{2026-01-01 10:00:00, 2026-01-01 10:10:00}|a|2.0");
        }
    }

    static long ms(String iso) {
        return java.time.Instant.parse(iso).toEpochMilli();
    }

    static long micros(String iso) {
        return ms(iso) * 1000;
    }

    @Test
    void countIfCountsTheRowsWhoseConditionIsTrue() {
        Schema input = Schema.parse("user STRING, big BOOLEAN, ts TIMESTAMP");
        AggregateSpec spec = AggregateSpec.builder().eventTime("ts").watermark(Duration.ofMinutes(5))
                .window(Duration.ofMinutes(10)).groupBy("user").select("n", "count_if(big)").select("none", "COUNT_IF(big)")
                .outputMode(OutputMode.APPEND).build(input);
        assertThat(spec.outputSchema().toDdl()).endsWith("n BIGINT, none BIGINT");
        try (AggregationDriver d = AggregationDriver.of(spec, stateDir)) {
            d.row("{\"user\":\"a\",\"big\":true,\"ts\":\"2026-01-01T10:01:00Z\"}");
            d.row("{\"user\":\"a\",\"big\":false,\"ts\":\"2026-01-01T10:02:00Z\"}");
            d.row("{\"user\":\"a\",\"big\":null,\"ts\":\"2026-01-01T10:03:00Z\"}");
            d.row("{\"user\":\"a\",\"big\":true,\"ts\":\"2026-01-01T10:04:00Z\"}");
            d.row("{\"user\":\"b\",\"big\":false,\"ts\":\"2026-01-01T10:04:00Z\"}");
            d.marker(0, null);
            d.marker(1, ms("2026-01-01T10:10:00Z"));
            assertThat(d.rows()).containsExactlyInAnyOrder("{2026-01-01 10:00:00, 2026-01-01 10:10:00}|a|2|2",
                    "{2026-01-01 10:00:00, 2026-01-01 10:10:00}|b|0|0");
        }
    }
}
