package io.tributary.compat.spark;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.StructType;

/**
 * Spark's rows for the golden join cases ({@code golden/joins/}): the stream's rows of {@code rows.jsonl}
 * and the static table's of {@code table.jsonl}, read with the schemas of {@code case.json}; for each line
 * {@code TYPE<TAB>ALIAS<TAB>ON<TAB>WHERE<TAB>ITEM<TAB>ITEM...} of {@code cases.txt} it runs
 * {@code stream.join(table.alias(ALIAS), expr(ON), TYPE).where(WHERE).selectExpr(ITEM...)} (ANSI mode, UTC;
 * WHERE {@code -} for none) and writes each output row to {@code spark.tsv} as {@code CASE<TAB>VALUE<TAB>VALUE...}
 * ({@link SparkExpressions#canonical}), the rows of a case sorted.
 *
 * <p>Usage: {@code SparkJoins GOLDEN_DIR joins}
 */
public final class SparkJoins {
    private SparkJoins() {
    }

    public static void main(String[] args) throws Exception {
        GoldenCases.recordEach(args, "tributary-golden-joins", SparkJoins::run);
    }

    private static void run(SparkSession spark, Path dir) throws Exception {
        spark.conf().set("spark.sql.ansi.enabled", "true");
        spark.conf().set("spark.sql.datetime.java8API.enabled", "true");
        spark.conf().set("spark.sql.autoBroadcastJoinThreshold", "-1"); // the rows are the same either way; keep plans simple
        var json = new com.fasterxml.jackson.databind.ObjectMapper().readTree(dir.resolve("case.json").toFile());
        StructType schema = StructType.fromDDL(json.get("schema").asText());
        StructType tableSchema = StructType.fromDDL(json.get("tableSchema").asText());
        Dataset<Row> stream = spark.read().schema(schema).json(dir.resolve("rows.jsonl").toString());
        Dataset<Row> table = spark.read().schema(tableSchema).json(dir.resolve("table.jsonl").toString());
        List<String> out = new ArrayList<>();
        int c = 0;
        for (String line : Files.readAllLines(dir.resolve("cases.txt"), StandardCharsets.UTF_8)) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split("\t");
            Dataset<Row> joined = stream.join(table.alias(f[1]), functions.expr(f[2]), f[0]);
            if (!f[3].equals("-")) {
                joined = joined.where(f[3]);
            }
            String[] items = java.util.Arrays.copyOfRange(f, 4, f.length);
            Dataset<Row> result = joined.selectExpr(items);
            List<String> rows = new ArrayList<>();
            for (Row r : result.collectAsList()) {
                List<String> values = new ArrayList<>();
                for (int i = 0; i < r.length(); i++) {
                    values.add(SparkExpressions.canonical(r.get(i)));
                }
                rows.add(c + "\t" + String.join("\t", values));
            }
            rows.sort(null);
            out.addAll(rows);
            c++;
        }
        Files.write(dir.resolve("spark.tsv"), out, StandardCharsets.UTF_8);
        System.out.println(dir.getFileName() + ": " + c + " join cases, " + out.size() + " rows");
    }
}
