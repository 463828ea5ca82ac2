package io.tributary.topology.internal;

import io.tributary.schema.DataType;

/**
 * bit_and, bit_or and bit_xor of an integral column, as Spark's {@code BitAndAgg}, {@code BitOrAgg} and {@code BitXorAgg}: the
 * bits of the non-null values folded, of the column's own type; NULL when there is none.
 */
record BitFold(int col, DataType type, Op op) implements Accumulator {
    enum Op { AND, OR, XOR }

    public Object zero() {
        return null;
    }

    public Object add(Object s, Object[] row) {
        Object v = row[col];
        if (v == null) {
            return s;
        }
        long x = ((Number) v).longValue();
        return s == null ? x : fold((Long) s, x);
    }

    public Object merge(Object a, Object b) {
        return a == null || b == null ? (a == null ? b : a) : fold((Long) a, (Long) b);
    }

    private long fold(long a, long b) {
        return switch (op) {
            case AND -> a & b;
            case OR -> a | b;
            case XOR -> a ^ b;
        };
    }

    public Object result(Object s) {
        if (s == null) {
            return null;
        }
        long v = (Long) s;
        return switch (type.kind()) {
            case BYTE -> (byte) v;
            case SHORT -> (short) v;
            case INT -> (int) v;
            default -> v;
        };
    }

    public void write(ByteSink out, Object s) {
        ValueCodec.write(out, DataType.LONG, s);
    }

    public Object read(ByteSource in) {
        return ValueCodec.read(in, DataType.LONG);
    }
}
