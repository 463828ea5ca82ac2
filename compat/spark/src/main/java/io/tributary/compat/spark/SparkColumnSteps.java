package io.tributary.compat.spark;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.SparkThrowable;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Spark's rows for the golden column-step cases ({@code golden/column-steps/}): the rows of {@code rows.jsonl}, read with the
 * schema of {@code case.json}; each line of {@code cases.txt} is {@code WHERE<TAB>SELECT<TAB>WITH_COLUMNS<TAB>RENAMED<TAB>DROP}
 * ({@code -} for none; items separated by {@code ;;}, pairs written {@code name=value}), run as
 * {@code rows.where(WHERE).selectExpr(SELECT...).withColumns(Map of expr(...)).withColumnsRenamed(Map).drop(names...)} (ANSI
 * mode, UTC). {@code spark.tsv} holds each case's rows in Spark's order ({@link SparkExpressions#canonical}), or
 * {@code CASE<TAB>!CONDITION} where Spark refuses the case; {@code columns.tsv} the columns of each case Spark ran.
 *
 * <p>Usage: {@code SparkColumnSteps GOLDEN_DIR column-steps}
 */
public final class SparkColumnSteps {
    private SparkColumnSteps() {
    }

    public static void main(String[] args) throws Exception {
        GoldenCases.recordEach(args, "tributary-golden-column-steps", SparkColumnSteps::run);
    }

    static List<String> items(String field) {
        return field.equals("-") ? List.of() : List.of(field.split(";;"));
    }

    /** The pairs of {@code field}, {@code name=value;;...}, in the order written. */
    static Map<String, String> pairs(String field) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String item : items(field)) {
            int eq = item.indexOf('=');
            out.put(item.substring(0, eq), item.substring(eq + 1));
        }
        return out;
    }

    private static void run(SparkSession spark, Path dir) throws Exception {
        spark.conf().set("spark.sql.ansi.enabled", "true");
        spark.conf().set("spark.sql.datetime.java8API.enabled", "true");
        var json = new com.fasterxml.jackson.databind.ObjectMapper().readTree(dir.resolve("case.json").toFile());
        StructType schema = StructType.fromDDL(json.get("schema").asText());
        Dataset<Row> source = spark.read().schema(schema).json(dir.resolve("rows.jsonl").toString());
        List<String> out = new ArrayList<>();
        List<String> columns = new ArrayList<>();
        int c = 0;
        for (String line : Files.readAllLines(dir.resolve("cases.txt"), StandardCharsets.UTF_8)) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split("\t");
            try {
                Dataset<Row> result = f[0].equals("-") ? source : source.where(f[0]);
                if (!f[1].equals("-")) {
                    result = result.selectExpr(items(f[1]).toArray(String[]::new));
                }
                Map<String, Column> with = new LinkedHashMap<>();
                pairs(f[2]).forEach((name, text) -> with.put(name, functions.expr(text)));
                if (!with.isEmpty()) {
                    result = result.withColumns(with);
                }
                if (!f[3].equals("-")) {
                    result = result.withColumnsRenamed(pairs(f[3]));
                }
                if (!f[4].equals("-")) {
                    result = result.drop(items(f[4]).toArray(String[]::new));
                }
                List<String> rows = new ArrayList<>();
                for (Row r : result.collectAsList()) {
                    List<String> values = new ArrayList<>();
                    for (int i = 0; i < r.length(); i++) {
                        values.add(SparkExpressions.canonical(r.get(i)));
                    }
                    rows.add(c + "\t" + String.join("\t", values));
                }
                out.addAll(rows);
                List<String> names = new ArrayList<>();
                for (StructField field : result.schema().fields()) {
                    names.add(field.name() + " " + field.dataType().sql());
                }
                columns.add(c + "\t" + String.join("\t", names));
            } catch (Exception e) {
                out.add(c + "\t!" + condition(e));
            }
            c++;
        }
        Files.write(dir.resolve("spark.tsv"), out, StandardCharsets.UTF_8);
        Files.write(dir.resolve("columns.tsv"), columns, StandardCharsets.UTF_8);
        System.out.println(dir.getFileName() + ": " + c + " column-step cases, " + out.size() + " rows");
    }

    /** The condition of the first Spark error in {@code e}'s causes ({@code COLUMN_ALREADY_EXISTS}). */
    private static String condition(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SparkThrowable s && s.getCondition() != null) {
                return s.getCondition();
            }
        }
        throw new IllegalStateException("no Spark error condition in " + e, e);
    }
}
