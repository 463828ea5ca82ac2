package io.tributary.expressions.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** round and bround of a DOUBLE give what rounding its decimal text gives, as Spark rounds it. */
class DoubleRoundingTest {
    private static final RoundingMode[] MODES = {RoundingMode.HALF_UP, RoundingMode.HALF_EVEN};

    @Test
    void decimalsOfOneToFourPlacesRoundAsTheirTextDoes() {
        double[] scale = {1, 10, 100, 1000, 1e4};
        for (int k = 1; k < scale.length; k++) {
            for (long m = 0; m < 15_000; m++) {
                double d = m / scale[k];
                for (int s = -1; s <= 4; s++) {
                    same(d, s);
                    same(-d, s);
                }
            }
        }
    }

    @Test
    void randomAndEdgeDoublesRoundAsTheirTextDoes() {
        Random random = new Random(5);
        for (int n = 0; n < 30_000; n++) {
            double d = switch (n % 3) {
                case 0 -> Double.longBitsToDouble(random.nextLong());
                case 1 -> random.nextInt(100_000_000) / 1000.0 * 1.1;
                default -> (random.nextLong() % 10_000_000_000_000L) / Math.pow(10, random.nextInt(8));
            };
            if (!Double.isNaN(d) && !Double.isInfinite(d)) {
                same(d, random.nextInt(9) - 1);
            }
        }
        for (double d : new double[] {0.0, -0.0, 0.001, -0.0005, 0.0049, 0.005, 0.015, 0.025, 2.5, -2.5, 3.5, 9999999.95, 1e7, 1e-3, 0.1 + 0.2,
            1.005, 2.675, 1.45, -1.45, 5e-4, 9999999.999999}) {
            for (int s = -2; s <= 8; s++) {
                same(d, s);
            }
        }
    }

    private static void same(double d, int s) {
        for (RoundingMode mode : MODES) {
            double expected = new BigDecimal(Double.toString(d)).setScale(s, mode).doubleValue();
            double actual = DoubleRounding.round(d, s, mode);
            if (Double.doubleToRawLongBits(actual) != Double.doubleToRawLongBits(expected)) {
                assertThat(actual).as("%s of %s to %d places", mode, d, s).isEqualTo(expected);
            }
        }
    }
}
