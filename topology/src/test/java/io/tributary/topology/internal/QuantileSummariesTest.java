package io.tributary.topology.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Spark 4.2's percentile_approx over one summary of N values in order (golden/aggregate-functions/approx-percentile.tsv, the
 * {@code batch} lines of compat/spark SparkApproxPercentile): for N from 1,000 to 130,000 (past the head buffer of 50,000 and
 * the compression threshold of 10,000) at four accuracies, the eleven estimates are Spark's to the bit.
 */
class QuantileSummariesTest {
    private static final List<Double> PERCENTAGES = List.of(0.0, 0.001, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 0.999, 1.0);

    @Test
    void theEstimatesOfOneSummaryAreSparks() throws IOException {
        int checked = 0;
        for (String line : golden()) {
            String[] f = line.split("\t");
            if (!f[0].equals("batch")) {
                continue;
            }
            int count = Integer.parseInt(f[1]);
            int accuracy = Integer.parseInt(f[2]);
            QuantileSummaries q = QuantileSummaries.empty(1.0 / accuracy);
            for (long i = 0; i < count; i++) {
                q = q.insert(((i * 40503) % 65537) / 16.0 - 1000.0);
            }
            double[] estimates = q.digest().query(PERCENTAGES);
            assertThat(Arrays.stream(estimates).mapToObj(Double::toString).toList()).as("N %d accuracy %d", count, accuracy)
                    .containsExactly(f[3].split(","));
            checked++;
        }
        assertThat(checked).as("golden lines").isEqualTo(16);
    }

    @Test
    void mergingTwoSummariesKeepsEveryValueCounted() {
        QuantileSummaries a = QuantileSummaries.empty(0.01);
        QuantileSummaries b = QuantileSummaries.empty(0.01);
        for (int i = 0; i < 70_000; i++) {
            a = a.insert(i);
            b = b.insert(-i - 1.0);
        }
        QuantileSummaries merged = a.digest().merge(b.digest());
        assertThat(merged.count).isEqualTo(140_000);
        assertThat(merged.sampled.length).as("compressed").isLessThan(1_000);
        double[] q = merged.query(List.of(0.0, 0.5, 1.0));
        assertThat(q[0]).isEqualTo(-70_000.0);
        assertThat(q[2]).isEqualTo(69_999.0);
        assertThat(Math.abs(q[1])).as("the median within 1% of the rank").isLessThan(1_400.0);
        assertThat(QuantileSummaries.empty(0.01).digest().query(List.of(0.5))).as("no value").isNull();
    }

    private static List<String> golden() throws IOException {
        try (InputStream in = QuantileSummariesTest.class.getResourceAsStream("/golden/aggregate-functions/approx-percentile.tsv")) {
            assertThat(in).isNotNull();
            return new ArrayList<>(Arrays.asList(new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")));
        }
    }
}
