package io.tributary.topology.internal;

import io.tributary.schema.DataType;
import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * try_sum and try_avg where they differ from sum and avg: where sum fails on an overflow (a BIGINT sum, a DECIMAL sum past
 * its precision), they give NULL, and keep it for the group, as Spark's {@code TrySum} and {@code TryAverage} do. Over DOUBLE
 * they are sum and avg.
 */
final class TrySums {
    /** The state of a sum that overflowed. */
    private static final Object OVERFLOWED = new Object();

    private TrySums() {
    }

    /** try_sum of an integral column as BIGINT: null until a non-null value, NULL from an overflow on. */
    record OfLong(int col) implements Accumulator {
        public Object zero() {
            return null;
        }

        public Object add(Object s, Object[] row) {
            Object v = row[col];
            return v == null || s == OVERFLOWED ? s : s == null ? ((Number) v).longValue() : plus(s, ((Number) v).longValue());
        }

        public Object merge(Object a, Object b) {
            return a == null || b == null ? (a == null ? b : a) : a == OVERFLOWED || b == OVERFLOWED ? OVERFLOWED : plus(a, (Long) b);
        }

        private static Object plus(Object s, long x) {
            long a = (Long) s;
            long r = a + x;
            return ((a ^ r) & (x ^ r)) < 0 ? OVERFLOWED : (Object) r;
        }

        public Object result(Object s) {
            return s == OVERFLOWED ? null : s;
        }

        public void write(ByteSink out, Object s) {
            out.writeByte(s == null ? 0 : s == OVERFLOWED ? 2 : 1);
            if (s != null && s != OVERFLOWED) {
                out.writeLong((Long) s);
            }
        }

        public Object read(ByteSource in) {
            int tag = in.readByte();
            return tag == 0 ? null : tag == 2 ? OVERFLOWED : (Object) in.readLong();
        }
    }

    /**
     * try_sum ({@code avg} false) or try_avg of DECIMAL(p,s), whose sum is DECIMAL(min(38,p+10),s): try_avg's sum is NULL from
     * the row that takes it past that precision on, and it divides by the count of non-null values, rounded half up; try_sum's
     * sum is checked when it is given, as Spark checks it (a sum that passes the precision and comes back within it is a value).
     */
    record OfDecimal(int col, DataType input, DataType type, boolean avg) implements Accumulator {
        record State(BigDecimal sum, long count) {
        }

        public Object zero() {
            return new State(null, 0);
        }

        public Object add(Object s, Object[] row) {
            Object v = row[col];
            if (v == null || s == OVERFLOWED) {
                return s;
            }
            State a = (State) s;
            return checked(a.sum == null ? (BigDecimal) v : a.sum.add((BigDecimal) v), a.count + 1);
        }

        public Object merge(Object a, Object b) {
            if (a == OVERFLOWED || b == OVERFLOWED) {
                return OVERFLOWED;
            }
            State x = (State) a;
            State y = (State) b;
            if (x.sum == null || y.sum == null) {
                return x.sum == null ? y : x;
            }
            return checked(x.sum.add(y.sum), x.count + y.count);
        }

        private Object checked(BigDecimal sum, long count) {
            return avg && overflows(sum) ? OVERFLOWED : new State(sum, count);
        }

        private boolean overflows(BigDecimal sum) {
            return sum.precision() - sum.scale() > Math.min(38, input.precision() + 10) - input.scale();
        }

        public Object result(Object s) {
            if (s == OVERFLOWED || ((State) s).sum == null || overflows(((State) s).sum)) {
                return null;
            }
            State a = (State) s;
            return avg ? a.sum.divide(BigDecimal.valueOf(a.count), type.scale(), RoundingMode.HALF_UP)
                    : a.sum.setScale(type.scale(), RoundingMode.HALF_UP);
        }

        public void write(ByteSink out, Object s) {
            State a = s == OVERFLOWED ? null : (State) s;
            out.writeByte(a == null ? 2 : a.sum == null ? 0 : 1);
            if (a != null && a.sum != null) {
                ValueCodec.write(out, DataType.decimal(38, input.scale()), a.sum);
                out.writeLong(a.count);
            }
        }

        public Object read(ByteSource in) {
            int tag = in.readByte();
            if (tag != 1) {
                return tag == 0 ? zero() : OVERFLOWED;
            }
            BigDecimal sum = (BigDecimal) ValueCodec.read(in, DataType.decimal(38, input.scale()));
            return new State(sum, in.readLong());
        }
    }
}
