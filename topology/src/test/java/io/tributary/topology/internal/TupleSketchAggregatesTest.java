package io.tributary.topology.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.expressions.TupleSketches;
import io.tributary.expressions.TupleSketches.Kind;
import io.tributary.expressions.TupleSketches.Mode;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import io.tributary.topology.Aggregate;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * tuple_sketch_agg_*, tuple_union_agg_* and tuple_intersection_agg_* as the state stores keep them: a state written and read back
 * between any two rows gives the same sketch, byte for byte, across batches; summaries combine by the mode; unions and intersections
 * of sketches count what they hold and share; and Spark's refusals (a key or summary of a type it does not take, lgNomEntries out of
 * range, a mode it does not know, a constant that is a column) and failures (bytes that are no tuple sketch).
 */
class TupleSketchAggregatesTest {
    private static final Schema INPUT = Schema.parse("id INT, user STRING, amt DOUBLE, l BIGINT, s BINARY, ts TIMESTAMP, f FLOAT,"
            + " a ARRAY<INT>, sm SMALLINT, m MAP<STRING, INT>, t ARRAY<STRING>");

    @Test
    void aSketchWrittenAndReadBackBetweenRowsAndBatchesIsTheSameBytes() {
        for (String call : List.of("tuple_sketch_agg_double(id, amt)", "tuple_sketch_agg_integer(user, id, 5, 'max')",
                "tuple_sketch_agg_double(l, f, 26, 'min')", "tuple_sketch_agg_integer(s, sm, 4)", "tuple_sketch_agg_double(a, id, 6, 'alwaysone')",
                "tuple_sketch_agg_double(f, l, 12, 'SUM')", "tuple_sketch_agg_integer(sm, id)")) {
            Accumulator acc = Accumulators.of(parse(call));
            Object kept = acc.zero();
            Object plain = acc.zero();
            for (int batch = 0; batch < 3; batch++) {
                kept = roundTrip(acc, acc.nextBatch(roundTrip(acc, kept)));
                plain = acc.nextBatch(plain);
                for (int i = 0; i < 40; i++) {
                    Object[] row = row(batch * 30 + i);
                    kept = roundTrip(acc, acc.add(roundTrip(acc, kept), row));
                    plain = ((CollectionAccumulator) acc).addInPlace(plain, row);
                }
                assertThat((byte[]) acc.result(kept)).as("%s after batch %d", call, batch).isEqualTo(acc.result(plain));
            }
            Kind kind = call.contains("_double") ? Kind.DOUBLE : Kind.INTEGER;
            assertThat(TupleSketches.estimate(kind, (byte[]) acc.result(kept))).as(call).isPositive();
        }
    }

    @Test
    void summariesOfOneKeyCombineByTheMode() {
        for (Mode mode : Mode.values()) {
            Accumulator acc = Accumulators.of(parse("tuple_sketch_agg_double(user, amt, 12, '" + mode.text() + "')"));
            Object s = acc.zero();
            for (double amt : new double[] {4.0, -1.5, 10.0}) {
                s = acc.add(s, new Object[] {1, "k", amt, 1L, null, null, null, null, null, null, null});
            }
            s = acc.add(acc.nextBatch(s), new Object[] {2, "k", 2.5, 2L, null, null, null, null, null, null, null});
            double expected = switch (mode) {
                case SUM -> 15.0;
                case MIN -> -1.5;
                case MAX -> 10.0;
                case ALWAYSONE -> 1.0;
            };
            assertThat(TupleSketches.summaries(Kind.DOUBLE, (byte[]) acc.result(s), Mode.SUM)).as("one key, %s", mode).isEqualTo(expected);
        }
    }

    /**
     * Spark's analyzer casts a key or summary of a type the function does not take: a TIMESTAMP key is hashed as its text, a DOUBLE
     * summary of tuple_sketch_agg_integer is cast to INT (truncated), a STRING summary to the summary's type; text that is no number
     * fails the aggregation with CAST_INVALID_INPUT, as it fails Spark's query.
     */
    @Test
    void keysAndSummariesSparkCastsAreCastAsSparkCastsThem() {
        Accumulator byTime = Accumulators.of(parse("tuple_sketch_agg_integer(ts, amt, 12, 'sum')"));
        Accumulator byText = Accumulators.of(parse("tuple_sketch_agg_integer(user, id, 12, 'sum')"));
        Object a = byTime.zero();
        Object b = byText.zero();
        for (int i = 0; i < 5; i++) {
            Object[] row = row(i + 1);
            row[2] = i + 0.75; // the DOUBLE summary truncated to INT: i
            row[5] = 1_780_000_000_000_000L + i * 60_000_000L; // 2026-05-28 20:26:40 plus i minutes
            a = byTime.add(a, row);
            b = byText.add(b, new Object[] {i, "2026-05-28 20:" + (26 + i) + ":40", null, null, null, null, null, null, null, null, null});
        }
        assertThat((byte[]) byTime.result(a)).as("the same keys as text, the same summaries").isEqualTo(byText.result(b));
        assertThat(TupleSketches.summaries(Kind.INTEGER, (byte[]) byTime.result(a), Mode.SUM)).isEqualTo(10L);
        Accumulator textSummary = Accumulators.of(parse("tuple_sketch_agg_double(id, user)"));
        Object t = textSummary.add(textSummary.zero(), new Object[] {1, " 2.5 ", null, null, null, null, null, null, null, null, null});
        assertThat(TupleSketches.summaries(Kind.DOUBLE, (byte[]) textSummary.result(t), Mode.SUM)).isEqualTo(2.5);
        assertThatThrownBy(() -> textSummary.add(textSummary.zero(), new Object[] {1, "abc", null, null, null, null, null, null, null, null,
                null})).isInstanceOf(TributaryException.class).hasMessageContaining("aggregate.select.t")
                .hasMessageContaining("CAST_INVALID_INPUT");
        Accumulator overflow = Accumulators.of(parse("tuple_sketch_agg_integer(id, l)"));
        assertThatThrownBy(() -> overflow.add(overflow.zero(), new Object[] {1, "u", null, 1L << 40, null, null, null, null, null, null,
                null})).isInstanceOf(TributaryException.class).hasMessageContaining("CAST_OVERFLOW");
    }

    @Test
    void unionsAndIntersectionsOfSketchesCountWhatTheyHoldAndShare() {
        byte[] low = sketch(0, 60);
        byte[] high = sketch(40, 100);
        Accumulator union = Accumulators.of(parse("tuple_union_agg_integer(s, 10, 'max')"));
        Accumulator inter = Accumulators.of(parse("tuple_intersection_agg_integer(s, 'min')"));
        Object u = union.add(union.zero(), binary(low));
        Object n = inter.add(inter.zero(), binary(low));
        u = union.add(roundTrip(union, union.nextBatch(u)), binary(null));
        n = inter.add(roundTrip(inter, inter.nextBatch(n)), binary(high));
        u = union.add(u, binary(high));
        assertThat(TupleSketches.estimate(Kind.INTEGER, (byte[]) union.result(roundTrip(union, u)))).as("0 to 99").isEqualTo(100.0);
        assertThat(TupleSketches.estimate(Kind.INTEGER, (byte[]) inter.result(roundTrip(inter, n)))).as("40 to 59").isEqualTo(20.0);
        assertThat(TupleSketches.summaries(Kind.INTEGER, (byte[]) union.result(u), Mode.MAX)).as("the greatest summary").isEqualTo(99L);
        assertThatThrownBy(() -> union.add(union.zero(), binary(new byte[] {1, 2, 3})))
                .isInstanceOf(TributaryException.class).hasMessageContaining("TUPLE_INVALID_INPUT_SKETCH_BUFFER");
    }

    /**
     * Spark 4.2 reads a STRING argument of tuple_union_agg_* and tuple_intersection_agg_* as {@code CAST(x AS BINARY)}, its UTF-8
     * bytes (golden/aggregate-functions/spark.tsv): NULLs give the empty sketch, text fails with TUPLE_INVALID_INPUT_SKETCH_BUFFER
     * as it fails Spark's query, as no text read from a file holds a sketch's bytes.
     */
    @Test
    void aStringSketchIsReadAsItsBytesAsSparkCastsIt() {
        Accumulator union = Accumulators.of(parse("tuple_union_agg_double(user, 12, 'max')"));
        Accumulator inter = Accumulators.of(parse("tuple_intersection_agg_integer(user)"));
        assertThat(parse("tuple_intersection_agg_integer(user)").resultType()).isEqualTo(io.tributary.schema.DataType.BINARY);
        Object u = union.add(roundTrip(union, union.nextBatch(union.zero())), text(null));
        assertThat(TupleSketches.estimate(Kind.DOUBLE, (byte[]) union.result(roundTrip(union, u)))).as("NULLs only").isEqualTo(0.0);
        for (String bad : new String[] {"", "u1", "\u0002\u0003\u0009\u0001"}) {
            assertThatThrownBy(() -> union.add(union.zero(), text(bad))).as(bad).isInstanceOf(TributaryException.class)
                    .hasMessageContaining("tuple_union_agg_double").hasMessageContaining("TUPLE_INVALID_INPUT_SKETCH_BUFFER");
            assertThatThrownBy(() -> inter.add(inter.zero(), text(bad))).as(bad).isInstanceOf(TributaryException.class)
                    .hasMessageContaining("tuple_intersection_agg_integer").hasMessageContaining("TUPLE_INVALID_INPUT_SKETCH_BUFFER");
        }
    }

    private static Object[] text(String user) {
        Object[] row = new Object[11];
        row[1] = user;
        return row;
    }

    @Test
    void refusedAtStartAsSparkRefuses() {
        for (String[] bad : new String[][] {
            {"tuple_sketch_agg_double(m, amt)", "reads a MAP<STRING, INT> column"},
            {"tuple_sketch_agg_double(t, amt)", "reads a ARRAY<STRING> column"},
            {"tuple_sketch_agg_integer(id, ts)", "a numeric or STRING summary (cast to INT"},
            {"tuple_sketch_agg_double(id, a)", "reads a ARRAY<INT> column"},
            {"tuple_sketch_agg_double(id, amt, 3)", "SKETCH_INVALID_LG_NOM_ENTRIES"},
            {"tuple_sketch_agg_double(id, amt, 12, 'avg')", "TUPLE_INVALID_SKETCH_MODE"},
            {"tuple_sketch_agg_double(id, amt, id)", "NON_FOLDABLE_INPUT"},
            {"tuple_sketch_agg_double(id, amt, 12, NULL)", "UNEXPECTED_NULL"},
            {"tuple_union_agg_double(id)", "a BINARY sketch"},
            {"tuple_intersection_agg_double(s, 12)", "TUPLE_INVALID_SKETCH_MODE"},
            {"tuple_sketch_agg_double(id)", "WRONG_NUM_ARGS"},
            {"tuple_union_agg_integer(s, 12, 'sum', 1)", "WRONG_NUM_ARGS"}}) {
            assertThatThrownBy(() -> parse(bad[0])).as(bad[0]).isInstanceOf(TributaryException.class)
                    .hasMessageContaining("aggregate.select.t").hasMessageContaining(bad[1]);
        }
    }

    private static Aggregate parse(String call) {
        return AggregateParser.parse("aggregate.select.t", "t", call, INPUT);
    }

    private static Object[] row(int i) {
        return new Object[] {i, "u" + (i % 7), i % 5 == 0 ? null : i * 0.5, (long) i * 31, new byte[] {(byte) i, 7}, null, (float) i / 3,
            Arrays.asList(i, i % 3), (short) (i % 11), null, null};
    }

    private static Object[] binary(byte[] sketch) {
        return new Object[] {0, "u", 1.0, 0L, sketch, null, null, null, null, null, null};
    }

    private static byte[] sketch(int from, int to) {
        var s = TupleSketches.newSketch(Kind.INTEGER, 12, Mode.SUM);
        for (int i = from; i < to; i++) {
            TupleSketches.update(s, (long) i, i);
        }
        return TupleSketches.bytes(s);
    }

    private static Object roundTrip(Accumulator acc, Object state) {
        ByteSink out = new ByteSink(16);
        acc.write(out, state);
        return acc.read(new ByteSource(out.toByteArray(), 0));
    }
}
