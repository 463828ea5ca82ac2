package io.tributary.topology.internal;

/**
 * corr, covar_pop, covar_samp, regr_sxy and regr_r2 as Spark's {@code PearsonCorrelation} and {@code Covariance} compute
 * them: the count, the means of x and y, the co-moment and (for corr) the second moments of x and y, updated row by row in DOUBLE and merged by Spark's
 * formulas, so that the values are Spark's to the bit. Rows where x or y is null are skipped. As Spark, a batch's rows are
 * folded apart from the state of earlier batches and merged into it ({@link #nextBatch}). No pair gives NULL; covar_samp and
 * corr of one pair NULL too, and corr NULL where x or y does not vary (Spark's defaults); regr_r2 (over
 * {@code corr(y, x)}'s moments) NULL where y does not vary and 1 where x does not.
 */
record CoMoments(int xCol, int yCol, Kind kind) implements Accumulator {
    /** Which value of the moments the aggregate gives. */
    enum Kind { CORR, COVAR_POP, COVAR_SAMP, REGR_SXY, REGR_R2 }

    private static final int SIZE = 6; // n, xAvg, yAvg, ck, xMk, yMk

    /** The earlier batches' buffer in {@code [0, 6)}, this batch's in {@code [6, 12)}. */
    public Object zero() {
        return new double[2 * SIZE];
    }

    public Object add(Object s, Object[] row) {
        Object xv = row[xCol];
        Object yv = row[yCol];
        if (xv == null || yv == null) {
            return s;
        }
        double[] out = ((double[]) s).clone();
        add(out, SIZE, ((Number) xv).doubleValue(), ((Number) yv).doubleValue());
        return out;
    }

    /** Spark's update of the buffer at {@code at} in {@code a} with the pair (x, y), in place. */
    static void add(double[] a, int at, double x, double y) {
        double n = a[at] + 1.0;
        double dx = x - a[at + 1];
        double dxN = dx / n;
        double dy = y - a[at + 2];
        double dyN = dy / n;
        double xAvg = a[at + 1] + dxN;
        double yAvg = a[at + 2] + dyN;
        double ck = a[at + 3] + dx * (y - yAvg);
        double xMk = a[at + 4] + dx * (x - xAvg);
        double yMk = a[at + 5] + dy * (y - yAvg);
        System.arraycopy(new double[] {n, xAvg, yAvg, ck, xMk, yMk}, 0, a, at, SIZE);
    }

    public Object nextBatch(Object s) {
        return BatchBuffers.nextBatch(s, SIZE, CoMoments::merge);
    }

    public Object merge(Object a, Object b) {
        return BatchBuffers.merge(a, b, SIZE, CoMoments::merge);
    }

    /** Spark's merge of buffer {@code l} with {@code rs}'s buffer at {@code at}. */
    static double[] merge(double[] l, double[] rs, int at) {
        double n1 = l[0];
        double n2 = rs[at];
        double n = n1 + n2;
        double dx = rs[at + 1] - l[1];
        double dxN = n == 0.0 ? 0.0 : dx / n;
        double dy = rs[at + 2] - l[2];
        double dyN = n == 0.0 ? 0.0 : dy / n;
        double xAvg = l[1] + dxN * n2;
        double yAvg = l[2] + dyN * n2;
        double ck = l[3] + rs[at + 3] + dx * dyN * n1 * n2;
        double xMk = l[4] + rs[at + 4] + dx * dxN * n1 * n2;
        double yMk = l[5] + rs[at + 5] + dy * dyN * n1 * n2;
        return new double[] {n, xAvg, yAvg, ck, xMk, yMk};
    }

    public Object result(Object s) {
        double[] a = BatchBuffers.evaluated((double[]) s, SIZE, CoMoments::merge);
        double n = a[0];
        if (n == 0.0) {
            return null;
        }
        return switch (kind) {
            case COVAR_POP -> a[3] / n;
            case COVAR_SAMP -> n == 1.0 ? null : a[3] / (n - 1.0);
            case CORR -> {
                double d = Math.sqrt(a[4] * a[5]);
                yield n == 1.0 || d == 0.0 ? null : a[3] / d;
            }
            case REGR_SXY -> a[3];
            case REGR_R2 -> { // Spark's RegrR2 over PearsonCorrelation(y, x): x here is the regression's y
                double corr = a[3] / Math.sqrt(a[4] * a[5]);
                yield a[4] == 0.0 ? null : a[5] == 0.0 ? 1.0 : corr * corr;
            }
        };
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
