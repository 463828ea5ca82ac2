package io.tributary.topology.internal;

import io.tributary.schema.DataType;

/**
 * {@code max_by(x, ord)} (sign 1) and {@code min_by(x, ord)} (sign -1) as Spark's {@code MaxMinBy}: the value of {@code x} in
 * the row of the greatest (least) {@code ord}, by Spark's ordering; rows whose {@code ord} is null are skipped, a null {@code x}
 * at the extreme is the result, and on equal {@code ord} the later row wins, within a batch and across batches and merges
 * alike. The state is {@code {x, ord}} once a row with an ordering was seen, else null.
 */
record ExtremumBy(int xCol, DataType xType, int ordCol, DataType ordType, int sign) implements Accumulator {
    public Object zero() {
        return null;
    }

    public Object add(Object s, Object[] row) {
        Object ord = row[ordCol];
        if (ord == null) {
            return s;
        }
        return later(s, ord) ? new Object[] {row[xCol], ord} : s;
    }

    public Object merge(Object a, Object b) {
        return b != null && later(a, ((Object[]) b)[1]) ? b : a;
    }

    /** Whether a row ordered by {@code ord}, coming after those of {@code s}, takes the state's place: Spark keeps the old only when it is strictly beyond. */
    private boolean later(Object s, Object ord) {
        return s == null || sign * SparkOrdering.compare(ordType, ((Object[]) s)[1], ord) <= 0;
    }

    public Object result(Object s) {
        return s == null ? null : ((Object[]) s)[0];
    }

    /** Writes the state; a FLOAT or DOUBLE value as its exact bits (-0.0 stays -0.0, as Spark returns it), not normalised as a key. */
    public void write(ByteSink out, Object s) {
        out.writeByte(s == null ? 0 : 1);
        if (s != null) {
            ValueCodec.writeExact(out, xType, ((Object[]) s)[0]);
            ValueCodec.write(out, ordType, ((Object[]) s)[1]);
        }
    }

    public Object read(ByteSource in) {
        return in.readByte() == 0 ? null : new Object[] {ValueCodec.read(in, xType), ValueCodec.read(in, ordType)};
    }
}
