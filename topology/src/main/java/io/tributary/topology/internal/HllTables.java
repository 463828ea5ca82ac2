package io.tributary.topology.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The constants of Spark's HyperLogLog++: its linear-counting thresholds, and for each precision p from 4 to 18 the raw
 * estimates and biases (the HLL++ paper's empirical tables) its bias correction interpolates over the {@code K = 6} nearest
 * estimates. Read from {@code hllpp-tables.txt}, which {@code compat/spark}'s {@code SparkHllTables} writes from Spark's own.
 */
final class HllTables {
    private static final int K = 6;
    private static final double[] THRESHOLDS;
    private static final double[][] RAW = new double[15][];
    private static final double[][] BIAS = new double[15][];

    static {
        try (InputStream in = HllTables.class.getResourceAsStream("hllpp-tables.txt")) {
            double[] thresholds = null;
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                String[] f = line.split("\t");
                double[] values = Arrays.stream(f[1].split(",")).mapToDouble(Double::parseDouble).toArray();
                if (f[0].equals("thresholds")) {
                    thresholds = values;
                } else {
                    (f[0].startsWith("raw ") ? RAW : BIAS)[Integer.parseInt(f[0].substring(f[0].indexOf(' ') + 1)) - 4] = values;
                }
            }
            THRESHOLDS = thresholds;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private HllTables() {
    }

    /** Spark's alpha * m * m for 2^p registers. */
    static double alphaM2(int p) {
        int m = 1 << p;
        return switch (p) {
            case 4 -> 0.673d * m * m;
            case 5 -> 0.697d * m * m;
            case 6 -> 0.709d * m * m;
            default -> (0.7213d / (1.0d + 1.079d / m)) * m * m;
        };
    }

    /** The cardinality under which linear counting is used at precision p. */
    static double threshold(int p) {
        return THRESHOLDS[p - 4];
    }

    /** Spark's {@code estimateBias}: the mean bias of the K raw estimates nearest to {@code e}. */
    static double bias(int p, double e) {
        double[] estimates = RAW[p - 4];
        int n = estimates.length;
        int at = Arrays.binarySearch(estimates, 0, n, e);
        int nearest = at < 0 ? -(at + 1) : at;
        int low = Math.max(nearest - K + 1, 0);
        int high = Math.min(low + K, n);
        while (high < n && distance(e, estimates, high) < distance(e, estimates, low)) {
            low++;
            high++;
        }
        double[] biases = BIAS[p - 4];
        double sum = 0.0;
        for (int i = low; i < high; i++) {
            sum += biases[i];
        }
        return sum / (high - low);
    }

    private static double distance(double e, double[] estimates, int i) {
        double diff = e - estimates[i];
        return diff * diff;
    }
}
