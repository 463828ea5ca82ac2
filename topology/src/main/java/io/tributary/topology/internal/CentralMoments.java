package io.tributary.topology.internal;

/**
 * stddev_samp, stddev_pop, var_samp and var_pop (stddev and variance are the samp forms) as Spark's {@code CentralMomentAgg}
 * computes them: the count, mean and sum of squared distances from the mean updated row by row (Welford's method) in DOUBLE,
 * and merged by the same formulas as Spark's, so that the values are Spark's to the bit. Nulls are skipped; no value gives
 * NULL, and the sample forms of one value NULL too (Spark's default; {@code spark.sql.legacy.statisticalAggregate} gave NaN).
 */
record CentralMoments(int col, boolean sample, boolean root) implements Accumulator {
    public Object zero() {
        return new double[] {0.0, 0.0, 0.0};
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
        return new double[] {n, a[1] + deltaN, a[2] + delta * (delta - deltaN)};
    }

    public Object merge(Object a, Object b) {
        double[] x = (double[]) a;
        double[] y = (double[]) b;
        double n = x[0] + y[0];
        double delta = y[1] - x[1];
        double deltaN = n == 0.0 ? 0.0 : delta / n;
        return new double[] {n, x[1] + deltaN * y[0], x[2] + y[2] + delta * deltaN * x[0] * y[0]};
    }

    public Object result(Object s) {
        double[] a = (double[]) s;
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
        return new double[] {Double.longBitsToDouble(in.readLong()), Double.longBitsToDouble(in.readLong()),
            Double.longBitsToDouble(in.readLong())};
    }
}
