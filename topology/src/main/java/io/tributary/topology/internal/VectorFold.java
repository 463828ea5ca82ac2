package io.tributary.topology.internal;

import io.tributary.schema.TributaryException;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code vector_sum(v)} and {@code vector_avg(v)} over ARRAY&lt;FLOAT&gt;, as Spark's {@code VectorSum} and {@code VectorAvg}:
 * element by element in FLOAT arithmetic (vector_avg as a running mean, {@code acc + (x - acc) * (1 / n)}, and two means
 * merged by their counts' weights); a NULL array, or one holding a NULL element, is skipped; arrays of two lengths fail the
 * query with Spark's VECTOR_DIMENSION_MISMATCH. A batch's rows fold apart and merge into the earlier batches' state, as Spark
 * merges its stored buffer with the batch's. NULL when the group has no array.
 */
record VectorFold(int col, boolean avg, String name, String function) implements Accumulator {

    /** One buffer: the elements and the number of arrays they hold (0: none yet). */
    record Buffer(float[] acc, long count) {
        static final Buffer EMPTY = new Buffer(new float[0], 0);
    }

    /** The earlier batches' buffer and this batch's. */
    record State(Buffer stored, Buffer batch) {
    }

    public Object zero() {
        return new State(Buffer.EMPTY, Buffer.EMPTY);
    }

    public Object add(Object s, Object[] row) {
        if (!(row[col] instanceof List<?> v) || v.contains(null)) {
            return s;
        }
        State state = (State) s;
        Buffer b = state.batch;
        float[] x = new float[v.size()];
        for (int i = 0; i < x.length; i++) {
            x[i] = ((Number) v.get(i)).floatValue();
        }
        if (b.count == 0) {
            return new State(state.stored, new Buffer(x, 1));
        }
        if (b.acc.length != x.length) {
            throw mismatch(b.acc.length, x.length);
        }
        long n = b.count + 1;
        float[] acc = b.acc.clone();
        float inv = 1f / (float) n;
        for (int i = 0; i < acc.length; i++) {
            acc[i] = avg ? acc[i] + (x[i] - acc[i]) * inv : acc[i] + x[i];
        }
        return new State(state.stored, new Buffer(acc, n));
    }

    /** Spark's merge of buffer {@code in} into {@code b}. */
    private Buffer merge(Buffer b, Buffer in) {
        if (in.count == 0) {
            return b;
        }
        if (b.count == 0) {
            return in;
        }
        if (b.acc.length != in.acc.length) {
            throw mismatch(b.acc.length, in.acc.length);
        }
        long n = b.count + in.count;
        float w1 = (float) b.count / (float) n;
        float w2 = (float) in.count / (float) n;
        float[] acc = b.acc.clone();
        for (int i = 0; i < acc.length; i++) {
            acc[i] = avg ? acc[i] * w1 + in.acc[i] * w2 : acc[i] + in.acc[i];
        }
        return new Buffer(acc, n);
    }

    private TributaryException mismatch(int left, int right) {
        return OrderStatisticErrors.vectorDimensionMismatch(name, function, left, right);
    }

    @Override
    public Object nextBatch(Object s) {
        State state = (State) s;
        return new State(merge(state.stored, state.batch), Buffer.EMPTY);
    }

    public Object merge(Object a, Object b) {
        State x = (State) a;
        State y = (State) b;
        return new State(merge(merge(x.stored, x.batch), merge(y.stored, y.batch)), Buffer.EMPTY);
    }

    public Object result(Object s) {
        State state = (State) s;
        Buffer b = merge(state.stored, state.batch);
        if (b.count == 0) {
            return null;
        }
        List<Object> out = new ArrayList<>(b.acc.length);
        for (float f : b.acc) {
            out.add(f);
        }
        return List.copyOf(out);
    }

    public void write(ByteSink out, Object s) {
        State state = (State) s;
        write(out, state.stored);
        write(out, state.batch);
    }

    private static void write(ByteSink out, Buffer b) {
        out.writeLong(b.count);
        out.writeInt(b.acc.length);
        for (float f : b.acc) {
            out.writeInt(Float.floatToRawIntBits(f));
        }
    }

    public Object read(ByteSource in) {
        return new State(buffer(in), buffer(in));
    }

    private static Buffer buffer(ByteSource in) {
        long count = in.readLong();
        float[] acc = new float[in.readInt()];
        for (int i = 0; i < acc.length; i++) {
            acc[i] = Float.intBitsToFloat(in.readInt());
        }
        return count == 0 ? Buffer.EMPTY : new Buffer(acc, count);
    }
}
