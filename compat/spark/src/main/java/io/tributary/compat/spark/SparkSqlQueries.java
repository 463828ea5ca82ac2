package io.tributary.compat.spark;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.SparkThrowable;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.Trigger;
import org.apache.spark.sql.types.StructType;

/**
 * What Spark 4.2 makes of the queries users paste into {@code sql:} ({@code golden/sql/}): the stream {@code source} reads
 * {@code rows.jsonl} from a folder with the schema of {@code case.json}; {@code table.jsonl} is written as a Delta table that the
 * queries name {@code delta.`T`}. Each line of {@code cases.txt} ({@code \n} a line break) is run with {@code spark.sql} as a
 * streaming query, trigger availableNow, appending to a new Delta table. {@code spark.tsv} gets, for case N (0-based), either
 * {@code N<TAB>:SCHEMA} (the table's columns as Spark's DDL) and its rows {@code N<TAB>VALUE...}
 * ({@link SparkExpressions#canonical}, sorted), or {@code N<TAB>!CONDITION<TAB>MESSAGE} (Spark's error class and the first line
 * of its message, the temporary folder written {@code DIR}; a write that fails is {@code STREAM_FAILED}, the cause's class in
 * brackets in the message, and where a row failed the write, {@code ; cause: } and the first line of the innermost error with a
 * condition, {@code [CAST_INVALID_INPUT] ...}) when Spark refuses the query or its write fails. With {@code -Dsql.from=N} only the cases from N on
 * run, and their lines are appended to {@code spark.tsv}.
 *
 * <p>Usage: {@code SparkSqlQueries GOLDEN_DIR sql}
 */
public final class SparkSqlQueries {
    private SparkSqlQueries() {
    }

    public static void main(String[] args) throws Exception {
        GoldenCases.recordEachWithDelta(args, "tributary-golden-sql", SparkSqlQueries::run);
    }

    private static void run(SparkSession spark, Path dir) throws Exception {
        spark.conf().set("spark.sql.datetime.java8API.enabled", "true");
        var json = new com.fasterxml.jackson.databind.ObjectMapper().readTree(dir.resolve("case.json").toFile());
        Path tmp = Files.createTempDirectory("golden-sql");
        Path in = Files.createDirectories(tmp.resolve("in"));
        Files.copy(dir.resolve("rows.jsonl"), in.resolve("rows.json"));
        String table = tmp.resolve("table").toString();
        spark.read().schema(StructType.fromDDL(json.get("tableSchema").asText())).json(dir.resolve("table.jsonl").toString())
                .write().format("delta").save(table);
        spark.readStream().schema(StructType.fromDDL(json.get("schema").asText())).json(in.toString()).createOrReplaceTempView("source");
        List<String> out = new ArrayList<>();
        int from = Integer.getInteger("sql.from", 0);
        int n = 0;
        for (String line : Files.readAllLines(dir.resolve("cases.txt"), StandardCharsets.UTF_8)) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            if (n < from) {
                n++;
                continue;
            }
            String query = line.replace("\\n", "\n").replace("delta.`T`", "delta.`" + table + "`");
            String target = tmp.resolve("out-" + n).toString();
            try {
                Dataset<Row> rows = spark.sql(query);
                rows.writeStream().format("delta").option("checkpointLocation", tmp.resolve("cp-" + n).toString())
                        .trigger(Trigger.AvailableNow()).start(target).awaitTermination();
                Dataset<Row> written = spark.read().format("delta").load(target);
                out.add(n + "\t:" + written.schema().toDDL());
                List<String> values = new ArrayList<>();
                for (Row r : written.collectAsList()) {
                    List<String> v = new ArrayList<>();
                    for (int i = 0; i < r.length(); i++) {
                        v.add(SparkExpressions.canonical(r.get(i)));
                    }
                    values.add(n + "\t" + String.join("\t", v));
                }
                values.sort(null);
                out.addAll(values);
            } catch (Exception e) {
                String condition = e.getClass().getSimpleName();
                String message = e.getMessage();
                Throwable root = null; // the innermost error with a condition: why a row failed the write (CAST_INVALID_INPUT)
                for (Throwable t = e; t != null; t = t.getCause()) {
                    if (t instanceof SparkThrowable st && st.getCondition() != null) {
                        if (root == null) {
                            condition = st.getCondition();
                            message = t.getMessage();
                        }
                        root = t;
                    }
                }
                String first = String.valueOf(message).lines().findFirst().orElse("");
                String rootCondition = root == null ? null : ((SparkThrowable) root).getCondition();
                if (rootCondition != null && !first.contains("[" + rootCondition + "]")) {
                    first += "; cause: " + String.valueOf(root.getMessage()).lines().findFirst().orElse("");
                }
                out.add(n + "\t!" + condition + "\t" + first.replace(tmp.toString(), "DIR").replace("\t", " "));
            }
            n++;
        }
        if (from > 0) {
            Files.write(dir.resolve("spark.tsv"), out, StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.APPEND);
        } else {
            Files.write(dir.resolve("spark.tsv"), out, StandardCharsets.UTF_8);
        }
        System.out.println(dir.getFileName() + ": " + n + " queries, " + out.size() + " lines");
    }
}
