package io.tributary.compat.spark;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.SparkThrowable;
import org.apache.spark.sql.SparkSession;

/**
 * What Spark 4.2 with Delta 4.4 does with a column of the TIME type, by default: a table declared with one, and a query's
 * TIME column written to a Delta table. Writes {@code time-column.tsv} ({@code WHAT<TAB>OUTCOME}: {@code ok} or Spark's error
 * condition) into the folder given.
 *
 * <p>Usage: {@code SparkTimeColumn GOLDEN_DIR expressions}
 */
public final class SparkTimeColumn {
    private SparkTimeColumn() {
    }

    public static void main(String[] args) throws Exception {
        GoldenCases.recordEachWithDelta(args, "tributary-golden-time-column", SparkTimeColumn::run);
    }

    private static void run(SparkSession spark, Path dir) throws Exception {
        Path tables = Files.createTempDirectory("time-column");
        List<String> out = new ArrayList<>();
        out.add("spark.sql.timeType.enabled\t" + spark.conf().get("spark.sql.timeType.enabled"));
        out.add("CREATE TABLE t (t TIME) USING delta\t" + outcome(() -> spark.sql("CREATE TABLE t (t TIME) USING delta LOCATION '"
                + tables.resolve("created").toUri() + "'")));
        out.add("selectExpr(\"TIME '12:34:56' AS t\").write.format(\"delta\")\t" + outcome(() -> spark.range(1)
                .selectExpr("TIME '12:34:56' AS t").write().format("delta").save(tables.resolve("written").toString())));
        out.add("selectExpr(\"CAST(TIME '12:34:56' AS STRING) AS t\").write.format(\"delta\")\t" + outcome(() -> spark.range(1)
                .selectExpr("CAST(TIME '12:34:56' AS STRING) AS t").write().format("delta").save(tables.resolve("text").toString())));
        Files.write(dir.resolve("time-column.tsv"), out, StandardCharsets.UTF_8);
        System.out.println(String.join("\n", out));
    }

    private static String outcome(Runnable r) {
        try {
            r.run();
            return "ok";
        } catch (Exception e) { // Spark's AnalysisException is checked in Java's eyes, yet thrown from Scala unannounced
            String found = null;
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof SparkThrowable st && st.getCondition() != null) {
                    found = st.getCondition();
                }
            }
            return "!" + (found != null ? found : e.getClass().getSimpleName());
        }
    }
}
