package io.tributary.topology.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import io.tributary.topology.Aggregate;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * percentile, median, percentile_cont, percentile_disc and mode give Spark 4.2's values and types (each expected value is what
 * Spark 4.2 gave for {@code SELECT ... FROM VALUES ...} of the same rows), from a state that survives the state store's serde
 * after every row and merges as it folds; and they are refused at start where Spark refuses them, with Spark's condition.
 */
class OrderStatisticsTest {

    @Test
    void percentileInterpolatesAsSparkAndPercentileDiscTakesTheFirstValueWhoseCountReachesIt() {
        Object[] ints = {1, 2, 2, 3, 3, 10, null};
        assertThat(value("INT", "percentile(x, 0.5)", ints)).isEqualTo(2.5);
        assertThat(value("INT", "percentile(x, array(0.25, 0.75))", ints)).isEqualTo(List.of(2.0, 3.0));
        assertThat(value("INT", "median(x)", ints)).isEqualTo(2.5);
        assertThat(value("INT", "percentile_cont(0.4) WITHIN GROUP (ORDER BY x)", ints)).isEqualTo(2.0);
        assertThat(value("INT", "percentile_disc(0.4) WITHIN GROUP (ORDER BY x)", ints)).isEqualTo(2.0);
        assertThat(value("INT", "percentile_disc(0.4) WITHIN GROUP (ORDER BY x DESC)", ints)).isEqualTo(3.0);
        assertThat(value("INT", "percentile_cont(0.4) WITHIN GROUP (ORDER BY x DESC)", ints)).isEqualTo(3.0);
        Object[] tiny = {(byte) 1, (byte) 5, (byte) 7};
        assertThat(value("TINYINT", "percentile(x, 0.3)", tiny)).isEqualTo(3.4);
        assertThat(value("TINYINT", "percentile_disc(0.3) WITHIN GROUP (ORDER BY x)", tiny)).isEqualTo(1.0);
        assertThat(value("TINYINT", "percentile_disc(array(0.3, 0.9)) WITHIN GROUP (ORDER BY x)", tiny)).isEqualTo(List.of(1.0, 7.0));
        Object[] five = {1, 2, 3, 4, 5};
        assertThat(IntStream.of(50, 0, 100, 25, 26).mapToObj(p -> value("INT", "percentile_disc(" + p / 100.0 + ") WITHIN GROUP (ORDER BY x)", five)))
                .containsExactly(3.0, 1.0, 5.0, 2.0, 2.0);
        Object[] four = {1, 2, 3, 4};
        assertThat(IntStream.of(50, 25, 75, 74).mapToObj(p -> value("INT", "percentile_disc(" + p / 100.0 + ") WITHIN GROUP (ORDER BY x)", four)))
                .containsExactly(2.0, 1.0, 3.0, 3.0);
        Object[] ten = IntStream.rangeClosed(1, 10).boxed().toArray();
        assertThat(Arrays.asList(disc("0.7", ten), disc("0.3", ten), disc("0.6", ten), disc("0.7", ten, " DESC"), disc("0.3", ten, " DESC")))
                .containsExactly(7.0, 3.0, 6.0, 4.0, 8.0);
        Object[] hundred = IntStream.rangeClosed(1, 100).boxed().toArray();
        assertThat(Arrays.asList(disc("0.29", hundred), disc("0.57", hundred), disc("0.58", hundred), disc("0.07", hundred)))
                .as("0.07 * 100 is 7.000000000000001 in a double, as in Spark").containsExactly(29.0, 57.0, 58.0, 8.0);
        Object[] repeated = {1, 1, 1, 5, 9, 9};
        assertThat(Arrays.asList(disc("0.5", repeated), disc("0.51", repeated), disc("0.34", repeated))).containsExactly(1.0, 5.0, 1.0);
    }

    @Test
    void theDoublesAreSparksToTheBit() {
        Object[] d = {0.1, 0.2, 0.7, 1.9};
        assertThat(value("DOUBLE", "percentile_cont(0.3) WITHIN GROUP (ORDER BY x DESC)", d)).isEqualTo(0.8200000000000001);
        assertThat(value("DOUBLE", "percentile(x, 0.3)", d)).isEqualTo(0.19);
        assertThat(value("DOUBLE", "percentile(x, 0.7)", d)).isEqualTo(0.8199999999999995);
        assertThat(value("DOUBLE", "percentile(x, 0.5)", 1.0, Double.NaN)).isEqualTo(Double.NaN);
        assertThat(value("DOUBLE", "percentile_disc(0.5) WITHIN GROUP (ORDER BY x)", 1.0, Double.NaN)).isEqualTo(1.0);
        Object[] inf = {Double.POSITIVE_INFINITY, 1.0, Double.NEGATIVE_INFINITY};
        assertThat(value("DOUBLE", "percentile(x, 0.25)", inf)).isEqualTo(Double.NEGATIVE_INFINITY);
        assertThat(value("DOUBLE", "percentile(x, 0.75)", inf)).isEqualTo(Double.POSITIVE_INFINITY);
        assertThat(value("FLOAT", "percentile(x, 0.5)", 1.0f, 2.2f)).isEqualTo(1.600000023841858);
        assertThat(value("BIGINT", "percentile(x, 0.5)", 9007199254740993L, 9007199254740995L)).isEqualTo(9.007199254740994E15);
        assertThat(value("BIGINT", "mode(x)", 9007199254740993L, 9007199254740995L)).isEqualTo(9007199254740993L);
        BigDecimal a = new BigDecimal("1.25");
        BigDecimal b = new BigDecimal("2.50");
        assertThat(value("DECIMAL(10,2)", "percentile(x, 0.5)", a, b)).isEqualTo(1.875);
        assertThat(value("DECIMAL(10,2)", "percentile_disc(0.5) WITHIN GROUP (ORDER BY x)", a, b)).isEqualTo(1.25);
        assertThat(value("DOUBLE", "median(x)", new Object[] {null})).isNull();
        assertThat(value("DOUBLE", "percentile(x, array(0.5))", new Object[] {null})).as("no value: NULL, not an array").isNull();
    }

    @Test
    void aFrequencyCountsARowThatManyTimesAndANullOrZeroNotAtAll() {
        Schema s = Schema.parse("x INT, f INT");
        List<Object[]> rows = List.<Object[]>of(new Object[] {1, 3}, new Object[] {2, 0}, new Object[] {7, 1}, new Object[] {9, null});
        assertThat(fold(AggregateParser.parse("k", "p", "percentile(x, 0.5, f)", s), rows)).isEqualTo(1.0);
        assertThat(fold(AggregateParser.parse("k", "p", "percentile(x, array(0, 1, 0.5), f)", s), rows)).isEqualTo(List.of(1.0, 7.0, 1.0));
        Throwable negative = catchThrowable(() -> fold(AggregateParser.parse("k", "p", "percentile(x, 0.5, f)", s),
                List.<Object[]>of(new Object[] {1, -1})));
        assertThat(negative).isInstanceOf(TributaryException.class).hasMessageContaining("NEGATIVE_VALUES_IN_FREQUENCY_EXPRESSION")
                .hasMessageContaining("aggregate.select.p");
    }

    @Test
    void modeBreaksTiesByTheValueAsDeterministicAndWithinGroupAsk() {
        Object[] ints = {3, 1, 2, 2, 3, 1, 10};
        assertThat(value("INT", "mode(x, true)", ints)).isEqualTo(1);
        assertThat(value("INT", "mode() WITHIN GROUP (ORDER BY x)", ints)).isEqualTo(1);
        assertThat(value("INT", "mode() WITHIN GROUP (ORDER BY x DESC)", ints)).isEqualTo(3);
        Object[] doubles = {4.0, 1.5, 4.0, 1.5, 0.1};
        assertThat(value("DOUBLE", "mode(x, true)", doubles)).isEqualTo(1.5);
        assertThat(value("DOUBLE", "mode() WITHIN GROUP (ORDER BY x DESC)", doubles)).isEqualTo(4.0);
        assertThat(value("STRING", "mode(x, true)", "b", "a", "c", "a", "b", "c")).isEqualTo("a");
        assertThat(value("DOUBLE", "mode(x)", Double.NaN, 1.0, -0.0, 0.0, 0.0, -0.0, -0.0)).as("-0.0 counts as 0.0").isEqualTo(0.0);
        assertThat(value("DOUBLE", "median(x)", Double.NaN, 1.0, -0.0, 0.0, 0.0, -0.0, -0.0)).isEqualTo(0.0);
        assertThat(value("DECIMAL(10,2)", "mode(x)", new BigDecimal("1.25"), new BigDecimal("2.50"))).isEqualTo(new BigDecimal("1.25"));
    }

    @Test
    void theResultTypesAreSparks() {
        Schema s = Schema.parse("i INT, d DECIMAL(10,2), t TINYINT, u STRING, ts TIMESTAMP, dt DATE");
        assertThat(type("percentile(i, 0.5)", s)).isEqualTo("DOUBLE");
        assertThat(type("percentile(d, array(0.1, 0.2))", s)).isEqualTo("ARRAY<DOUBLE>");
        assertThat(type("percentile_disc(0.5) WITHIN GROUP (ORDER BY t)", s)).as("a DOUBLE, as Spark 4.2 gives it").isEqualTo("DOUBLE");
        assertThat(type("median(d)", s)).isEqualTo("DOUBLE");
        assertThat(type("mode(d)", s)).isEqualTo("DECIMAL(10,2)");
        assertThat(type("mode() WITHIN GROUP (ORDER BY dt DESC)", s)).isEqualTo("DATE");
        assertThat(type("mode(u, true)", s)).isEqualTo("STRING");
    }

    @Test
    void whatSparkRefusesAtStartIsRefusedWithItsCondition() {
        Schema s = Schema.parse("x INT, amt DOUBLE, u STRING, ts TIMESTAMP");
        assertThat(refusal("percentile(x, 1.5)", s)).contains("DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE").contains("aggregate.select.p");
        assertThat(refusal("percentile(x, array(0.1, 1.1))", s)).contains("DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE");
        assertThat(refusal("percentile(x, -0.1)", s)).contains("DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE");
        assertThat(refusal("percentile(x, x)", s)).contains("DATATYPE_MISMATCH.NON_FOLDABLE_INPUT");
        assertThat(refusal("percentile(x, CAST(NULL AS DOUBLE))", s)).contains("DATATYPE_MISMATCH.UNEXPECTED_NULL");
        assertThat(refusal("percentile(ts, 0.5)", s)).contains("DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE").contains("TIMESTAMP");
        assertThat(refusal("percentile(x, 0.5, amt)", s)).contains("DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE").contains("frequency");
        assertThat(refusal("mode(x, x > 1)", s)).contains("NON_FOLDABLE");
        assertThat(refusal("percentile_cont(0.5)", s)).contains("percentile_cont(p) WITHIN GROUP (ORDER BY col [DESC])");
        assertThat(refusal("mode(x) WITHIN GROUP (ORDER BY x)", s)).contains("mode() WITHIN GROUP (ORDER BY col [DESC])");
        assertThat(type("percentile(u, 0.5)", s)).as("text read as Spark's CAST(u AS DOUBLE)").isEqualTo("DOUBLE");
        assertThat(type("percentile_approx(u, array(0.5))", s)).as("text read as Spark's CAST(u AS DOUBLE)").isEqualTo("ARRAY<DOUBLE>");
    }

    private static Object disc(String p, Object[] values) {
        return disc(p, values, "");
    }

    private static Object disc(String p, Object[] values, String direction) {
        return value("INT", "percentile_disc(" + p + ") WITHIN GROUP (ORDER BY x" + direction + ")", values);
    }

    private static String type(String call, Schema s) {
        return AggregateParser.parse("aggregate.select.p", "p", call, s).resultType().ddl();
    }

    private static String refusal(String call, Schema s) {
        Throwable t = catchThrowable(() -> AggregateParser.parse("aggregate.select.p", "p", call, s));
        assertThat(t).as(call).isInstanceOf(TributaryException.class);
        return t.getMessage();
    }

    /** The aggregate of {@code x} over the values, folded row by row through the serde, checked against two halves merged. */
    private static Object value(String type, String call, Object... values) {
        Schema s = Schema.parse("x " + type);
        List<Object[]> rows = new ArrayList<>();
        for (Object v : values) {
            rows.add(new Object[] {v});
        }
        return fold(AggregateParser.parse("aggregate.select.p", "p", call, s), rows);
    }

    private static Object fold(Aggregate a, List<Object[]> rows) {
        Accumulator acc = Accumulators.of(a);
        Object state = acc.zero();
        Object half = acc.zero();
        Object rest = acc.zero();
        for (int i = 0; i < rows.size(); i++) {
            state = roundTrip(acc, acc.add(roundTrip(acc, state), rows.get(i)));
            if (i < rows.size() / 2) {
                half = acc.add(half, rows.get(i));
            } else {
                rest = acc.add(rest, rows.get(i));
            }
        }
        Object result = acc.result(state);
        assertThat(acc.result(roundTrip(acc, acc.merge(roundTrip(acc, half), roundTrip(acc, rest))))).as("%s: two halves merged", a)
                .isEqualTo(result);
        return result;
    }

    private static Object roundTrip(Accumulator acc, Object state) {
        ByteSink out = new ByteSink(16);
        acc.write(out, state);
        return acc.read(new ByteSource(out.toByteArray(), 0));
    }
}
