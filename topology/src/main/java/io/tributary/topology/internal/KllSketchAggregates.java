package io.tributary.topology.internal;

import io.tributary.expressions.ExpressionException;
import io.tributary.expressions.KllSketches;
import io.tributary.expressions.KllSketches.Kind;
import io.tributary.schema.DataType;
import io.tributary.topology.Aggregate;
import io.tributary.topology.AggregateFunction;
import org.apache.datasketches.kll.KllSketch;

/**
 * {@code kll_sketch_agg_*(x [, k])} and {@code kll_merge_agg_*(sketch [, k])} (bigint, float, double) as Spark 4.2's KllSketchAgg*
 * and KllMergeAgg* give them: a batch's rows update a buffer of their own (Spark's partial aggregation), which Spark's chain of
 * merges then carries into the buffer kept from earlier batches (its partial merge, the state store's restore, a second partial
 * merge, the final merge into a new buffer), each buffer passing as its bytes between two steps, as between Spark's stages. A
 * kll_merge_agg buffer without a sketch and without a k is none, and leaves a step as an empty sketch of k 200, as Spark's does.
 * Up to k values a sketch is Spark's byte for byte; past them the library compacts at random, in Spark as here (see
 * {@link KllSketches}). The state holds the kept buffer's bytes and the batch's buffer; never mutated, copied on update.
 */
final class KllSketchAggregates {
    private KllSketchAggregates() {
    }

    /** Whether {@code f} is one of the six. */
    static boolean kll(AggregateFunction f) {
        return f.name().startsWith("KLL_");
    }

    static Accumulator of(Aggregate a) {
        Kind kind = kind(a.function());
        Integer k = a.second() == null ? null : Integer.valueOf(a.second().column());
        return a.function().name().startsWith("KLL_SKETCH_AGG")
                ? new Agg(new SketchBuffers(kind, k == null ? KllSketches.DEFAULT_K : k), a.columnIndex(), a.name(), a.expression())
                : new Agg(new MergeBuffers(kind, k, a.function().sqlName()), a.columnIndex(), a.name(), a.expression());
    }

    private static Kind kind(AggregateFunction f) {
        String n = f.name();
        return Kind.valueOf(n.substring(n.lastIndexOf('_') + 1));
    }

    /** The result type, BINARY, of a column the function reads; other types refused as Spark refuses them (it casts nothing). */
    static DataType resultType(String key, AggregateFunction f, DataType in, String expression) {
        Kind kind = kind(f);
        boolean sketch = f.name().startsWith("KLL_SKETCH_AGG");
        if (sketch ? !KllSketches.sketches(kind, in) : in.kind() != DataType.Kind.BINARY) {
            throw SketchErrors.notSketchable(key, expression, in.ddl(), f.sqlName(), !sketch ? "a BINARY sketch"
                    : switch (kind) {
                        case BIGINT -> "TINYINT, SMALLINT, INT or BIGINT";
                        case FLOAT -> "FLOAT";
                        case DOUBLE -> "FLOAT or DOUBLE";
                    });
        }
        return DataType.BINARY;
    }

    /** The constant second argument, k: an integer from 8 to 65535. */
    static Aggregate.Argument constant(String key, AggregateFunction f, String text, String expression) {
        String t = text.strip();
        if (!t.matches("[+-]?\\d{1,9}")) {
            String spark = t.equalsIgnoreCase("null") ? "UNEXPECTED_NULL"
                    : t.matches("[+-]?[\\d.]+[A-Za-z]*|'.*'|\".*\"|(?i)true|false") ? "UNEXPECTED_INPUT_TYPE" : "NON_FOLDABLE_INPUT";
            throw SketchErrors.notConstant(key, expression, f.sqlName(), t, "an INT constant, the k (Spark's DATATYPE_MISMATCH." + spark + ")");
        }
        int k = Integer.parseInt(t);
        String invalid = KllSketches.invalidK(f.sqlName(), k);
        if (invalid != null) {
            throw SketchErrors.invalidK(key, expression, invalid);
        }
        return Aggregate.Argument.constant(Integer.toString(k), DataType.INT);
    }

    /**
     * Spark's buffer of one of the aggregates: made, fed a row, merged, written and read back as its serialize and deserialize.
     * A buffer may be {@code null} (kll_merge_agg's none).
     */
    private interface Buffers {
        KllSketch create();

        KllSketch update(KllSketch buffer, Object value);

        KllSketch merge(KllSketch a, KllSketch b);

        byte[] serialize(KllSketch buffer);

        KllSketch deserialize(byte[] bytes);

        /** A copy of a buffer, to keep the one it came from unchanged. */
        default KllSketch copy(KllSketch buffer) {
            return buffer == null ? null : deserialize(serialize(buffer));
        }
    }

    /** kll_sketch_agg_*: a sketch of k from the start, fed each non-null value. */
    private record SketchBuffers(Kind kind, int k) implements Buffers {
        public KllSketch create() {
            return KllSketches.empty(kind, k);
        }

        public KllSketch update(KllSketch buffer, Object value) {
            KllSketches.update(buffer, value);
            return buffer;
        }

        public KllSketch merge(KllSketch a, KllSketch b) {
            return KllSketches.merge(a, b, "kll_sketch_agg_" + kind.suffix());
        }

        public byte[] serialize(KllSketch buffer) {
            return KllSketches.bytes(buffer);
        }

        public KllSketch deserialize(byte[] bytes) {
            return bytes.length == 0 ? create() : KllSketches.sketch(kind, bytes, "kll_sketch_agg_" + kind.suffix());
        }
    }

    /** kll_merge_agg_*: none (or a sketch of the given k) until a sketch comes, which makes one of its own k. */
    private record MergeBuffers(Kind kind, Integer k, String function) implements Buffers {
        public KllSketch create() {
            return k == null ? null : KllSketches.empty(kind, k);
        }

        public KllSketch update(KllSketch buffer, Object value) {
            KllSketch sketch = KllSketches.sketch(kind, (byte[]) value, function);
            KllSketch into = buffer == null ? KllSketches.empty(kind, sketch.getK()) : buffer;
            return merge(into, sketch);
        }

        public KllSketch merge(KllSketch a, KllSketch b) {
            if (a == null || b == null) {
                return a == null ? b : a;
            }
            return KllSketches.merge(a, b, function);
        }

        public byte[] serialize(KllSketch buffer) {
            return KllSketches.bytes(buffer == null ? KllSketches.empty(kind, k == null ? KllSketches.DEFAULT_K : k) : buffer);
        }

        public KllSketch deserialize(byte[] bytes) {
            return bytes.length == 0 ? create() : KllSketches.sketch(kind, bytes, function);
        }
    }

    /** The batch's buffer before a row of the batch came. */
    private static final Object NONE = new Object();

    /** One of the aggregates over column {@code col}, its buffers made by {@code buffers}. */
    private record Agg(Buffers buffers, int col, String name, String expression) implements CollectionAccumulator {
        public Object zero() {
            return new SketchState(null, NONE);
        }

        public Object add(Object s, Object[] row) {
            SketchState st = (SketchState) s;
            return addInPlace(st.batch() == NONE ? s : new SketchState(st.kept(), buffers.copy((KllSketch) st.batch())), row);
        }

        public Object addInPlace(Object s, Object[] row) {
            SketchState st = (SketchState) s;
            KllSketch batch = st.batch() == NONE ? buffers.create() : (KllSketch) st.batch();
            if (row[col] != null) {
                try {
                    batch = buffers.update(batch, row[col]);
                } catch (ExpressionException e) {
                    throw SketchErrors.failed(name, expression, e);
                }
            }
            return batch == st.batch() ? s : new SketchState(st.kept(), batch);
        }

        /** Spark's chain over a batch: partial merge, the kept buffer restored first, partial merge; the bytes it stores. */
        private byte[] stored(SketchState st) {
            if (st.batch() == NONE) {
                return st.kept() != null ? st.kept() : buffers.serialize(buffers.create());
            }
            try {
                KllSketch p1 = buffers.merge(buffers.create(), pass((KllSketch) st.batch()));
                KllSketch p2 = buffers.create();
                if (st.kept() != null) {
                    p2 = buffers.merge(p2, buffers.deserialize(st.kept()));
                }
                return buffers.serialize(buffers.merge(p2, pass(p1)));
            } catch (ExpressionException e) {
                throw SketchErrors.failed(name, expression, e);
            }
        }

        private KllSketch pass(KllSketch s) {
            return buffers.deserialize(buffers.serialize(s));
        }

        public Object nextBatch(Object s) {
            SketchState st = (SketchState) s;
            return st.batch() == NONE ? s : new SketchState(stored(st), NONE);
        }

        public Object merge(Object a, Object b) {
            byte[] left = stored((SketchState) a);
            byte[] right = stored((SketchState) b);
            try {
                return new SketchState(buffers.serialize(buffers.merge(buffers.deserialize(left), buffers.deserialize(right))), NONE);
            } catch (ExpressionException e) {
                throw SketchErrors.failed(name, expression, e);
            }
        }

        /** Spark's final aggregation: the stored buffer merged into a new one, written as its bytes. */
        public Object result(Object s) {
            return buffers.serialize(buffers.merge(buffers.create(), buffers.deserialize(stored((SketchState) s))));
        }

        public void write(ByteSink out, Object s) {
            SketchState st = (SketchState) s;
            out.writeNullableBytes(st.kept());
            out.writeInt(st.batch() == NONE ? -2 : st.batch() == null ? -1 : 0);
            if (st.batch() != NONE && st.batch() != null) {
                out.writeBytes(buffers.serialize((KllSketch) st.batch()));
            }
        }

        public Object read(ByteSource in) {
            byte[] kept = in.readNullableBytes();
            int tag = in.readInt();
            return new SketchState(kept, tag == -2 ? NONE : tag == -1 ? null : buffers.deserialize(in.readNullableBytes()));
        }
    }
}
