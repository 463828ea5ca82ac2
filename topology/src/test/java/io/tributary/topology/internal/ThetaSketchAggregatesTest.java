package io.tributary.topology.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.expressions.ThetaSketches;
import io.tributary.schema.DataType;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import io.tributary.topology.Aggregate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.datasketches.theta.UpdateSketch;
import org.junit.jupiter.api.Test;

/**
 * theta_sketch_agg, theta_union_agg and theta_intersection_agg as the state stores keep them: a state written and read back
 * between any two rows gives the same sketch, byte for byte, across batches; thousands of values estimate within the sketch's
 * error; unions and intersections of sketches count what they share; and Spark's refusals and failures (a type it does not
 * sketch, a lgNomEntries out of range, bytes that are no sketch or a sketch of another family).
 */
class ThetaSketchAggregatesTest {
    private static final Schema INPUT = Schema.parse("id INT, user STRING, amt DOUBLE, l BIGINT, s BINARY, ts TIMESTAMP, f FLOAT,"
            + " a ARRAY<INT>, la ARRAY<BIGINT>");

    @Test
    void aSketchWrittenAndReadBackBetweenRowsAndBatchesIsTheSameBytes() {
        for (String call : List.of("theta_sketch_agg(id)", "theta_sketch_agg(user, 5)", "theta_sketch_agg(l, 26)", "theta_sketch_agg(s, 4)",
                "theta_sketch_agg(amt)", "theta_sketch_agg(f, 6)", "theta_sketch_agg(a)", "theta_sketch_agg(la, 4)")) {
            Accumulator acc = Accumulators.of(parse(call));
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
                estimates.add(ThetaSketches.estimate((byte[]) acc.result(kept)));
            }
            assertThat(estimates).as("%s: the distinct values of 40, 70 and 100 rows, about", call).isSorted()
                    .allSatisfy(e -> assertThat(e).isPositive());
            if (call.equals("theta_sketch_agg(l, 26)")) { // 100 values, kept exactly at this size
                assertThat(estimates.get(2)).as(call).isEqualTo(100L);
            }
        }
    }

    @Test
    void thousandsOfValuesOverBatchesEstimateWithinTheSketchsError() {
        Accumulator acc = Accumulators.of(parse("theta_sketch_agg(l)"));
        Object state = acc.zero();
        for (int batch = 0; batch < 4; batch++) {
            state = acc.nextBatch(state);
            for (int i = 0; i < 5000; i++) {
                state = acc.add(state, longRow(batch * 5000 + i));
            }
        }
        long estimate = ThetaSketches.estimate((byte[]) acc.result(roundTrip(acc, state)));
        assertThat(estimate).as("20,000 distinct values at lgNomEntries 12 (about 1.6%% error)").isBetween(19_000L, 21_000L)
                .isNotEqualTo(20_000L);
    }

    @Test
    void unionsAndIntersectionsOfSketchesCountWhatTheyHoldAndShare() {
        byte[] low = sketch(12, 0, 60);
        byte[] high = sketch(12, 40, 100);
        Accumulator union = Accumulators.of(parse("theta_union_agg(s, 10)"));
        Accumulator inter = Accumulators.of(parse("theta_intersection_agg(s)"));
        Object u = union.add(union.zero(), binary(low));
        Object n = inter.add(inter.zero(), binary(low));
        u = union.add(roundTrip(union, union.nextBatch(u)), binary(null));
        n = inter.add(roundTrip(inter, inter.nextBatch(n)), binary(high));
        u = union.add(u, binary(high));
        assertThat(ThetaSketches.estimate((byte[]) union.result(roundTrip(union, u)))).as("0 to 99").isEqualTo(100L);
        assertThat(ThetaSketches.estimate((byte[]) inter.result(roundTrip(inter, n)))).as("40 to 59").isEqualTo(20L);
        Object nulls = inter.add(inter.nextBatch(n), binary(null));
        assertThatThrownBy(() -> inter.result(nulls)).isInstanceOf(TributaryException.class)
                .hasMessageContaining("theta_intersection_agg(s)").hasMessageContaining("all null");
        assertThatThrownBy(() -> union.add(union.zero(), binary(new byte[] {1, 2, 3}))).isInstanceOf(TributaryException.class)
                .hasMessageContaining("THETA_INVALID_INPUT_SKETCH_BUFFER").hasMessageContaining("theta_union_agg(s, 10)");
        UpdateSketch updatable = ThetaSketches.newSketch(4);
        updatable.update(1L);
        assertThatThrownBy(() -> inter.add(inter.zero(), binary(updatable.toByteArray()))).isInstanceOf(TributaryException.class)
                .hasMessageContaining("THETA_INVALID_INPUT_SKETCH_BUFFER_FAMILY").hasMessageContaining("expected COMPACT");
    }

    @Test
    void whatSparkRefusesIsRefusedAtStartNamingTheSetting() {
        assertThatThrownBy(() -> parse("theta_sketch_agg(ts)")).hasMessageContaining("aggregate.select.x").hasMessageContaining("TIMESTAMP")
                .hasMessageContaining("INT, BIGINT, FLOAT, DOUBLE, STRING, BINARY, ARRAY<INT> or ARRAY<BIGINT>");
        assertThatThrownBy(() -> parse("theta_sketch_agg(id, 3)")).hasMessageContaining("SKETCH_INVALID_LG_NOM_ENTRIES")
                .hasMessageContaining("between 4 and 26");
        assertThatThrownBy(() -> parse("theta_union_agg(s, 27)")).hasMessageContaining("SKETCH_INVALID_LG_NOM_ENTRIES");
        assertThatThrownBy(() -> parse("theta_sketch_agg(id, id)")).hasMessageContaining("THETA_LG_NOM_ENTRIES_MUST_BE_CONSTANT");
        assertThatThrownBy(() -> parse("theta_union_agg(user)")).hasMessageContaining("STRING").hasMessageContaining("a BINARY sketch");
        assertThatThrownBy(() -> parse("theta_intersection_agg(s, 12)")).hasMessageContaining("theta_intersection_agg");
        assertThat(parse("theta_sketch_agg(la, 26)").resultType()).isEqualTo(DataType.BINARY);
        assertThat(parse("theta_intersection_agg(s)").resultType()).isEqualTo(DataType.BINARY);
    }

    private static Aggregate parse(String call) {
        return AggregateParser.parse("aggregate.select.x", "x", call, INPUT);
    }

    private static Object[] row(int i) {
        String user = i % 7 == 0 ? "" : "user-" + i + "é";
        return new Object[] {i % 9 == 0 ? null : i, user, i % 5 == 0 ? Double.NaN : i * 0.5, (long) i * 1_000_000_007L,
            user.getBytes(java.nio.charset.StandardCharsets.UTF_8), 0L, i % 4 == 0 ? -0.0f : (float) i, i % 6 == 0 ? List.of()
                : Arrays.asList(i, null), List.of((long) i, -1L)};
    }

    private static Object[] longRow(long v) {
        return new Object[] {null, null, null, v, null, 0L, null, null, null};
    }

    private static Object[] binary(byte[] sketch) {
        return new Object[] {null, null, null, null, sketch, 0L, null, null, null};
    }

    private static byte[] sketch(int lgNom, long from, long to) {
        UpdateSketch s = ThetaSketches.newSketch(lgNom);
        for (long v = from; v < to; v++) {
            s.update(v);
        }
        return ThetaSketches.bytes(s);
    }

    private static Object roundTrip(Accumulator acc, Object state) {
        ByteSink out = new ByteSink(16);
        acc.write(out, state);
        return acc.read(new ByteSource(out.toByteArray(), 0));
    }
}
