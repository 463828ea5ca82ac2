package io.tributary.topology.internal;

import io.tributary.schema.DataType;
import io.tributary.topology.Aggregate;

/**
 * Spark's linear-regression aggregates over the pairs {@code (y, x)} of a group where neither is null: {@code regr_count},
 * {@code regr_avgx} and {@code regr_avgy} (Spark's count and avg over the pairs), {@code regr_sxx} and {@code regr_syy} (its
 * second central moment), {@code regr_sxy} and {@code regr_r2} ({@link CoMoments}), {@code regr_slope} and
 * {@code regr_intercept} (a population covariance and variance together). Each computes as Spark's replacement does, in the
 * same order of operations, with the batch-by-batch merge of its buffers, so the values are Spark's to the bit.
 */
final class Regressions {
    private Regressions() {
    }

    static Accumulator of(Aggregate a) {
        int y = a.columnIndex();
        int x = a.second().index();
        return switch (a.function()) {
            case REGR_COUNT -> new Paired(new Accumulators.Count(y), x);
            case REGR_AVGX -> average(x, y, a.resultType(), a.name());
            case REGR_AVGY -> average(y, x, a.resultType(), a.name());
            case REGR_SXX -> new Line(x, y, Line.Value.M2);
            case REGR_SYY -> new Line(y, x, Line.Value.M2);
            case REGR_SXY -> new CoMoments(y, x, CoMoments.Kind.REGR_SXY);
            case REGR_R2 -> new CoMoments(y, x, CoMoments.Kind.REGR_R2);
            case REGR_SLOPE -> new Line(x, y, Line.Value.SLOPE);
            case REGR_INTERCEPT -> new Line(x, y, Line.Value.INTERCEPT);
            default -> throw new IllegalArgumentException(a.function() + " is no regression");
        };
    }

    /** Spark's avg of {@code col} over the rows where {@code other} is not null too. */
    private static Accumulator average(int col, int other, DataType result, String name) {
        return result.kind() == DataType.Kind.DECIMAL ? new Paired(new AvgDecimal(col, result, name), other)
                : new Average(col, other);
    }

    /** An aggregate of one column over the rows where another column is not null too; otherwise the aggregate as it is. */
    record Paired(Accumulator of, int other) implements ForwardingAccumulator {
        public Object add(Object s, Object[] row) {
            return row[other] == null ? s : of.add(s, row);
        }
    }

    /**
     * Spark's {@code Average} of a number as DOUBLE over the pairs: a sum from 0.0 and a count, a batch's apart from the earlier
     * batches' and added to them as Spark merges its buffers; NULL for no pair.
     */
    record Average(int col, int other) implements Accumulator {
        private static final int SIZE = 2;

        public Object zero() {
            return new double[2 * SIZE];
        }

        public Object add(Object s, Object[] row) {
            Object v = row[col];
            if (v == null || row[other] == null) {
                return s;
            }
            double[] out = ((double[]) s).clone();
            out[SIZE] += ((Number) v).doubleValue();
            out[SIZE + 1] += 1;
            return out;
        }

        public Object nextBatch(Object s) {
            return BatchBuffers.nextBatch(s, SIZE, Average::merge);
        }

        public Object merge(Object a, Object b) {
            return BatchBuffers.merge(a, b, SIZE, Average::merge);
        }

        private static double[] merge(double[] l, double[] rs, int at) {
            return new double[] {l[0] + rs[at], l[1] + rs[at + 1]};
        }

        public Object result(Object s) {
            double[] a = BatchBuffers.evaluated((double[]) s, SIZE, Average::merge);
            return a[1] == 0.0 ? null : a[0] / a[1];
        }

        public void write(ByteSink out, Object s) {
            Doubles.write(out, (double[]) s);
        }

        public Object read(ByteSource in) {
            return Doubles.read(in, 2 * SIZE);
        }
    }

    /**
     * The moments of the pairs (x, y) as Spark's {@code CovPopulation(x, y)} ({@link CoMoments}) and {@code VariancePop(x)} keep
     * them side by side: regr_slope is ck / m2, regr_intercept {@code yAvg - ck / m2 * xAvg} (NULL where x does not vary), and
     * regr_sxx (regr_syy with x and y swapped) Spark's {@code RegrReplacement}, the m2 alone (NULL for no pair).
     */
    record Line(int xCol, int yCol, Value value) implements Accumulator {
        /** Which value of the moments the aggregate gives. */
        enum Value { M2, SLOPE, INTERCEPT }

        private static final int SIZE = 9; // CoMoments' six, then VariancePop's n, avg, m2

        public Object zero() {
            return new double[2 * SIZE];
        }

        public Object add(Object s, Object[] row) {
            Object xv = row[xCol];
            Object yv = row[yCol];
            if (xv == null || yv == null) {
                return s;
            }
            double x = ((Number) xv).doubleValue();
            double[] a = ((double[]) s).clone();
            CoMoments.add(a, SIZE, x, ((Number) yv).doubleValue());
            double n = a[SIZE + 6] + 1.0;
            double delta = x - a[SIZE + 7];
            double deltaN = delta / n;
            a[SIZE + 6] = n;
            a[SIZE + 7] += deltaN;
            a[SIZE + 8] += delta * (delta - deltaN);
            return a;
        }

        public Object nextBatch(Object s) {
            return BatchBuffers.nextBatch(s, SIZE, Line::merge);
        }

        public Object merge(Object a, Object b) {
            return BatchBuffers.merge(a, b, SIZE, Line::merge);
        }

        private static double[] merge(double[] l, double[] rs, int at) {
            double[] out = new double[SIZE];
            System.arraycopy(CoMoments.merge(l, rs, at), 0, out, 0, 6);
            double n1 = l[6];
            double n2 = rs[at + 6];
            double n = n1 + n2;
            double delta = rs[at + 7] - l[7];
            double deltaN = n == 0.0 ? 0.0 : delta / n;
            out[6] = n;
            out[7] = l[7] + deltaN * n2;
            out[8] = l[8] + rs[at + 8] + delta * deltaN * n1 * n2;
            return out;
        }

        public Object result(Object s) {
            double[] a = BatchBuffers.evaluated((double[]) s, SIZE, Line::merge);
            double m2 = a[8];
            return switch (value) {
                case M2 -> a[6] == 0.0 ? null : m2;
                case SLOPE -> m2 == 0.0 ? null : a[3] / m2;
                case INTERCEPT -> m2 == 0.0 ? null : a[2] - a[3] / m2 * a[1];
            };
        }

        public void write(ByteSink out, Object s) {
            Doubles.write(out, (double[]) s);
        }

        public Object read(ByteSource in) {
            return Doubles.read(in, 2 * SIZE);
        }
    }

    /** States of doubles as their raw bits. */
    private static final class Doubles {
        private Doubles() {
        }

        static void write(ByteSink out, double[] a) {
            for (double d : a) {
                out.writeLong(Double.doubleToRawLongBits(d));
            }
        }

        static double[] read(ByteSource in, int size) {
            double[] a = new double[size];
            for (int i = 0; i < size; i++) {
                a[i] = Double.longBitsToDouble(in.readLong());
            }
            return a;
        }
    }
}
