package io.tributary.compat.spark;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Spark's {@code approx_count_distinct} over thousands of distinct values of several types, so that both of HyperLogLog++'s
 * ranges (linear counting, and the bias-corrected raw estimate) are recorded: for each count N, the values of row i of
 * {@code range(N)} are {@code s = 'user-' || i || repeat('x', i % 40)} (STRING), {@code l = i} (BIGINT), {@code d = i / 7.0}
 * (DOUBLE), {@code dt = DATE'2000-01-01' + i} (DATE), {@code n = CAST(i AS INT)} (INT), {@code ts = timestamp_micros(i *
 * 1000003)} (TIMESTAMP), {@code dec = CAST(i AS DECIMAL(12,2))} and {@code big = CAST(i AS DECIMAL(30,2))}.
 * {@code approx-distinct.tsv} gets a line {@code N<TAB>COLUMN<TAB>RSD<TAB>ESTIMATE} for each count, column and relative
 * standard deviation (0.05, Spark's default, 0.01 and 0.2).
 *
 * <p>Usage: {@code SparkApproxDistinct GOLDEN_DIR aggregate-functions}
 */
public final class SparkApproxDistinct {
    private static final int[] COUNTS = {50, 300, 1000, 2000, 5000, 20000};
    private static final String[] COLUMNS = {"s", "l", "d", "dt", "n", "ts", "dec", "big"};
    private static final String[] RSDS = {"0.05", "0.01", "0.2"};

    private SparkApproxDistinct() {
    }

    public static void main(String[] args) throws Exception {
        GoldenCases.recordEach(args, "tributary-golden-approx-distinct", SparkApproxDistinct::run);
    }

    private static void run(SparkSession spark, Path dir) throws Exception {
        List<String> out = new ArrayList<>();
        for (int count : COUNTS) {
            List<String> calls = new ArrayList<>();
            for (String column : COLUMNS) {
                for (String rsd : RSDS) {
                    calls.add("approx_count_distinct(" + column + ", " + rsd + ")");
                }
            }
            Row row = spark.sql("SELECT " + String.join(", ", calls) + " FROM (SELECT concat('user-', id, repeat('x', id % 40)) AS s,"
                    + " id AS l, id / 7.0D AS d, date_add(DATE'2000-01-01', CAST(id AS INT)) AS dt, CAST(id AS INT) AS n,"
                    + " timestamp_micros(id * 1000003) AS ts, CAST(id AS DECIMAL(12,2)) AS dec, CAST(id AS DECIMAL(30,2)) AS big"
                    + " FROM range(" + count + "))").collectAsList().get(0);
            int i = 0;
            for (String column : COLUMNS) {
                for (String rsd : RSDS) {
                    out.add(count + "\t" + column + "\t" + rsd + "\t" + row.getLong(i++));
                }
            }
        }
        Files.write(dir.resolve("approx-distinct.tsv"), out, StandardCharsets.UTF_8);
        System.out.println(dir.getFileName() + ": " + out.size() + " estimates");
    }
}
