package io.tributary.topology.internal;

/**
 * bool_and (every) and bool_or (some, any) of a BOOLEAN argument, as Spark's: nulls are skipped, and no value gives NULL.
 * The state is null, or the value so far.
 */
record BoolFold(int col, boolean and) implements Accumulator {
    public Object zero() {
        return null;
    }

    public Object add(Object s, Object[] row) {
        return merge(s, row[col]);
    }

    public Object merge(Object a, Object b) {
        if (a == null || b == null) {
            return a == null ? b : a;
        }
        return and ? (Boolean) a && (Boolean) b : (Boolean) a || (Boolean) b;
    }

    public Object result(Object s) {
        return s;
    }

    public void write(ByteSink out, Object s) {
        out.writeByte(s == null ? 0 : (Boolean) s ? 2 : 1);
    }

    public Object read(ByteSource in) {
        int b = in.readByte();
        return b == 0 ? null : b == 2;
    }
}
