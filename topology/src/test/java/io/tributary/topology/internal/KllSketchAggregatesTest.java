package io.tributary.topology.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.expressions.KllSketches;
import io.tributary.expressions.KllSketches.Kind;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import io.tributary.topology.Aggregate;
import java.util.HexFormat;
import java.util.List;
import org.apache.datasketches.kll.KllLongsSketch;
import org.apache.datasketches.memory.Memory;
import org.junit.jupiter.api.Test;

/**
 * kll_sketch_agg_* and kll_merge_agg_* as the state stores keep them: a state written and read back between any two rows gives
 * the same sketch, byte for byte, across batches; tens of thousands of values, compacted at random as in Spark, keep their count,
 * their smallest and largest exactly and their quantiles within the sketch's error; and Spark's refusals and failures (a type it
 * does not sketch, a k out of range or not constant, bytes that are no sketch).
 */
class KllSketchAggregatesTest {
    private static final Schema INPUT = Schema.parse("id INT, l BIGINT, f FLOAT, amt DOUBLE, s BINARY, user STRING, ts TIMESTAMP");

    @Test
    void aSketchWrittenAndReadBackBetweenRowsAndBatchesIsTheSameBytes() {
        for (String call : List.of("kll_sketch_agg_bigint(id)", "kll_sketch_agg_bigint(l, 1000)", "kll_sketch_agg_float(f)",
                "kll_sketch_agg_double(amt, 300)", "kll_sketch_agg_double(f)")) {
            Accumulator acc = Accumulators.of(parse(call));
            Object kept = acc.zero();
            Object plain = acc.zero();
            for (int batch = 0; batch < 3; batch++) {
                kept = roundTrip(acc, acc.nextBatch(roundTrip(acc, kept)));
                plain = acc.nextBatch(plain);
                for (int i = 0; i < 40; i++) {
                    Object[] row = row(batch * 40 + i);
                    kept = roundTrip(acc, acc.add(roundTrip(acc, kept), row));
                    plain = acc.add(plain, row);
                }
                assertThat((byte[]) acc.result(kept)).as("%s after batch %d", call, batch).isEqualTo(acc.result(plain));
            }
            Kind kind = call.contains("bigint") ? Kind.BIGINT : call.contains("float") ? Kind.FLOAT : Kind.DOUBLE;
            long fed = call.contains("(id") ? 120 - 14 : 120; // id is null in every ninth row; 120 values, at most one sketch's k
            assertThat(KllSketches.n(kind, (byte[]) acc.result(kept), "t")).as(call).isEqualTo(fed);
            assertThat(KllSketches.quantile(kind, (byte[]) acc.result(kept), 1.0, "t")).as(call + ": the largest")
                    .isEqualTo(kind == Kind.BIGINT ? (Object) (call.contains("(id") ? 119L : 119L * 1_000_000_007L)
                            : kind == Kind.FLOAT ? (Object) (119 / 4f) : (Object) (call.contains("(f") ? 119 / 4.0 : 119 * 0.5));
        }
    }

    @Test
    void tensOfThousandsOfValuesOverBatchesKeepCountExtremesAndQuantilesWithinTheError() {
        Accumulator acc = Accumulators.of(parse("kll_sketch_agg_bigint(l)"));
        Object state = acc.zero();
        int n = 20_000;
        for (int batch = 0; batch < 4; batch++) {
            state = acc.nextBatch(roundTrip(acc, state));
            for (int i = 0; i < n / 4; i++) {
                long v = (i * 4L + batch) * 7919 % n; // 0 to 19,999, each once, out of order
                state = acc.add(state, new Object[] {null, v, null, null, null, null, 0L});
            }
        }
        byte[] sketch = (byte[]) acc.result(roundTrip(acc, state));
        KllLongsSketch s = KllLongsSketch.heapify(Memory.wrap(sketch));
        assertThat(s.getN()).isEqualTo(n);
        assertThat(s.isEstimationMode()).as("compacted").isTrue();
        assertThat(s.getMinItem()).isZero();
        assertThat(s.getMaxItem()).isEqualTo(n - 1);
        double error = 2 * s.getNormalizedRankError(false); // twice the bound at 99% confidence, so that a test seldom fails by chance
        for (double rank : new double[] {0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99}) {
            long q = (long) KllSketches.quantile(Kind.BIGINT, sketch, rank, "t");
            assertThat((q + 1) / (double) n).as("the value at rank %s", rank).isBetween(rank - error, rank + error);
        }
    }

    @Test
    void mergeAggSkipsNullsKeepsTheFirstSketchsKAndFailsOnBytesThatAreNoSketch() {
        byte[] k200 = sketch(200, 0, 50);
        byte[] k50 = sketch(50, 50, 60);
        Accumulator acc = Accumulators.of(parse("kll_merge_agg_bigint(s)"));
        assertThat(HexFormat.of().formatHex((byte[]) acc.result(acc.zero()))).as("no sketch: an empty one of k 200")
                .isEqualToIgnoringCase("02010F01C8000800");
        Object state = acc.add(acc.zero(), binary(null));
        assertThat((byte[]) acc.result(roundTrip(acc, state))).as("a null sketch only").isEqualTo(acc.result(acc.zero()));
        state = acc.add(state, binary(k50));
        state = acc.add(roundTrip(acc, acc.nextBatch(state)), binary(k200));
        byte[] merged = (byte[]) acc.result(roundTrip(acc, state));
        assertThat(KllSketches.n(Kind.BIGINT, merged, "t")).isEqualTo(60);
        assertThat(KllSketches.quantile(Kind.BIGINT, merged, 0.0, "t")).isEqualTo(0L);
        assertThat(KllSketches.quantile(Kind.BIGINT, merged, 1.0, "t")).isEqualTo(59L);
        Accumulator withK = Accumulators.of(parse("kll_merge_agg_bigint(s, 300)"));
        assertThat(KllLongsSketch.heapify(Memory.wrap((byte[]) withK.result(withK.zero()))).getK()).isEqualTo(300);
        assertThatThrownBy(() -> acc.add(acc.zero(), binary(new byte[] {1, 2, 3}))).isInstanceOf(TributaryException.class)
                .hasMessageContaining("aggregate.select.x").hasMessageContaining("KLL_INVALID_INPUT_SKETCH_BUFFER")
                .hasMessageContaining("kll_merge_agg_bigint");
    }

    @Test
    void whatSparkRefusesIsRefusedAtStartNamingTheSetting() {
        assertThatThrownBy(() -> parse("kll_sketch_agg_bigint(amt)")).hasMessageContaining("aggregate.select.x").hasMessageContaining("DOUBLE")
                .hasMessageContaining("TINYINT, SMALLINT, INT or BIGINT");
        assertThatThrownBy(() -> parse("kll_sketch_agg_float(amt)")).hasMessageContaining("DOUBLE").hasMessageContaining("takes FLOAT");
        assertThatThrownBy(() -> parse("kll_sketch_agg_double(id)")).hasMessageContaining("INT").hasMessageContaining("FLOAT or DOUBLE");
        assertThatThrownBy(() -> parse("kll_sketch_agg_bigint(ts)")).hasMessageContaining("TIMESTAMP");
        assertThatThrownBy(() -> parse("kll_merge_agg_double(user)")).hasMessageContaining("STRING").hasMessageContaining("a BINARY sketch");
        assertThatThrownBy(() -> parse("kll_sketch_agg_bigint(id, 7)")).hasMessageContaining("KLL_SKETCH_K_OUT_OF_RANGE")
                .hasMessageContaining("between 8 and 65535").hasMessageContaining("got 7");
        assertThatThrownBy(() -> parse("kll_merge_agg_float(s, 65536)")).hasMessageContaining("KLL_SKETCH_K_OUT_OF_RANGE");
        assertThatThrownBy(() -> parse("kll_sketch_agg_bigint(id, id)")).hasMessageContaining("NON_FOLDABLE_INPUT");
        assertThatThrownBy(() -> parse("kll_sketch_agg_bigint(id, 8L)")).hasMessageContaining("UNEXPECTED_INPUT_TYPE");
        assertThatThrownBy(() -> parse("kll_sketch_agg_bigint(id, 'x')")).hasMessageContaining("UNEXPECTED_INPUT_TYPE");
        assertThatThrownBy(() -> parse("kll_sketch_agg_bigint(id, NULL)")).hasMessageContaining("UNEXPECTED_NULL");
        assertThat(parse("kll_sketch_agg_bigint(id, 65535)").resultType().ddl()).isEqualTo("BINARY");
        assertThat(parse("kll_merge_agg_double(s, 8)").resultType().ddl()).isEqualTo("BINARY");
    }

    private static Aggregate parse(String call) {
        return AggregateParser.parse("aggregate.select.x", "x", call, INPUT);
    }

    private static Object[] row(int i) {
        return new Object[] {i % 9 == 0 ? null : i, (long) i * 1_000_000_007L, i / 4f, i * 0.5, null, null, 0L};
    }

    private static Object[] binary(byte[] sketch) {
        return new Object[] {null, null, null, null, sketch, null, 0L};
    }

    private static byte[] sketch(int k, long from, long to) {
        KllLongsSketch s = KllLongsSketch.newHeapInstance(k);
        for (long v = from; v < to; v++) {
            s.update(v);
        }
        return s.toByteArray();
    }

    private static Object roundTrip(Accumulator acc, Object state) {
        ByteSink out = new ByteSink(16);
        acc.write(out, state);
        return acc.read(new ByteSource(out.toByteArray(), 0));
    }
}
