package io.tributary.topology.internal;

import io.tributary.expressions.ExpressionException;
import io.tributary.expressions.ImplicitCast;
import io.tributary.expressions.TupleSketches;
import io.tributary.expressions.TupleSketches.Kind;
import io.tributary.expressions.TupleSketches.Mode;
import io.tributary.schema.DataType;
import io.tributary.topology.Aggregate;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.apache.datasketches.tuple.Intersection;
import org.apache.datasketches.tuple.Summary;
import org.apache.datasketches.tuple.Union;
import org.apache.datasketches.tuple.UpdatableSketch;

/**
 * {@code tuple_sketch_agg_*(key, summary [, lgNomEntries [, mode]])}, {@code tuple_union_agg_*(sketch [, lgNomEntries [, mode]])}
 * and {@code tuple_intersection_agg_*(sketch [, mode])} (double, integer) as Spark 4.2's TupleSketchAgg*, TupleUnionAgg* and
 * TupleIntersectionAgg* give them, byte for byte: a batch's rows update a buffer of their own (Spark's partial aggregation), which
 * Spark's chain of merges then carries into the buffer kept from earlier batches (its partial merge, the state store's restore first,
 * a second partial merge, the final merge into a fresh buffer), each buffer passing as its compact bytes between two steps, as
 * between Spark's stages. The library cannot write a union, an intersection or an update sketch back as it was, so the state holds
 * the kept buffer's bytes and the batch's inputs in order (a row's key and summary, or its sketch), from which the batch's buffer
 * is built again when the state is read.
 */
final class TupleSketchAggregates {
    private TupleSketchAggregates() {
    }

    static Accumulator of(Aggregate a) {
        TupleSketchParser.Constants c = TupleSketchParser.constants(a);
        Kind kind = TupleSketchParser.kind(a.function());
        String fn = a.function().sqlName();
        Buffer buffer = fn.startsWith("tuple_sketch_agg") ? SketchAgg.of(kind, c, a)
                : fn.startsWith("tuple_union_agg") ? new UnionAgg(kind, c.lgNom(), c.mode(), a.columnIndex(), fn)
                : new IntersectionAgg(kind, c.mode(), a.columnIndex(), fn);
        return new Chain(buffer, a.name(), a.expression());
    }

    /** A batch's buffer: the inputs it was fed, in order (what the state keeps of it), and the library's buffer they built. */
    static final class Batch {
        final List<byte[]> inputs = new ArrayList<>();
        final Object live;

        Batch(Object live) {
            this.live = live;
        }
    }

    /** One of Spark's three buffers: how it starts, what of a row it takes, how it is written, and its merge of written ones. */
    interface Buffer {
        Kind kind();

        /** A new buffer: Spark's createAggregationBuffer. */
        Object create();

        /** What the buffer takes of {@code row}, as bytes; null for a row Spark skips (a null key, summary or sketch). */
        byte[] input(Object[] row);

        /** The buffer fed one input; an ExpressionException for bytes that are no sketch. */
        void update(Object buffer, byte[] input);

        /** Spark's serialize of the buffer: compact bytes (an IllegalStateException for an intersection of nothing). */
        byte[] serialize(Object buffer);

        /** Spark's merge of a fresh buffer with the deserialized {@code sketches}, in order; its serialized bytes. */
        byte[] mergeFresh(List<byte[]> sketches);
    }

    /**
     * tuple_sketch_agg: an update sketch; Spark's merge of a fresh update sketch makes a union of it and the input. The key and
     * summary are cast as Spark's analyzer casts them ({@link TupleSketches#keyType}, {@link TupleSketches#summaryType}).
     */
    record SketchAgg(Kind kind, int lgNom, Mode mode, DataType keyType, int keyCol, UnaryOperator<Object> keyCast, int summaryCol,
            UnaryOperator<Object> summaryCast) implements Buffer {
        static SketchAgg of(Kind kind, TupleSketchParser.Constants c, Aggregate a) {
            DataType key = TupleSketches.keyType(a.inputType());
            DataType summary = TupleSketches.summaryType(kind, a.second().type());
            return new SketchAgg(kind, c.lgNom(), c.mode(), key, a.columnIndex(), ImplicitCast.of(a.inputType(), key, a.column()),
                    a.second().index(), ImplicitCast.of(a.second().type(), summary, a.second().column()));
        }

        public Object create() {
            return TupleSketches.newSketch(kind, lgNom, mode);
        }

        public byte[] input(Object[] row) {
            Object k = keyCast.apply(row[keyCol]); // Spark evaluates the key, then the summary, then skips a null one
            Object v = summaryCast.apply(row[summaryCol]);
            if (k == null || v == null) {
                return null;
            }
            Object key = TupleSketches.key(k, keyType);
            return key == null ? null : encode(key, TupleSketches.summary(kind, v));
        }

        @SuppressWarnings("unchecked")
        public void update(Object buffer, byte[] input) {
            ByteBuffer in = ByteBuffer.wrap(input);
            byte tag = in.get();
            Object summary = kind == Kind.DOUBLE ? (Object) in.getDouble() : (Object) in.getInt();
            Object key = switch (tag) {
                case 0 -> in.getLong();
                case 1 -> in.getDouble();
                case 2 -> {
                    byte[] b = new byte[in.remaining()];
                    in.get(b);
                    yield b;
                }
                case 3 -> {
                    int[] a = new int[in.remaining() / 4];
                    in.asIntBuffer().get(a);
                    yield a;
                }
                default -> {
                    long[] a = new long[in.remaining() / 8];
                    in.asLongBuffer().get(a);
                    yield a;
                }
            };
            TupleSketches.update((UpdatableSketch<Object, ?>) buffer, key, summary);
        }

        private byte[] encode(Object key, Object summary) {
            int size = key instanceof byte[] b ? b.length : key instanceof int[] a ? a.length * 4 : key instanceof long[] a ? a.length * 8 : 8;
            ByteBuffer out = ByteBuffer.allocate(1 + (kind == Kind.DOUBLE ? 8 : 4) + size);
            out.put((byte) (key instanceof Long ? 0 : key instanceof Double ? 1 : key instanceof byte[] ? 2 : key instanceof int[] ? 3 : 4));
            if (kind == Kind.DOUBLE) {
                out.putDouble((Double) summary);
            } else {
                out.putInt((Integer) summary);
            }
            if (key instanceof Long l) {
                out.putLong(l);
            } else if (key instanceof Double d) {
                out.putDouble(d);
            } else if (key instanceof byte[] b) {
                out.put(b);
            } else if (key instanceof int[] a) {
                out.asIntBuffer().put(a);
            } else {
                out.asLongBuffer().put((long[]) key);
            }
            return out.array();
        }

        public byte[] serialize(Object buffer) {
            return TupleSketches.bytes((UpdatableSketch<?, ?>) buffer);
        }

        public byte[] mergeFresh(List<byte[]> sketches) {
            Union<Summary> union = TupleSketches.newUnion(kind, lgNom, mode);
            union.union(TupleSketches.emptyCompact(kind, lgNom, mode));
            for (byte[] s : sketches) {
                union.union(TupleSketches.heapify(kind, s, "tuple_sketch_agg_" + kind.suffix()));
            }
            return union.getResult().toByteArray();
        }
    }

    /** A row's sketch: BINARY as it is, STRING as Spark's {@code CAST(x AS BINARY)}, its UTF-8 bytes; null for NULL. */
    static byte[] sketch(Object v) {
        return v instanceof String text ? text.getBytes(StandardCharsets.UTF_8) : (byte[]) v;
    }

    /** tuple_union_agg: a union of lgNomEntries and mode. */
    record UnionAgg(Kind kind, int lgNom, Mode mode, int col, String function) implements Buffer {
        public Object create() {
            return TupleSketches.newUnion(kind, lgNom, mode);
        }

        public byte[] input(Object[] row) {
            return sketch(row[col]);
        }

        @SuppressWarnings("unchecked")
        public void update(Object buffer, byte[] input) {
            ((Union<Summary>) buffer).union(TupleSketches.heapify(kind, input, function));
        }

        @SuppressWarnings("unchecked")
        public byte[] serialize(Object buffer) {
            return ((Union<Summary>) buffer).getResult().toByteArray();
        }

        public byte[] mergeFresh(List<byte[]> sketches) {
            Union<Summary> union = TupleSketches.newUnion(kind, lgNom, mode);
            for (byte[] s : sketches) {
                union.union(TupleSketches.heapify(kind, s, function));
            }
            return union.getResult().toByteArray();
        }
    }

    /** tuple_intersection_agg: an intersection of mode, which Spark cannot serialize before its first sketch. */
    record IntersectionAgg(Kind kind, Mode mode, int col, String function) implements Buffer {
        public Object create() {
            return TupleSketches.newIntersection(kind, mode);
        }

        public byte[] input(Object[] row) {
            return sketch(row[col]);
        }

        @SuppressWarnings("unchecked")
        public void update(Object buffer, byte[] input) {
            ((Intersection<Summary>) buffer).intersect(TupleSketches.heapify(kind, input, function));
        }

        @SuppressWarnings("unchecked")
        public byte[] serialize(Object buffer) {
            Intersection<Summary> i = (Intersection<Summary>) buffer;
            if (!i.hasResult()) {
                throw new IllegalStateException("no sketch");
            }
            return i.getResult().toByteArray();
        }

        public byte[] mergeFresh(List<byte[]> sketches) {
            Intersection<Summary> i = TupleSketches.newIntersection(kind, mode);
            for (byte[] s : sketches) {
                i.intersect(TupleSketches.heapify(kind, s, function));
            }
            return i.getResult().toByteArray();
        }
    }

    /** Spark's chain of merges over one of the buffers. */
    record Chain(Buffer buffer, String name, String expression) implements CollectionAccumulator {
        public Object zero() {
            return new SketchState(null, null);
        }

        public Object add(Object s, Object[] row) {
            SketchState st = (SketchState) s;
            return addInPlace(st.batch() == null ? s : new SketchState(st.kept(), replay(((Batch) st.batch()).inputs)), row);
        }

        public Object addInPlace(Object s, Object[] row) {
            SketchState st = (SketchState) s;
            Batch batch = st.batch() == null ? new Batch(buffer.create()) : (Batch) st.batch();
            try {
                byte[] input = buffer.input(row); // a key or summary Spark casts fails as the cast fails
                if (input != null) {
                    buffer.update(batch.live, input);
                    batch.inputs.add(input);
                }
            } catch (ExpressionException e) {
                throw SketchErrors.failed(name, expression, e);
            }
            return batch == st.batch() ? s : new SketchState(st.kept(), batch);
        }

        /** A batch's buffer built again from its inputs. */
        private Batch replay(List<byte[]> inputs) {
            Batch batch = new Batch(buffer.create());
            for (byte[] input : inputs) {
                buffer.update(batch.live, input);
                batch.inputs.add(input);
            }
            return batch;
        }

        /** The batch's partial buffer, merged into a fresh one, then the kept buffer (restored first) and it into another. */
        private byte[] stored(SketchState st) {
            try {
                if (st.batch() == null) {
                    return st.kept() != null ? st.kept() : buffer.serialize(buffer.create());
                }
                byte[] p1 = buffer.mergeFresh(List.of(buffer.serialize(((Batch) st.batch()).live)));
                return st.kept() == null ? buffer.mergeFresh(List.of(p1)) : buffer.mergeFresh(List.of(st.kept(), p1));
            } catch (ExpressionException e) {
                throw SketchErrors.failed(name, expression, e);
            } catch (IllegalStateException e) {
                throw SketchErrors.noIntersection(name, expression);
            }
        }

        public Object nextBatch(Object s) {
            SketchState st = (SketchState) s;
            return st.batch() == null ? s : new SketchState(stored(st), null);
        }

        public Object merge(Object a, Object b) {
            return new SketchState(buffer.mergeFresh(List.of(stored((SketchState) a), stored((SketchState) b))), null);
        }

        /** Spark's final aggregation: the stored buffer merged into a fresh one, written compact. */
        public Object result(Object s) {
            return buffer.mergeFresh(List.of(stored((SketchState) s)));
        }

        public void write(ByteSink out, Object s) {
            SketchState st = (SketchState) s;
            out.writeNullableBytes(st.kept());
            if (st.batch() == null) {
                out.writeInt(-1);
                return;
            }
            List<byte[]> inputs = ((Batch) st.batch()).inputs;
            out.writeInt(inputs.size());
            for (byte[] input : inputs) {
                out.writeBytes(input);
            }
        }

        public Object read(ByteSource in) {
            byte[] kept = in.readNullableBytes();
            int n = in.readInt();
            if (n < 0) {
                return new SketchState(kept, null);
            }
            List<byte[]> inputs = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                inputs.add(in.readNullableBytes());
            }
            return new SketchState(kept, replay(inputs));
        }
    }
}
