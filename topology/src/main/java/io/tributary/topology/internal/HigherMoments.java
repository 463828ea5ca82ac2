package io.tributary.topology.internal;

/**
 * skewness and kurtosis as Spark's {@code CentralMomentAgg} computes them: the count, mean and the second, third and fourth
 * central moments' sums updated row by row in DOUBLE and merged by Spark's formulas, so that the values are Spark's to the
 * bit. As Spark, a batch's rows are folded apart from the state of earlier batches and merged into it ({@link #nextBatch}):
 * the state is those two buffers, and the value is Spark's merge of both. Nulls are skipped; no value gives NULL, and so does
 * a group whose values are all equal (m2 = 0: Spark's default; {@code spark.sql.legacy.statisticalAggregate} gave NaN).
 */
record HigherMoments(int col, boolean kurtosis) implements Accumulator {
    private static final int SIZE = 5;

    /** The earlier batches' buffer in {@code [0, 5)}, this batch's in {@code [5, 10)}. */
    public Object zero() {
        return new double[2 * SIZE];
    }

    public Object add(Object s, Object[] row) {
        Object v = row[col];
        if (v == null) {
            return s;
        }
        double[] a = (double[]) s;
        double n = a[SIZE] + 1.0;
        double delta = ((Number) v).doubleValue() - a[SIZE + 1];
        double deltaN = delta / n;
        double m2 = a[SIZE + 2] + delta * (delta - deltaN);
        double delta2 = delta * delta;
        double deltaN2 = deltaN * deltaN;
        double m3 = a[SIZE + 3] - 3.0 * deltaN * m2 + delta * (delta2 - deltaN2);
        double m4 = a[SIZE + 4] - 4.0 * deltaN * m3 - 6.0 * deltaN2 * m2 + delta * (delta * delta2 - deltaN * deltaN2);
        double[] out = a.clone();
        System.arraycopy(new double[] {n, a[SIZE + 1] + deltaN, m2, m3, m4}, 0, out, SIZE, SIZE);
        return out;
    }

    public Object nextBatch(Object s) {
        return BatchBuffers.nextBatch(s, SIZE, HigherMoments::merge);
    }

    public Object merge(Object a, Object b) {
        return BatchBuffers.merge(a, b, SIZE, HigherMoments::merge);
    }

    /** Spark's merge of buffer {@code x} with {@code y}'s buffer at {@code at}. */
    private static double[] merge(double[] x, double[] ys, int at) {
        double n1 = x[0];
        double n2 = ys[at];
        double y1 = ys[at + 1];
        double y2 = ys[at + 2];
        double y3 = ys[at + 3];
        double n = n1 + n2;
        double delta = y1 - x[1];
        double deltaN = n == 0.0 ? 0.0 : delta / n;
        double m2 = x[2] + y2 + delta * deltaN * n1 * n2;
        double m3 = x[3] + y3 + deltaN * deltaN * delta * n1 * n2 * (n1 - n2) + 3.0 * deltaN * (n1 * y2 - n2 * x[2]);
        double m4 = x[4] + ys[at + 4] + deltaN * deltaN * deltaN * delta * n1 * n2 * (n1 * n1 - n1 * n2 + n2 * n2)
                + 6.0 * deltaN * deltaN * (n1 * n1 * y2 + n2 * n2 * x[2]) + 4.0 * deltaN * (n1 * y3 - n2 * x[3]);
        return new double[] {n, x[1] + deltaN * n2, m2, m3, m4};
    }

    public Object result(Object s) {
        double[] a = BatchBuffers.evaluated((double[]) s, SIZE, HigherMoments::merge);
        double n = a[0];
        double m2 = a[2];
        if (n == 0.0 || m2 == 0.0) {
            return null;
        }
        return kurtosis ? n * a[4] / (m2 * m2) - 3.0 : Math.sqrt(n) * a[3] / Math.sqrt(m2 * m2 * m2);
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
