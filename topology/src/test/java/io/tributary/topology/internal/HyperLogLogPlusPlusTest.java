package io.tributary.topology.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.schema.Schema;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * approx_count_distinct gives Spark 4.2's estimate to the bit over thousands of distinct values of eight types, at three
 * relative standard deviations: linear counting for the few, the bias-corrected raw estimate for more, the raw estimate past
 * that (golden/aggregate-functions/approx-distinct.tsv, recorded by compat/spark's SparkApproxDistinct over the same values).
 */
class HyperLogLogPlusPlusTest {
    private static final Schema INPUT = Schema.parse("s STRING, l BIGINT, d DOUBLE, dt DATE, n INT, ts TIMESTAMP, dec DECIMAL(12,2),"
            + " big DECIMAL(30,2)");
    private static final int DAY_2000_01_01 = 10957;

    @Test
    void theEstimatesAreSparksInEveryRangeAndForEveryType() throws IOException {
        List<String[]> golden = golden();
        assertThat(golden).as("recorded estimates").hasSizeGreaterThan(100);
        int biasCorrected = 0;
        for (String[] g : golden) {
            int count = Integer.parseInt(g[0]);
            String call = "approx_count_distinct(" + g[1] + ", " + g[2] + ")";
            Accumulator acc = Accumulators.of(AggregateParser.parse("aggregate.select.x", "x", call, INPUT));
            int col = INPUT.indexOf(g[1]);
            Object state = acc.zero();
            Object firstHalf = acc.zero();
            Object secondHalf = acc.zero();
            for (int i = 0; i < count; i++) {
                Object[] row = row(i);
                state = acc.add(i % 997 == 0 ? acc.nextBatch(state) : state, row); // a new batch now and then, as a stream's
                if (i < count / 2) {
                    firstHalf = acc.add(firstHalf, row);
                } else {
                    secondHalf = acc.add(secondHalf, row);
                }
            }
            long spark = Long.parseLong(g[3]);
            assertThat(acc.result(state)).as("%s over %d values of %s", call, count, INPUT.field(col).type().ddl()).isEqualTo(spark);
            assertThat(acc.result(acc.merge(firstHalf, secondHalf))).as("%s: two halves merged", call).isEqualTo(spark);
            int p = HyperLogLogPlusPlus.precision(Double.parseDouble(g[2]));
            if (Math.abs(spark - count) > 0 && count > HllTables.threshold(p)) {
                biasCorrected++;
            }
        }
        assertThat(biasCorrected).as("estimates past linear counting").isGreaterThan(10);
    }

    /** Row i as the recorder's query makes it. */
    private static Object[] row(int i) {
        return new Object[] {"user-" + i + "x".repeat(i % 40), (long) i, i / 7.0, DAY_2000_01_01 + i, i, i * 1000003L,
            BigDecimal.valueOf(i).setScale(2), BigDecimal.valueOf(i).setScale(2)};
    }

    private static List<String[]> golden() throws IOException {
        try (InputStream in = HyperLogLogPlusPlusTest.class.getResourceAsStream("/golden/aggregate-functions/approx-distinct.tsv")) {
            assertThat(in).as("golden approx-distinct.tsv").isNotNull();
            return Arrays.stream(new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")).filter(l -> !l.isBlank())
                    .map(l -> l.split("\t")).toList();
        }
    }
}
