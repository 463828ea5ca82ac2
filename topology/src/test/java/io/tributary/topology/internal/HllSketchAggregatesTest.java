package io.tributary.topology.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.expressions.HllSketches;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import io.tributary.topology.Aggregate;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * hll_sketch_agg and hll_union_agg as the state stores keep them: a state written and read back between any two rows gives the
 * same sketch, byte for byte, across batches; thousands of values estimate within the sketch's error; and Spark's refusals and
 * failures (a type it does not sketch, a lgConfigK out of range, sketches of different lgConfigK, bytes that are no sketch).
 */
class HllSketchAggregatesTest {
    private static final Schema INPUT = Schema.parse("id INT, user STRING, amt DOUBLE, l BIGINT, s BINARY, ts TIMESTAMP");

    @Test
    void aSketchWrittenAndReadBackBetweenRowsAndBatchesIsTheSameBytes() {
        for (String call : List.of("hll_sketch_agg(id)", "hll_sketch_agg(user, 5)", "hll_sketch_agg(l, 21)", "hll_sketch_agg(s, 4)")) {
            Accumulator acc = Accumulators.of(AggregateParser.parse("aggregate.select.x", "x", call, INPUT));
            Object kept = acc.zero();
            Object plain = acc.zero();
            List<Long> estimates = new ArrayList<>();
            for (int batch = 0; batch < 3; batch++) {
                kept = roundTrip(acc, acc.nextBatch(roundTrip(acc, kept)));
                plain = acc.nextBatch(plain);
                for (int i = 0; i < 40; i++) {
                    Object[] row = row(batch * 30 + i);
                    kept = roundTrip(acc, acc.add(roundTrip(acc, kept), row));
                    plain = acc.add(plain, row);
                }
                assertThat((byte[]) acc.result(kept)).as("%s after batch %d", call, batch).isEqualTo(acc.result(plain));
                estimates.add(HllSketches.estimate((byte[]) acc.result(kept)));
            }
            assertThat(estimates).as("%s: the distinct values of 40, 70 and 100 rows, about", call).isSorted()
                    .allSatisfy(e -> assertThat(e).isPositive());
            if (call.equals("hll_sketch_agg(l, 21)")) { // 100 values, kept exactly as coupons at this size
                assertThat(estimates.get(2)).as(call).isEqualTo(100L);
            }
        }
    }

    @Test
    void thousandsOfValuesOverBatchesEstimateWithinTheSketchsError() {
        Accumulator acc = Accumulators.of(AggregateParser.parse("aggregate.select.x", "x", "hll_sketch_agg(l)", INPUT));
        Object state = acc.zero();
        for (int batch = 0; batch < 4; batch++) {
            state = acc.nextBatch(state);
            for (int i = 0; i < 5000; i++) {
                state = acc.add(state, new Object[] {null, null, null, (long) (batch * 5000 + i), null, 0L});
            }
        }
        long estimate = HllSketches.estimate((byte[]) acc.result(roundTrip(acc, state)));
        assertThat(estimate).as("20,000 distinct values at lgConfigK 12 (1.6%% error)").isBetween(19_000L, 21_000L).isNotEqualTo(20_000L);
    }

    @Test
    void unionsOfSketchesOfDifferentLgConfigKFailUnlessAllowed() {
        byte[] k12 = sketch(12, 0, 50);
        byte[] k4 = sketch(4, 25, 100);
        Accumulator strict = Accumulators.of(AggregateParser.parse("aggregate.select.u", "u", "hll_union_agg(s)", INPUT));
        Object first = strict.add(strict.zero(), binary(k12));
        assertThatThrownBy(() -> strict.add(first, binary(k4))).isInstanceOf(TributaryException.class)
                .hasMessageContaining("aggregate.select.u").hasMessageContaining("HLL_UNION_DIFFERENT_LG_K")
                .hasMessageContaining("12 and 4");
        Accumulator allowed = Accumulators.of(AggregateParser.parse("aggregate.select.u", "u", "hll_union_agg(s, true)", INPUT));
        Object state = allowed.add(allowed.zero(), binary(k12));
        state = allowed.add(roundTrip(allowed, allowed.nextBatch(state)), binary(null));
        state = allowed.add(state, binary(k4));
        assertThat(HllSketches.estimate((byte[]) allowed.result(roundTrip(allowed, state)))).as("0 to 99 at lgConfigK 4").isBetween(70L, 130L);
        assertThat(HllSketches.estimate((byte[]) allowed.result(allowed.zero()))).as("no sketch: an empty union").isZero();
        Accumulator any = Accumulators.of(AggregateParser.parse("aggregate.select.u", "u", "hll_union_agg(s)", INPUT));
        assertThatThrownBy(() -> any.add(any.zero(), binary(new byte[] {1, 2, 3}))).isInstanceOf(TributaryException.class)
                .hasMessageContaining("HLL_INVALID_INPUT_SKETCH_BUFFER").hasMessageContaining("hll_union_agg(s)");
    }

    @Test
    void whatSparkRefusesIsRefusedAtStartNamingTheSetting() {
        assertThatThrownBy(() -> parse("hll_sketch_agg(amt)")).hasMessageContaining("aggregate.select.x").hasMessageContaining("DOUBLE")
                .hasMessageContaining("INT, BIGINT, STRING or BINARY");
        assertThatThrownBy(() -> parse("hll_sketch_agg(ts)")).hasMessageContaining("TIMESTAMP");
        assertThatThrownBy(() -> parse("hll_sketch_agg(id, 3)")).hasMessageContaining("HLL_INVALID_LG_K").hasMessageContaining("4 and 21");
        assertThatThrownBy(() -> parse("hll_sketch_agg(id, 22)")).hasMessageContaining("HLL_INVALID_LG_K");
        assertThatThrownBy(() -> parse("hll_sketch_agg(id, id)")).hasMessageContaining("HLL_K_MUST_BE_CONSTANT");
        assertThatThrownBy(() -> parse("hll_sketch_agg(id, 1.5)")).hasMessageContaining("an integer constant");
        assertThatThrownBy(() -> parse("hll_union_agg(user)")).hasMessageContaining("STRING").hasMessageContaining("a BINARY sketch");
        assertThatThrownBy(() -> parse("hll_union_agg(s, 1)")).hasMessageContaining("true or false");
        assertThat(parse("hll_sketch_agg(id, 21)").resultType().ddl()).isEqualTo("BINARY");
        assertThat(parse("hll_union_agg(s, TRUE)").resultType().ddl()).isEqualTo("BINARY");
    }

    private static Aggregate parse(String call) {
        return AggregateParser.parse("aggregate.select.x", "x", call, INPUT);
    }

    private static Object[] row(int i) {
        String user = i % 7 == 0 ? "" : "user-" + i + "é";
        return new Object[] {i % 9 == 0 ? null : i, user, null, (long) i * 1_000_000_007L, user.getBytes(java.nio.charset.StandardCharsets.UTF_8), 0L};
    }

    private static Object[] binary(byte[] sketch) {
        return new Object[] {null, null, null, null, sketch, 0L};
    }

    private static byte[] sketch(int lgK, long from, long to) {
        org.apache.datasketches.hll.HllSketch s = HllSketches.empty(lgK);
        for (long v = from; v < to; v++) {
            HllSketches.update(s, v);
        }
        return HllSketches.bytes(s);
    }

    private static Object roundTrip(Accumulator acc, Object state) {
        ByteSink out = new ByteSink(16);
        acc.write(out, state);
        return acc.read(new ByteSource(out.toByteArray(), 0));
    }
}
