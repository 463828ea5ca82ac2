package io.tributary.compat.spark;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Spark's sequences of the seeded random functions ({@code golden/expressions/random.txt}, one expression a line): each
 * expression evaluated over the six rows of one partition ({@code spark.range(0, 6, 1, 1)}), so partition index 0, written
 * to {@code random.tsv} as {@code EXPR<TAB>TYPE<TAB>v0|v1|...|v5} (values as {@link SparkExpressions#canonical} writes them).
 *
 * <p>Usage: {@code SparkRandomSequences GOLDEN_DIR expressions}
 */
public final class SparkRandomSequences {
    static final int ROWS = 6;

    private SparkRandomSequences() {
    }

    public static void main(String[] args) throws Exception {
        GoldenCases.recordEach(args, "tributary-golden-random", SparkRandomSequences::run);
    }

    private static void run(SparkSession spark, Path dir) throws Exception {
        Dataset<Row> rows = spark.range(0, ROWS, 1, 1).toDF("id");
        List<String> out = new ArrayList<>();
        for (String expr : Files.readAllLines(dir.resolve("random.txt"), StandardCharsets.UTF_8)) {
            if (expr.isBlank() || expr.startsWith("#")) {
                continue;
            }
            Dataset<Row> df = rows.selectExpr(expr);
            List<String> values = new ArrayList<>();
            for (Row r : df.collectAsList()) {
                values.add(SparkExpressions.canonical(r.get(0)));
            }
            out.add(expr + "\t" + df.schema().fields()[0].dataType().sql() + "\t" + String.join("|", values));
        }
        Files.write(dir.resolve("random.tsv"), out, StandardCharsets.UTF_8);
        System.out.println(dir.getFileName() + ": " + out.size() + " random sequences over " + ROWS + " rows of one partition");
    }
}
