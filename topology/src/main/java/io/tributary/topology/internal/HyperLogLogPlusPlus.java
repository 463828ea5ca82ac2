package io.tributary.topology.internal;

import io.tributary.expressions.SparkHash;
import io.tributary.schema.DataType;
import io.tributary.topology.Aggregate;
import java.util.function.ToLongFunction;
import java.util.regex.Pattern;

/**
 * {@code approx_count_distinct(x [, rsd])} as Spark's HyperLogLog++ ({@code HyperLogLogPlusPlusHelper}) computes it, so that
 * the estimate is Spark's to the bit: each non-null value hashed by Spark's XxHash64 with seed 42, p = ceil(2 log2(1.106 /
 * rsd)) bits of it choosing one of 2^p registers of 6 bits, ten to a long, that keeps the highest rank seen; the estimate is
 * linear counting below Spark's thresholds and the bias-corrected raw estimate above them ({@link HllTables}). The state is the
 * registers, merged by their maximum, so batches and sessions merge exactly. Never null: 0 for no value.
 */
record HyperLogLogPlusPlus(int col, int p, ToLongFunction<Object> hash) implements Accumulator {
    /** Spark's default relative standard deviation. */
    static final double DEFAULT_RSD = 0.05;
    private static final int REGISTERS_PER_WORD = 10;
    private static final int REGISTER_SIZE = 6;
    private static final long REGISTER_MASK = 0x3FL;
    /** A double or decimal literal, as Spark takes the second argument ({@code 0.01}, {@code 1e-2}), not an integer. */
    private static final Pattern LITERAL = Pattern.compile("[+-]?(\\d+\\.\\d*|\\.\\d+|\\d+(\\.\\d*)?[eE][+-]?\\d+)[dD]?");

    static HyperLogLogPlusPlus of(Aggregate a) {
        double rsd = a.second() == null ? DEFAULT_RSD : Double.parseDouble(a.second().column());
        return new HyperLogLogPlusPlus(a.columnIndex(), precision(rsd), SparkHash.xxhash64(a.inputType(), 42L));
    }

    /** Spark's p for a relative standard deviation. */
    static int precision(double rsd) {
        return (int) Math.ceil(2.0d * Math.log(1.106d / rsd) / Math.log(2.0d));
    }

    /** The second argument of {@code approx_count_distinct}, a constant that gives p from 4 to 18; anything else refused. */
    static Aggregate.Argument relativeSd(String key, String text, String expression) {
        String t = text.strip();
        if (!LITERAL.matcher(t).matches()) {
            throw TopologyErrors.relativeSdNotLiteral(key, expression, t);
        }
        int p = precision(Double.parseDouble(t));
        if (p < 4 || p > 18) {
            throw TopologyErrors.relativeSdOutOfRange(key, expression, t, p);
        }
        return Aggregate.Argument.constant(t.replaceAll("[dD]$", ""), DataType.DOUBLE);
    }

    /** The result type, BIGINT, of a column Spark hashes; a map (which Spark does not hash) is refused. */
    static DataType hashable(String key, DataType in, String expression) {
        try {
            SparkHash.xxhash64(in, 42L);
        } catch (IllegalArgumentException e) {
            throw TopologyErrors.notHashable(key, expression, in.ddl());
        }
        return DataType.LONG;
    }

    private int words() {
        return (1 << p) / REGISTERS_PER_WORD + 1;
    }

    public Object zero() {
        return new long[words()];
    }

    public Object add(Object s, Object[] row) {
        Object v = row[col];
        if (v == null) {
            return s;
        }
        long x = hash.applyAsLong(v);
        int idx = (int) (x >>> (64 - p));
        long pw = Long.numberOfLeadingZeros((x << p) | (1L << (p - 1))) + 1L;
        int word = idx / REGISTERS_PER_WORD;
        int shift = REGISTER_SIZE * (idx - word * REGISTERS_PER_WORD);
        long[] a = (long[]) s;
        long mask = REGISTER_MASK << shift;
        if (pw <= (a[word] & mask) >>> shift) {
            return s;
        }
        long[] out = a.clone();
        out[word] = (a[word] & ~mask) | (pw << shift);
        return out;
    }

    public Object merge(Object a, Object b) {
        long[] x = (long[]) a;
        long[] y = (long[]) b;
        long[] out = new long[x.length];
        for (int w = 0; w < x.length; w++) {
            long word = 0;
            for (int shift = 0; shift < REGISTER_SIZE * REGISTERS_PER_WORD; shift += REGISTER_SIZE) {
                word |= Math.max(x[w] & (REGISTER_MASK << shift), y[w] & (REGISTER_MASK << shift));
            }
            out[w] = word;
        }
        return out;
    }

    /** Spark's {@code query}: the harmonic mean of the registers, linear counting or bias correction, rounded to a long. */
    public Object result(Object s) {
        long[] a = (long[]) s;
        int m = 1 << p;
        double zInverse = 0.0d;
        double zeros = 0.0d;
        int idx = 0;
        for (int w = 0; w < a.length; w++) {
            for (int i = 0, shift = 0; idx < m && i < REGISTERS_PER_WORD; i++, idx++, shift += REGISTER_SIZE) {
                long register = (a[w] >>> shift) & REGISTER_MASK;
                zInverse += 1.0 / (1L << (int) register);
                if (register == 0) {
                    zeros += 1.0d;
                }
            }
        }
        double e = HllTables.alphaM2(p) / zInverse;
        double estimate;
        if (zeros > 0) {
            double h = m * Math.log(m / zeros);
            estimate = p < 19 && h <= HllTables.threshold(p) || e <= 2.5 * m ? h : biasCorrected(e, m);
        } else {
            estimate = biasCorrected(e, m);
        }
        return Math.round(estimate);
    }

    private double biasCorrected(double e, int m) {
        return p < 19 && e < 5.0d * m ? e - HllTables.bias(p, e) : e;
    }

    public void write(ByteSink out, Object s) {
        for (long w : (long[]) s) {
            out.writeLong(w);
        }
    }

    public Object read(ByteSource in) {
        long[] a = new long[words()];
        for (int i = 0; i < a.length; i++) {
            a[i] = in.readLong();
        }
        return a;
    }
}
