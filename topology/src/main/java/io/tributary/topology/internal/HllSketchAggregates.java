package io.tributary.topology.internal;

import io.tributary.expressions.ExpressionException;
import io.tributary.expressions.HllSketches;
import io.tributary.schema.DataType;
import io.tributary.topology.Aggregate;
import io.tributary.topology.AggregateFunction;
import java.util.Locale;
import org.apache.datasketches.hll.HllSketch;
import org.apache.datasketches.hll.Union;

/**
 * {@code hll_sketch_agg(x [, lgConfigK])} and {@code hll_union_agg(sketch [, allowDifferentLgConfigK])} as Spark 4.2's HllSketchAgg
 * and HllUnionAgg give them, byte for byte: a batch's rows update a buffer of their own (as Spark's partial aggregation), which
 * Spark's chain of merges then carries into the buffer kept from earlier batches (its partial merge, the state store's restore,
 * a second partial merge, the final merge into an empty buffer), each buffer passing as its bytes between two steps, as
 * between Spark's stages. The state holds the kept buffer's bytes and the batch's buffer, which {@code add} copies and
 * {@code addInPlace} updates in place, as Spark's partial aggregation updates one buffer.
 */
final class HllSketchAggregates {
    private HllSketchAggregates() {
    }

    static Accumulator of(Aggregate a) {
        return a.function() == AggregateFunction.HLL_SKETCH_AGG
                ? new SketchAgg(a.columnIndex(), a.second() == null ? HllSketches.DEFAULT_LG_K : Integer.parseInt(a.second().column()),
                        a.name(), a.expression())
                : new UnionAgg(a.columnIndex(), a.second() != null && Boolean.parseBoolean(a.second().column()), a.name(), a.expression());
    }

    /** The result type, BINARY, of a column the function reads; other types refused as Spark refuses them. */
    static DataType resultType(String key, AggregateFunction f, DataType in, String expression) {
        boolean ok = f == AggregateFunction.HLL_SKETCH_AGG ? HllSketches.sketches(in) : in.kind() == DataType.Kind.BINARY;
        if (!ok) {
            throw SketchErrors.notSketchable(key, expression, in.ddl(), f.sqlName(),
                    f == AggregateFunction.HLL_SKETCH_AGG ? "INT, BIGINT, STRING or BINARY" : "a BINARY sketch");
        }
        return DataType.BINARY;
    }

    /** The constant second argument: hll_sketch_agg's lgConfigK (an integer from 4 to 21), hll_union_agg's true or false. */
    static Aggregate.Argument constant(String key, AggregateFunction f, String text, String expression) {
        String t = text.strip();
        if (f == AggregateFunction.HLL_UNION_AGG) {
            String b = t.toLowerCase(Locale.ROOT);
            if (!b.equals("true") && !b.equals("false")) {
                throw SketchErrors.notConstant(key, expression, f.sqlName(), t, "true or false");
            }
            return Aggregate.Argument.constant(b, DataType.BOOLEAN);
        }
        if (!t.matches("[+-]?\\d{1,9}")) {
            throw SketchErrors.notConstant(key, expression, f.sqlName(), t, "an integer constant, the lgConfigK");
        }
        int lgK = Integer.parseInt(t);
        String invalid = HllSketches.invalidLgK(lgK);
        if (invalid != null) {
            throw SketchErrors.invalidLgK(key, expression, invalid);
        }
        return Aggregate.Argument.constant(Integer.toString(lgK), DataType.INT);
    }

    /** hll_sketch_agg: a sketch of lgConfigK {@code lgK}, the batch's rows fed as Spark feeds them. */
    record SketchAgg(int col, int lgK, String name, String expression) implements CollectionAccumulator {
        public Object zero() {
            return new SketchState(null, null);
        }

        public Object add(Object s, Object[] row) {
            SketchState st = (SketchState) s;
            return addInPlace(st.batch() == null ? s : new SketchState(st.kept(), ((HllSketch) st.batch()).copy()), row);
        }

        public Object addInPlace(Object s, Object[] row) {
            SketchState st = (SketchState) s;
            HllSketch batch = st.batch() == null ? HllSketches.empty(lgK) : (HllSketch) st.batch();
            if (row[col] != null) {
                HllSketches.update(batch, row[col]);
            }
            return batch == st.batch() ? s : new SketchState(st.kept(), batch);
        }

        /** Spark's chain over a batch: partial merge, the kept buffer restored first, partial merge; the bytes it stores. */
        private byte[] stored(SketchState st) {
            if (st.batch() == null) {
                return st.kept() != null ? st.kept() : HllSketches.bytes(HllSketches.empty(lgK));
            }
            HllSketch p1 = merge(HllSketches.empty(lgK), pass((HllSketch) st.batch()));
            HllSketch p2 = HllSketches.empty(lgK);
            if (st.kept() != null) {
                p2 = merge(p2, HllSketches.sketch(st.kept()));
            }
            return HllSketches.bytes(merge(p2, pass(p1)));
        }

        private static HllSketch pass(HllSketch s) {
            return HllSketches.sketch(HllSketches.bytes(s));
        }

        private static HllSketch merge(HllSketch a, HllSketch b) {
            return HllSketches.merge(a, b);
        }

        public Object nextBatch(Object s) {
            SketchState st = (SketchState) s;
            return st.batch() == null ? s : new SketchState(stored(st), null);
        }

        public Object merge(Object a, Object b) {
            HllSketch left = HllSketches.sketch(stored((SketchState) a));
            return new SketchState(HllSketches.bytes(merge(left, HllSketches.sketch(stored((SketchState) b)))), null);
        }

        /** Spark's final aggregation: the stored buffer merged into an empty one, written as its updatable bytes. */
        public Object result(Object s) {
            return HllSketches.bytes(merge(HllSketches.empty(lgK), HllSketches.sketch(stored((SketchState) s))));
        }

        public void write(ByteSink out, Object s) {
            SketchState st = (SketchState) s;
            out.writeNullableBytes(st.kept());
            out.writeNullableBytes(st.batch() == null ? null : HllSketches.bytes((HllSketch) st.batch()));
        }

        public Object read(ByteSource in) {
            byte[] kept = in.readNullableBytes();
            byte[] batch = in.readNullableBytes();
            return new SketchState(kept, batch == null ? null : HllSketches.sketch(batch));
        }
    }

    /** hll_union_agg: a union of the sketches of the group, of the first one's lgConfigK; null sketches skipped. */
    record UnionAgg(int col, boolean allowDifferent, String name, String expression) implements CollectionAccumulator {
        private static final byte[] NONE = new byte[0];

        public Object zero() {
            return new SketchState(null, null);
        }

        public Object add(Object s, Object[] row) {
            SketchState st = (SketchState) s;
            return addInPlace(row[col] != null && st.batch() instanceof Union u ? new SketchState(st.kept(), HllSketches.copy(u)) : s, row);
        }

        public Object addInPlace(Object s, Object[] row) {
            SketchState st = (SketchState) s;
            if (row[col] == null) {
                return st.batch() == null ? new SketchState(st.kept(), NONE) : s;
            }
            Union batch = st.batch() instanceof Union u ? u : null;
            try {
                Union out = HllSketches.unionUpdate(batch, (byte[]) row[col], allowDifferent);
                return out == batch ? s : new SketchState(st.kept(), out);
            } catch (ExpressionException e) {
                throw SketchErrors.failed(name, expression, e);
            }
        }

        /** Spark's chain: the union kept (restored first) updated with the batch's union; the bytes it stores (empty for none). */
        private byte[] stored(SketchState st) {
            Union batch = st.batch() instanceof Union u ? pass(u) : null;
            if (st.batch() == null) {
                return st.kept() != null ? st.kept() : NONE;
            }
            Union kept = st.kept() == null || st.kept().length == 0 ? null : HllSketches.union(st.kept());
            try {
                Union merged = HllSketches.unionMerge(kept, batch, allowDifferent);
                return merged == null ? NONE : HllSketches.unionBytes(merged);
            } catch (ExpressionException e) {
                throw SketchErrors.failed(name, expression, e);
            }
        }

        private static Union pass(Union u) {
            return HllSketches.union(HllSketches.unionBytes(u));
        }

        public Object nextBatch(Object s) {
            SketchState st = (SketchState) s;
            return st.batch() == null ? s : new SketchState(stored(st), null);
        }

        public Object merge(Object a, Object b) {
            byte[] left = stored((SketchState) a);
            return new SketchState(left, right((SketchState) b));
        }

        private Union right(SketchState b) {
            byte[] bytes = stored(b);
            return bytes.length == 0 ? null : HllSketches.union(bytes);
        }

        public Object result(Object s) {
            byte[] bytes = stored((SketchState) s);
            return HllSketches.unionBytes(bytes.length == 0 ? null : HllSketches.union(bytes));
        }

        public void write(ByteSink out, Object s) {
            SketchState st = (SketchState) s;
            out.writeNullableBytes(st.kept());
            out.writeNullableBytes(st.batch() instanceof Union u ? HllSketches.unionBytes(u) : (byte[]) st.batch());
        }

        public Object read(ByteSource in) {
            byte[] kept = in.readNullableBytes();
            byte[] batch = in.readNullableBytes();
            return new SketchState(kept, batch == null || batch.length == 0 ? batch : HllSketches.union(batch));
        }
    }
}
