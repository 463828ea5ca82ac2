package io.tributary.topology.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.tributary.schema.Schema;
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
            "collect_set(amt)", "collect_list(user)", "collect_set(user)", "collect_set(ts)"};
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
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> values("stddev(ok)")))
                .hasMessage("aggregate.select.x: stddev(ok) reads a BOOLEAN column; stddev needs a numeric column (TINYINT, SMALLINT,"
                        + " INT, BIGINT, FLOAT, DOUBLE or DECIMAL); change the column's type in the source schema or use count, min, max,"
                        + " first, last or collect_list");
    }

    @Test
    void theQueryPartsKnowEveryFunctionTheAggregationComputes() {
        assertThat(io.tributary.expressions.Having.aggregateFunctions()).as("sql: and HAVING read as aggregates what the aggregation computes")
                .containsExactlyInAnyOrderElementsOf(Arrays.stream(io.tributary.topology.AggregateFunction.values())
                        .map(io.tributary.topology.AggregateFunction::sqlName).toList());
    }

    private static List<Object> values(String call) {
        Accumulator acc = Accumulators.of(AggregateParser.parse("aggregate.select.x", "x", call, INPUT));
        Object state = acc.zero();
        List<Object> out = new ArrayList<>();
        for (Object[] row : ROWS) {
            state = acc.add(state, row);
            out.add(acc.result(state));
        }
        return out;
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
