package io.tributary.topology.internal;

import io.tributary.expressions.ExpressionException;
import io.tributary.expressions.ThetaSketches;
import io.tributary.schema.DataType;
import io.tributary.topology.Aggregate;
import io.tributary.topology.AggregateFunction;
import org.apache.datasketches.theta.CompactSketch;
import org.apache.datasketches.theta.Intersection;
import org.apache.datasketches.theta.SetOperation;
import org.apache.datasketches.theta.Union;
import org.apache.datasketches.theta.UpdateSketch;

/**
 * {@code theta_sketch_agg(x [, lgNomEntries])}, {@code theta_union_agg(sketch [, lgNomEntries])} and
 * {@code theta_intersection_agg(sketch)} as Spark 4.2's ThetaSketchAgg, ThetaUnionAgg and ThetaIntersectionAgg give them, byte for
 * byte: a batch's rows update a buffer of their own (Spark's partial aggregation), which Spark's chain of merges then carries into
 * the buffer kept from earlier batches (its partial merge, the state store's restore first, a second partial merge, the final
 * merge into an empty buffer), each buffer passing as its compact bytes between two steps, as between Spark's stages. The state
 * holds the kept buffer's bytes and the batch's buffer, as the bytes of its whole state; never mutated.
 */
final class ThetaSketchAggregates {
    private ThetaSketchAggregates() {
    }

    static Accumulator of(Aggregate a) {
        int lgNom = a.second() == null ? ThetaSketches.DEFAULT_LG_NOM : Integer.parseInt(a.second().column());
        return switch (a.function()) {
            case THETA_SKETCH_AGG -> new Chain(a.columnIndex(), new SketchAgg(lgNom, a.inputType()), a.name(), a.expression());
            case THETA_UNION_AGG -> new Chain(a.columnIndex(), new UnionAgg(lgNom), a.name(), a.expression());
            default -> new Chain(a.columnIndex(), new IntersectionAgg(), a.name(), a.expression());
        };
    }

    /** The result type, BINARY, of a column the function reads; other types refused as Spark refuses them. */
    static DataType resultType(String key, AggregateFunction f, DataType in, String expression) {
        boolean ok = f == AggregateFunction.THETA_SKETCH_AGG ? ThetaSketches.sketches(in) : in.kind() == DataType.Kind.BINARY;
        if (!ok) {
            throw SketchErrors.notSketchable(key, expression, in.ddl(), f.sqlName(), f == AggregateFunction.THETA_SKETCH_AGG
                    ? "INT, BIGINT, FLOAT, DOUBLE, STRING, BINARY, ARRAY<INT> or ARRAY<BIGINT>" : "a BINARY sketch");
        }
        return DataType.BINARY;
    }

    /** The constant lgNomEntries of theta_sketch_agg and theta_union_agg: an integer from 4 to 26. */
    static Aggregate.Argument constant(String key, AggregateFunction f, String text, String expression) {
        String t = text.strip();
        if (!t.matches("[+-]?\\d{1,9}")) {
            throw SketchErrors.notConstant(key, expression, f.sqlName(), t, "an integer constant, the lgNomEntries"
                    + " (Spark's THETA_LG_NOM_ENTRIES_MUST_BE_CONSTANT)");
        }
        int lgNom = Integer.parseInt(t);
        String invalid = ThetaSketches.invalidLgNom(f.sqlName(), lgNom);
        if (invalid != null) {
            throw SketchErrors.invalidLgNom(key, expression, invalid);
        }
        return Aggregate.Argument.constant(Integer.toString(lgNom), DataType.INT);
    }

    /** One of Spark's three buffers: how it starts, takes a row's value, is written, and merges a deserialized sketch. */
    interface Buffer {
        /** A new buffer: Spark's createAggregationBuffer. */
        Object create();

        /** The buffer after one non-null value (a new one: {@code buffer} is a copy). */
        void update(Object buffer, Object value);

        /** Spark's serialize of the buffer: compact, compressed bytes. */
        byte[] serialize(Object buffer);

        /** Spark's merge of a new buffer with the deserialized {@code sketches}, in order; its serialized bytes. */
        byte[] mergeFresh(CompactSketch... sketches);

        byte[] toBytes(Object buffer);

        Object fromBytes(byte[] bytes);
    }

    /** theta_sketch_agg: an update sketch; Spark's merge of a fresh update sketch makes a union of it and the input. */
    record SketchAgg(int lgNom, DataType type) implements Buffer {
        public Object create() {
            return ThetaSketches.newSketch(lgNom);
        }

        public void update(Object buffer, Object value) {
            ThetaSketches.update((UpdateSketch) buffer, value, type);
        }

        public byte[] serialize(Object buffer) {
            return ThetaSketches.bytes((UpdateSketch) buffer);
        }

        public byte[] mergeFresh(CompactSketch... sketches) {
            Union union = ThetaSketches.newUnion(lgNom);
            union.union(ThetaSketches.newSketch(lgNom).compact());
            for (CompactSketch s : sketches) {
                union.union(s);
            }
            return ThetaSketches.bytes(union.getResult());
        }

        public byte[] toBytes(Object buffer) {
            return ThetaSketches.updatableBytes((UpdateSketch) buffer);
        }

        public Object fromBytes(byte[] bytes) {
            return ThetaSketches.updateSketch(bytes);
        }
    }

    /** theta_union_agg: a union of lgNomEntries. */
    record UnionAgg(int lgNom) implements Buffer {
        public Object create() {
            return ThetaSketches.newUnion(lgNom);
        }

        public void update(Object buffer, Object value) {
            ((Union) buffer).union(ThetaSketches.wrap((byte[]) value, "theta_union_agg"));
        }

        public byte[] serialize(Object buffer) {
            return ThetaSketches.bytes(((Union) buffer).getResult());
        }

        public byte[] mergeFresh(CompactSketch... sketches) {
            Union union = ThetaSketches.newUnion(lgNom);
            for (CompactSketch s : sketches) {
                union.union(s);
            }
            return ThetaSketches.bytes(union.getResult());
        }

        public byte[] toBytes(Object buffer) {
            return ThetaSketches.setOperationBytes((SetOperation) buffer);
        }

        public Object fromBytes(byte[] bytes) {
            return ThetaSketches.setOperation(bytes);
        }
    }

    /** theta_intersection_agg: an intersection, which Spark cannot serialize before its first sketch. */
    record IntersectionAgg() implements Buffer {
        public Object create() {
            return ThetaSketches.newIntersection();
        }

        public void update(Object buffer, Object value) {
            ((Intersection) buffer).intersect(ThetaSketches.wrap((byte[]) value, "theta_intersection_agg"));
        }

        public byte[] serialize(Object buffer) {
            Intersection i = (Intersection) buffer;
            if (!i.hasResult()) {
                throw new IllegalStateException("no sketch");
            }
            return ThetaSketches.bytes(i.getResult());
        }

        public byte[] mergeFresh(CompactSketch... sketches) {
            Intersection i = ThetaSketches.newIntersection();
            for (CompactSketch s : sketches) {
                i.intersect(s);
            }
            return ThetaSketches.bytes(i.getResult());
        }

        public byte[] toBytes(Object buffer) {
            return ThetaSketches.setOperationBytes((SetOperation) buffer);
        }

        public Object fromBytes(byte[] bytes) {
            return ThetaSketches.setOperation(bytes);
        }
    }

    /** Spark's chain of merges over one of the buffers. */
    record Chain(int col, Buffer buffer, String name, String expression) implements CollectionAccumulator {
        public Object zero() {
            return new SketchState(null, null);
        }

        public Object add(Object s, Object[] row) {
            SketchState st = (SketchState) s;
            return addInPlace(st.batch() == null ? s : new SketchState(st.kept(), buffer.fromBytes(buffer.toBytes(st.batch()))), row);
        }

        public Object addInPlace(Object s, Object[] row) {
            SketchState st = (SketchState) s;
            Object batch = st.batch() == null ? buffer.create() : st.batch();
            if (row[col] != null) {
                try {
                    buffer.update(batch, row[col]);
                } catch (ExpressionException e) {
                    throw SketchErrors.failed(name, expression, e);
                }
            }
            return batch == st.batch() ? s : new SketchState(st.kept(), batch);
        }

        /** The batch's partial buffer, merged into a fresh one, then the kept buffer (restored first) and it into another. */
        private byte[] stored(SketchState st) {
            if (st.batch() == null) {
                return st.kept() != null ? st.kept() : buffer.serialize(buffer.create());
            }
            try {
                byte[] p1 = buffer.mergeFresh(ThetaSketches.heapify(buffer.serialize(buffer.fromBytes(buffer.toBytes(st.batch())))));
                return st.kept() == null ? buffer.mergeFresh(ThetaSketches.heapify(p1))
                        : buffer.mergeFresh(ThetaSketches.heapify(st.kept()), ThetaSketches.heapify(p1));
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
            return new SketchState(buffer.mergeFresh(ThetaSketches.heapify(stored((SketchState) a)), ThetaSketches.heapify(stored((SketchState) b))), null);
        }

        /** Spark's final aggregation: the stored buffer merged into a fresh one, written compact and compressed. */
        public Object result(Object s) {
            return buffer.mergeFresh(ThetaSketches.heapify(stored((SketchState) s)));
        }

        public void write(ByteSink out, Object s) {
            SketchState st = (SketchState) s;
            out.writeNullableBytes(st.kept());
            out.writeNullableBytes(st.batch() == null ? null : buffer.toBytes(st.batch()));
        }

        public Object read(ByteSource in) {
            byte[] kept = in.readNullableBytes();
            byte[] batch = in.readNullableBytes();
            return new SketchState(kept, batch == null ? null : buffer.fromBytes(batch));
        }
    }
}
