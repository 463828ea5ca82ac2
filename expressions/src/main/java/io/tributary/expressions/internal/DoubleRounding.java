package io.tributary.expressions.internal;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Spark's {@code round} and {@code bround} of a DOUBLE: the decimal text of the double
 * ({@code Double.toString}, as Scala's {@code BigDecimal(d)} takes it) rounded to {@code scale}
 * places, then the nearest double. The common value, below 10^7 with at most six decimals, is rounded
 * as a long: it is {@code m / 10^k} for the fewest decimals {@code k} (one correctly rounded division,
 * hence exact), which is the decimal its text writes; the result, {@code r / 10^scale}, is what
 * {@link BigDecimal#doubleValue} computes for it. Any other value takes the decimal itself.
 */
final class DoubleRounding {
    private static final double[] POWERS_OF_TEN = {1, 10, 100, 1e3, 1e4, 1e5, 1e6};
    private static final long[] LONG_POWERS_OF_TEN = {1, 10, 100, 1_000, 10_000, 100_000, 1_000_000};

    private DoubleRounding() {
    }

    /** {@code d} rounded half up ({@link RoundingMode#HALF_UP}) or half to even to {@code scale} decimal places. */
    static double round(double d, int scale, RoundingMode mode) {
        double a = Math.abs(d);
        if (scale >= 0 && a >= 1e-3 && a < 1e7 && (mode == RoundingMode.HALF_UP || mode == RoundingMode.HALF_EVEN)) {
            for (int k = 1; k < POWERS_OF_TEN.length; k++) {
                long m = Math.round(a * POWERS_OF_TEN[k]);
                if ((double) m / POWERS_OF_TEN[k] != a) {
                    continue;
                }
                if (k <= scale) {
                    return d; // no digit to drop: the decimal read back is d
                }
                long q = LONG_POWERS_OF_TEN[k - scale];
                long r = m / q;
                long twice = 2 * (m % q);
                if (twice > q || twice == q && (mode == RoundingMode.HALF_UP || (r & 1) == 1)) {
                    r++;
                }
                if (r == 0) {
                    return 0.0; // a decimal has no negative zero
                }
                double rounded = (double) r / POWERS_OF_TEN[scale];
                return d < 0 ? -rounded : rounded;
            }
        }
        return new BigDecimal(Double.toString(d)).setScale(scale, mode).doubleValue();
    }
}
