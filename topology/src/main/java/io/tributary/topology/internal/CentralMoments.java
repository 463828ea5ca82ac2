package io.tributary.topology.internal;

/**
 * stddev_samp, stddev_pop, var_samp and var_pop (stddev and variance are the samp forms) as Spark's {@code CentralMomentAgg}
 * computes them: the count, mean and sum of squared distances from the mean updated row by row (Welford's method) in DOUBLE,
 * and merged by the same formulas as Spark's, so that the values are Spark's to the bit. As Spark, a batch's rows are folded
 * apart from the state of earlier batches and merged into it ({@link #nextBatch}), and the buffer evaluated is merged into an
 * empty one first, as Spark's final aggregation does: a value past the square root of Double.MAX_VALUE then gives NaN, as
 * Spark's merge multiplies its overflowed square by a count of 0. Nulls are skipped; no value gives
 * NULL, and the sample forms of one value NULL too (Spark's default; {@code spark.sql.legacy.statisticalAggregate} gave NaN).
 */
record CentralMoments(int col, boolean sample, boolean root) implements Accumulator {
    private static final int SIZE = 3; // n, avg, m2

    /** The earlier batches' buffer in {@code [0, 3)}, this batch's in {@code [3, 6)}. */
    public Object zero() {
        return new double[2 * SIZE];
    }

    public Object add(Object s, Object[] row) {
        Object v = row[col];
        if (v == null) {
            return s;
        }
        double[] a = ((double[]) s).clone();
        double n = a[SIZE] + 1.0;
        double delta = ((Number) v).doubleValue() - a[SIZE + 1];
        double deltaN = delta / n;
        a[SIZE + 2] = a[SIZE + 2] + delta * (delta - deltaN);
        a[SIZE + 1] = a[SIZE + 1] + deltaN;
        a[SIZE] = n;
        return a;
    }

    public Object nextBatch(Object s) {
        return BatchBuffers.nextBatch(s, SIZE, CentralMoments::merge);
    }

    public Object merge(Object a, Object b) {
        return BatchBuffers.merge(a, b, SIZE, CentralMoments::merge);
    }

    /** Spark's merge of buffer {@code x} with {@code ys}'s buffer at {@code at}. */
    private static double[] merge(double[] x, double[] ys, int at) {
        double n1 = x[0];
        double n2 = ys[at];
        double n = n1 + n2;
        double delta = ys[at + 1] - x[1];
        double deltaN = n == 0.0 ? 0.0 : delta / n;
        return new double[] {n, x[1] + deltaN * n2, x[2] + ys[at + 2] + delta * deltaN * n1 * n2};
    }

    public Object result(Object s) {
        double[] a = BatchBuffers.evaluated((double[]) s, SIZE, CentralMoments::merge);
        if (a[0] == 0.0 || sample && a[0] == 1.0) {
            return null;
        }
        double variance = a[2] / (sample ? a[0] - 1.0 : a[0]);
        return root ? Math.sqrt(variance) : variance;
    }

    public void write(ByteSink out, Object s) {
        for (double d : (double[]) s) {
            out.writeLong(Double.doubleToRawLongBits(d));
        }
    }

    public Object read(ByteSource in) {
        double[] a = new double[2 * SIZE];
        for (int i = 0; i < a.length; i++) {
            a[i] = Double.longBitsToDouble(in.readLong());
        }
        return a;
    }
}
