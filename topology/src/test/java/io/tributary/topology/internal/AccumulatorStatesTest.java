package io.tributary.topology.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import io.tributary.topology.Aggregate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The state of each aggregate function as the state stores keep it: written and read back at any point it gives the same
 * value, and merging two halves gives what folding every row gives (as sessions merge).
 */
class AccumulatorStatesTest {
    private static final Schema INPUT = Schema.parse("id INT, user STRING, amt DOUBLE, ok BOOLEAN, ts TIMESTAMP");
    private static final List<Object[]> ROWS = List.of(
            new Object[] {1, "m", 4.0, true, 0L}, new Object[] {2, "n", null, null, 0L}, new Object[] {3, "m", 1.5, false, 0L},
            new Object[] {4, null, 4.0, true, 0L}, new Object[] {5, "é", -0.0, null, 0L}, new Object[] {6, "m", 0.0, true, 0L});

    @Test
    void everyStateRoundTripsAndMergesAsItFolds() {
        String[] calls = {"stddev(amt)", "stddev_samp(id)", "stddev_pop(amt)", "variance(amt)", "var_samp(id)", "var_pop(amt)",
            "bool_and(ok)", "every(ok)", "bool_or(ok)", "some(ok)", "any(ok)", "any_value(user)", "collect_list(amt)",
            "collect_set(amt)", "collect_list(user)", "collect_set(user)", "collect_set(ts)", "mean(amt)", "std(amt)", "first_value(user)",
            "last_value(id)", "array_agg(user)", "try_sum(id)", "try_sum(amt)", "try_avg(id)", "bit_and(id)", "bit_or(id)", "bit_xor(id)",
            "skewness(amt)", "kurtosis(amt)", "skewness(id)", "kurtosis(id)", "max_by(id, amt)", "min_by(user, amt)", "max_by(amt, user)",
            "min_by(ok, id)", "max_by(user, ts)", "corr(amt, id)", "covar_pop(id, amt)", "covar_samp(amt, id)", "regr_count(amt, id)",
            "regr_avgx(amt, id)", "regr_avgy(amt, id)", "regr_sxx(amt, id)", "regr_syy(amt, id)", "regr_sxy(amt, id)",
            "regr_slope(amt, id)", "regr_intercept(amt, id)", "regr_r2(amt, id)", "approx_count_distinct(user)", "approx_count_distinct(amt, 0.01)",
            "min(amt)", "max(amt)", "first(amt)", "last(amt)", "any_value(amt)", "max_by(amt, id)",
            "percentile(amt, array(0.1, 0.5))", "median(id)", "percentile_disc(0.4) WITHIN GROUP (ORDER BY amt DESC)", "mode(user)",
            "percentile_approx(amt, array(0.1, 0.5))", "approx_percentile(id, 0.5, 100)", "percentile_approx(ts, 0.9)",
            "listagg(user, ', ')", "string_agg(user) WITHIN GROUP (ORDER BY amt DESC NULLS FIRST, id)", "listagg(id, '-')"};
        for (String call : calls) {
            Aggregate a = AggregateParser.parse("aggregate.select.x", "x", call, INPUT);
            Accumulator acc = Accumulators.of(a);
            Object state = acc.zero();
            List<Object> results = new ArrayList<>();
            for (Object[] row : ROWS) {
                state = roundTrip(acc, acc.add(roundTrip(acc, state), row));
                results.add(acc.result(state));
            }
            Object half = acc.zero();
            Object rest = acc.zero();
            for (int i = 0; i < ROWS.size(); i++) {
                if (i < 3) {
                    half = acc.add(half, ROWS.get(i));
                } else {
                    rest = acc.add(rest, ROWS.get(i));
                }
            }
            Object merged = acc.result(roundTrip(acc, acc.merge(roundTrip(acc, half), roundTrip(acc, rest))));
            if (merged instanceof Double d) { // merged by Spark's formulas, which round otherwise than folding row by row
                assertThat(d).as("%s: two halves merged", call).isCloseTo((Double) acc.result(state), within(1e-12));
            } else {
                assertThat(merged).as("%s: two halves merged", call).isEqualTo(acc.result(state));
            }
            assertThat(results).as("%s: a value after each row", call).hasSize(ROWS.size());
        }
    }

    @Test
    void theValuesAreSparks() {
        assertThat(values("stddev(amt)")).as("one value: NULL, as Spark's default").startsWith(null, null, 1.7677669529663689);
        assertThat(values("stddev_pop(amt)")).startsWith(0.0, 0.0, 1.25);
        assertThat(values("var_pop(amt)")).startsWith(0.0, 0.0, 1.5625);
        assertThat(values("bool_and(ok)")).containsExactly(true, true, false, false, false, false);
        assertThat(values("bool_or(ok)")).containsExactly(true, true, true, true, true, true);
        assertThat(values("collect_list(user)").get(5)).as("nulls are skipped").isEqualTo(List.of("m", "n", "m", "é", "m"));
        assertThat(values("collect_set(user)").get(5)).isEqualTo(List.of("m", "n", "é"));
        assertThat(values("collect_set(amt)").get(5)).as("-0.0 and 0.0 are one value, 0.0").isEqualTo(List.of(4.0, 1.5, 0.0));
        assertThat(values("any_value(amt)")).allMatch(v -> v.equals(4.0));
        assertThat(values("min(amt)").get(5)).as("-0.0 and 0.0 are equal: the first kept, -0.0 as Spark returns it").isEqualTo(-0.0);
        assertThat(values("last(amt)").get(4)).isEqualTo(-0.0);
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> values("stddev(ok)")))
                .hasMessage("aggregate.select.x: stddev(ok) reads a BOOLEAN column; stddev needs a numeric column (TINYINT, SMALLINT,"
                        + " INT, BIGINT, FLOAT, DOUBLE or DECIMAL), as Spark 4.2 does (DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE); change the"
                        + " column's type in the source schema, cast it in the select list or use count, min, max, first, last or"
                        + " collect_list");
    }

    /** Spark 4.2's values of the same rows ({@code SELECT try_sum(n), ... FROM VALUES ...}), whose sums overflow or whose bits fold. */
    @Test
    void tryFunctionsGiveNullWhereSumFailsAndBitsFoldInTheColumnsType() {
        Schema big = Schema.parse("n BIGINT, d DECIMAL(38,0), b TINYINT");
        java.math.BigDecimal nines = new java.math.BigDecimal("99999999999999999999999999999999999999");
        List<Object[]> rows = List.of(new Object[] {Long.MAX_VALUE, nines, (byte) -3}, new Object[] {1L, nines, (byte) 5},
                new Object[] {-5L, nines.negate(), null});
        assertThat(values("try_sum(n)", big, rows)).as("NULL from the overflow on").containsExactly(Long.MAX_VALUE, null, null);
        assertThat(values("try_sum(d)", big, rows)).as("the DECIMAL sum checked when given").containsExactly(nines, null, nines);
        assertThat(values("try_avg(d)", big, rows)).as("try_avg's sum NULL from the overflow on")
                .containsExactly(nines.setScale(4), null, null);
        assertThat(values("bit_and(b)", big, rows)).containsExactly((byte) -3, (byte) 5, (byte) 5);
        assertThat(values("bit_or(b)", big, rows)).containsExactly((byte) -3, (byte) -3, (byte) -3);
        assertThat(values("bit_xor(b)", big, rows)).containsExactly((byte) -3, (byte) -8, (byte) -8);
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> values("bit_or(amt)")))
                .hasMessage("aggregate.select.x: bit_or(amt) reads a DOUBLE column; bit_or needs an integral argument (TINYINT, SMALLINT, INT"
                        + " or BIGINT, as Spark's DATATYPE_MISMATCH says), e.g. bit_or(CAST(amt AS BIGINT))");
    }

    /** Spark's MaxMinBy: rows without an ordering are skipped, a NULL value at the extreme is the result, the later row wins a tie. */
    @Test
    void maxByAndMinByFollowSparksNullAndTieRules() {
        assertThat(values("max_by(id, amt)")).as("4.0 of id 1, then 4.0 of id 4 (the later), then -0.0 and 0.0 below")
                .containsExactly(1, 1, 1, 4, 4, 4);
        assertThat(values("min_by(id, amt)")).as("-0.0 and 0.0 are equal: the later, id 6").containsExactly(1, 1, 3, 3, 5, 6);
        assertThat(values("max_by(amt, id)")).as("id 2 orders its NULL amt").containsExactly(4.0, null, 1.5, 4.0, -0.0, 0.0);
        assertThat(values("max_by(user, ok)")).as("NULL ok skipped; user NULL at the latest true")
                .containsExactly("m", "m", "m", null, null, "m");
        assertThat(values("min_by(id, ok)")).containsExactly(1, 1, 3, 3, 3, 3);
        Accumulator acc = Accumulators.of(AggregateParser.parse("aggregate.select.x", "x", "max_by(id, user)", INPUT));
        Object earlier = acc.add(acc.zero(), ROWS.get(0));
        Object later = acc.add(acc.zero(), ROWS.get(2));
        assertThat(acc.result(acc.merge(earlier, later))).as("a tie across batches: the later batch's row").isEqualTo(3);
        assertThat(acc.result(acc.merge(later, earlier))).isEqualTo(1);
        assertThat(acc.result(acc.merge(earlier, acc.zero()))).isEqualTo(1);
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> values("max_by(amt)")))
                .hasMessage("aggregate.select.x: max_by takes two arguments, not as in 'max_by(amt)'; write e.g. max_by(user, amt)");
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> values("sum(amt, id)")))
                .hasMessage("aggregate.select.x: sum takes one argument, not as in 'sum(amt, id)'; write e.g. sum(amt)");
    }

    /**
     * The examples of Spark's documentation of each regr_ function (pairs (y, x)). Two of the documented values (regr_r2 and
     * regr_sxy of the first example) differ in the last bit from one fold of the rows in order, as a stream's batch folds
     * them: the values agree to 1e-15 here, and to the bit over a stream in golden/aggregate-functions/update-regr.
     */
    @Test
    void theRegressionFunctionsGiveSparksDocumentedValues() {
        Schema yx = Schema.parse("y INT, x INT");
        List<Object[]> all = List.of(new Object[] {1, 2}, new Object[] {2, 2}, new Object[] {2, 3}, new Object[] {2, 4});
        List<Object[]> noX = List.of(new Object[] {1, 2}, new Object[] {2, null}, new Object[] {2, 3}, new Object[] {2, 4});
        List<Object[]> noXnoY = List.of(new Object[] {1, 2}, new Object[] {2, null}, new Object[] {null, 3}, new Object[] {2, 4});
        assertThat(List.of(last("regr_count(y, x)", yx, all), last("regr_count(y, x)", yx, noX), last("regr_count(y, x)", yx, noXnoY)))
                .containsExactly("4", "3", "2");
        String[][] expected = {
            {"regr_avgx(y, x)", "2.75", "3.0", "3.0"}, {"regr_avgy(y, x)", "1.75", "1.6666666666666667", "1.5"},
            {"regr_r2(y, x)", "0.2727272727272727", "0.7500000000000001", "1.0"}, {"regr_sxx(y, x)", "2.75", "2.0", "2.0"},
            {"regr_sxy(y, x)", "0.75", "1.0", "1.0"}, {"regr_syy(y, x)", "0.75", "0.6666666666666666", "0.5"}};
        for (String[] e : expected) {
            List<List<Object[]>> inputs = List.of(all, noX, noXnoY);
            for (int i = 0; i < 3; i++) {
                assertThat(Double.parseDouble(last(e[0], yx, inputs.get(i)))).as("%s, example %d", e[0], i + 1)
                        .isCloseTo(Double.parseDouble(e[i + 1]), within(1e-15));
            }
        }
        List<Object[]> line = List.of(new Object[] {1, 1}, new Object[] {2, 2}, new Object[] {3, 3});
        assertThat(last("regr_slope(y, x)", yx, line)).isEqualTo("1.0");
        assertThat(last("regr_intercept(y, x)", yx, line)).isEqualTo("0.0");
        for (String f : List.of("regr_slope", "regr_intercept", "regr_avgx", "regr_sxx", "regr_r2")) {
            assertThat(values(f + "(y, x)", yx, List.<Object[]>of(new Object[] {1, null}, new Object[] {null, 1}))).as("%s of no pair", f)
                    .containsExactly(null, null);
        }
        assertThat(values("regr_count(y, x)", yx, List.<Object[]>of(new Object[] {null, 1}))).containsExactly(0L);
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> values("regr_slope(user, id)"))).as("text read as Spark's DOUBLE")
                .hasMessageStartingWith("aggregate.select.x: regr_slope(user, id) fails: [CAST_INVALID_INPUT]");
        Schema text = Schema.parse("y STRING, x INT");
        List<Object[]> numbers = List.<Object[]>of(new Object[] {"1", 1}, new Object[] {" 3.0 ", 2}, new Object[] {"2", 3});
        assertThat(values("median(y)", text, numbers)).as("text read as its DOUBLE").containsExactly(1.0, 2.0, 2.0);
        assertThat(values("percentile_approx(y, 0.5)", text, numbers)).containsExactly(1.0, 1.0, 2.0);
        assertThat(values("regr_slope(y, x)", Schema.parse("y STRING, x INT"), List.<Object[]>of(new Object[] {"1", 1}, new Object[] {" 3.0 ", 2},
                new Object[] {null, 3}))).containsExactly(null, 2.0, 2.0);
    }

    @Test
    void approxCountDistinctTakesAConstantRelativeStandardDeviationAsSparkDoes() {
        assertThat(values("approx_count_distinct(user)")).as("NULL skipped").containsExactly(1L, 2L, 2L, 2L, 3L, 3L);
        assertThat(values("approx_count_distinct(amt, 1e-2)")).as("-0.0 and 0.0 one value").containsExactly(1L, 1L, 2L, 2L, 3L, 3L);
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> values("approx_count_distinct(user, amt)")))
                .hasMessage("aggregate.select.x: approx_count_distinct(user, amt): the second argument should be a double literal"
                        + " (Spark's _LEGACY_ERROR_TEMP_1104), not 'amt'; write the relative standard deviation as 0.05 (Spark's default)"
                        + " or 1e-2");
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> values("approx_count_distinct(user, 1)")))
                .hasMessageContaining("the second argument should be a double literal");
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> values("approx_count_distinct(user, 0.5)")))
                .hasMessageContaining("HLL++ requires at least 4 bits for addressing");
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> values("approx_count_distinct(user, 0.001)")))
                .hasMessageContaining("needs 21 bits").hasMessageContaining("use 0.0022 or more");
    }

    private static String last(String call, Schema input, List<Object[]> rows) {
        List<Object> v = values(call, input, rows);
        return String.valueOf(v.get(v.size() - 1));
    }

    @Test
    void skewnessAndKurtosisAreSparksToTheBit() {
        Schema one = Schema.parse("x INT");
        List<Object[]> rows = List.of(new Object[] {-10}, new Object[] {-20}, new Object[] {100}, new Object[] {1000});
        // Spark 4.2 (local[1]) gives these, row by row; its documentation prints an older kurtosis, -0.7014368047529627
        assertThat(values("skewness(x)", one, rows)).as("Spark's documented example").endsWith(1.1135657469022011);
        assertThat(values("kurtosis(x)", one, rows)).endsWith(-0.7014368047529609);
        assertThat(values("kurtosis(x)", one, List.of(new Object[] {1}, new Object[] {10}, new Object[] {100}, new Object[] {10},
                new Object[] {1}))).endsWith(0.19432323191698986);
        assertThat(values("skewness(x)", one, List.of(new Object[] {1}, new Object[] {1}))).as("equal values: NULL")
                .containsExactly(null, null);
    }

    /**
     * Spark 4.2 (ANSI) sums and averages a TIMESTAMP as CAST(ts AS DOUBLE), its seconds since 1970, and refuses it elsewhere:
     * {@code SELECT sum(ts), avg(ts) FROM VALUES (TIMESTAMP'2026-10-06 09:02:00.5'), (TIMESTAMP'2026-10-06 09:03:00'), (NULL)} gives
     * 3.5825547005E9 and 1.79127735025E9 (golden/aggregate-functions/spark.tsv has the types and the refusals).
     */
    @Test
    void aTimestampIsSummedAsItsSecondsSince1970AndRefusedWhereSparkRefusesIt() {
        Schema time = Schema.parse("ts TIMESTAMP");
        List<Object[]> rows = List.of(new Object[] {1_791_277_320_500_000L}, new Object[] {1_791_277_380_000_000L}, new Object[] {null});
        for (String f : List.of("sum", "try_sum")) {
            assertThat(values(f + "(ts)", time, rows)).as(f).containsExactly(1.7912773205E9, 3.5825547005E9, 3.5825547005E9);
        }
        for (String f : List.of("avg", "try_avg", "mean")) {
            assertThat(values(f + "(ts)", time, rows)).as(f).containsExactly(1.7912773205E9, 1.79127735025E9, 1.79127735025E9);
        }
        assertThat(AggregateParser.parse("aggregate.select.x", "x", "sum(ts)", time).resultType()).isEqualTo(io.tributary.schema.DataType.DOUBLE);
        for (String call : List.of("stddev(ts)", "var_pop(ts)", "skewness(ts)", "corr(ts, amt)", "regr_slope(amt, ts)", "regr_avgx(amt, ts)")) {
            assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> values(call))).as(call).isInstanceOf(TributaryException.class)
                    .hasMessageContaining("reads a TIMESTAMP column").hasMessageContaining("DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE");
        }
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> values("sum(ts)", Schema.parse("ts TIMESTAMP_NTZ"), rows)))
                .as("Spark casts no TIMESTAMP_NTZ").hasMessageContaining("DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE");
    }

    @Test
    void theQueryPartsKnowEveryFunctionTheAggregationComputes() {
        assertThat(io.tributary.expressions.Having.aggregateFunctions()).as("sql: and HAVING read as aggregates what the aggregation computes")
                .containsExactlyInAnyOrderElementsOf(Arrays.stream(io.tributary.topology.AggregateFunction.values())
                        .map(io.tributary.topology.AggregateFunction::sqlName).toList());
    }

    private static List<Object> values(String call) {
        return values(call, INPUT, ROWS);
    }

    private static List<Object> values(String call, Schema input, List<Object[]> rows) {
        Accumulator acc = Accumulators.of(AggregateParser.parse("aggregate.select.x", "x", call, input));
        Object state = acc.zero();
        List<Object> out = new ArrayList<>();
        for (Object[] row : rows) {
            state = acc.add(state, row);
            out.add(acc.result(state));
        }
        return out;
    }

    /**
     * The aggregates whose state is a whole collection, folded in place as the open windows fold a batch's rows into a state
     * held in memory: after every row, over two batches, the state's bytes and value are what {@code add} gives.
     */
    @Test
    void aCollectionFoldedInPlaceIsWhatAddGives() {
        String[] calls = {"collect_list(amt)", "collect_set(user)", "array_agg(ts)", "percentile(amt, array(0.1, 0.5))", "median(id)",
            "mode(user)", "percentile_disc(0.4) WITHIN GROUP (ORDER BY amt DESC)", "percentile_approx(amt, array(0.1, 0.5))",
            "approx_percentile(id, 0.5, 100)", "hll_sketch_agg(id)", "hll_sketch_agg(user, 4)", "theta_sketch_agg(user)",
            "theta_sketch_agg(id, 5)", "kll_sketch_agg_bigint(id)", "kll_sketch_agg_double(amt, 16)", "listagg(user, ',')",
            "string_agg(user) WITHIN GROUP (ORDER BY amt DESC)", "listagg(id)"};
        for (String call : calls) {
            Accumulator acc = Accumulators.of(AggregateParser.parse("aggregate.select.x", "x", call, INPUT));
            assertThat(acc).as(call).isInstanceOf(CollectionAccumulator.class);
            CollectionAccumulator inPlace = (CollectionAccumulator) acc;
            Object added = acc.zero();
            Object folded = acc.zero();
            for (int batch = 0; batch < 2; batch++) {
                for (Object[] row : ROWS) {
                    added = acc.add(added, row);
                    folded = inPlace.addInPlace(folded, row);
                    assertThat(bytes(acc, folded)).as("%s: the state's bytes", call).isEqualTo(bytes(acc, added));
                    assertThat(acc.result(folded)).as("%s: the value", call).isEqualTo(acc.result(added));
                }
                added = acc.nextBatch(added);
                folded = acc.nextBatch(folded);
            }
        }
    }

    private static byte[] bytes(Accumulator acc, Object state) {
        ByteSink out = new ByteSink(16);
        acc.write(out, state);
        return out.toByteArray();
    }

    private static Object roundTrip(Accumulator acc, Object state) {
        ByteSink out = new ByteSink(16);
        acc.write(out, state);
        Object read = acc.read(new ByteSource(out.toByteArray(), 0));
        assertThat(acc.result(read)).isEqualTo(acc.result(state));
        if (state instanceof double[] d) {
            assertThat(Arrays.equals((double[]) read, d)).isTrue();
        }
        return read;
    }
}
