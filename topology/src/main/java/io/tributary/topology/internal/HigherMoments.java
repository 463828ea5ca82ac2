package io.tributary.topology.internal;

/**
 * skewness and kurtosis as Spark's {@code CentralMomentAgg} computes them: the count, mean and the second, third and fourth
 * central moments' sums updated row by row in DOUBLE and merged by Spark's formulas, so that the values are Spark's to the
 * bit. Nulls are skipped; no value gives NULL, and so does a group whose values are all equal (m2 = 0: Spark's default;
 * {@code spark.sql.legacy.statisticalAggregate} gave NaN).
 */
record HigherMoments(int col, boolean kurtosis) implements Accumulator {
    public Object zero() {
        return new double[5];
    }

    public Object add(Object s, Object[] row) {
        Object v = row[col];
        if (v == null) {
            return s;
        }
        double[] a = (double[]) s;
        double n = a[0] + 1.0;
        double delta = ((Number) v).doubleValue() - a[1];
        double deltaN = delta / n;
        double m2 = a[2] + delta * (delta - deltaN);
        double delta2 = delta * delta;
        double deltaN2 = deltaN * deltaN;
        double m3 = a[3] - 3.0 * deltaN * m2 + delta * (delta2 - deltaN2);
        double m4 = a[4] - 4.0 * deltaN * m3 - 6.0 * deltaN2 * m2 + delta * (delta * delta2 - deltaN * deltaN2);
        return new double[] {n, a[1] + deltaN, m2, m3, m4};
    }

    public Object merge(Object a, Object b) {
        double[] x = (double[]) a;
        double[] y = (double[]) b;
        double n1 = x[0];
        double n2 = y[0];
        double n = n1 + n2;
        double delta = y[1] - x[1];
        double deltaN = n == 0.0 ? 0.0 : delta / n;
        double m2 = x[2] + y[2] + delta * deltaN * n1 * n2;
        double m3 = x[3] + y[3] + deltaN * deltaN * delta * n1 * n2 * (n1 - n2) + 3.0 * deltaN * (n1 * y[2] - n2 * x[2]);
        double m4 = x[4] + y[4] + deltaN * deltaN * deltaN * delta * n1 * n2 * (n1 * n1 - n1 * n2 + n2 * n2)
                + 6.0 * deltaN * deltaN * (n1 * n1 * y[2] + n2 * n2 * x[2]) + 4.0 * deltaN * (n1 * y[3] - n2 * x[3]);
        return new double[] {n, x[1] + deltaN * n2, m2, m3, m4};
    }

    public Object result(Object s) {
        double[] a = (double[]) s;
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
        double[] a = new double[5];
        for (int i = 0; i < a.length; i++) {
            a[i] = Double.longBitsToDouble(in.readLong());
        }
        return a;
    }
}
