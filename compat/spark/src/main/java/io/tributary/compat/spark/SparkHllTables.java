package io.tributary.compat.spark;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.spark.sql.catalyst.util.HyperLogLogPlusPlusHelper;

/**
 * The constants of Spark 4.2's HyperLogLog++ ({@code HyperLogLogPlusPlusHelper}): the linear-counting thresholds and, for each
 * precision p from 4 to 18, the raw estimates and their biases that its bias correction interpolates (the HLL++ paper's
 * tables), written as the topology's resource {@code hllpp-tables.txt}: a line {@code thresholds<TAB>...}, then
 * {@code raw P<TAB>...} and {@code bias P<TAB>...}, values comma-separated as Java prints doubles.
 *
 * <p>Usage: {@code SparkHllTables OUT_FILE}
 */
public final class SparkHllTables {
    private SparkHllTables() {
    }

    public static void main(String[] args) throws Exception {
        List<String> out = new ArrayList<>();
        out.add("thresholds\t" + join(HyperLogLogPlusPlusHelper.THRESHOLDS()));
        double[][] raw = HyperLogLogPlusPlusHelper.RAW_ESTIMATE_DATA();
        double[][] bias = HyperLogLogPlusPlusHelper.BIAS_DATA();
        for (int i = 0; i < raw.length; i++) {
            out.add("raw " + (i + 4) + "\t" + join(raw[i]));
            out.add("bias " + (i + 4) + "\t" + join(bias[i]));
        }
        Files.write(Path.of(args[0]), out, StandardCharsets.UTF_8);
        System.out.println(args[0] + ": K " + HyperLogLogPlusPlusHelper.K() + ", " + raw.length + " precisions");
    }

    private static String join(double[] values) {
        return Arrays.stream(values).mapToObj(Double::toString).collect(Collectors.joining(","));
    }
}
