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
import org.apache.spark.sql.types.StructType;

/**
 * Spark's values for the XML validation cases ({@code golden/expressions/xsd/}): as {@link SparkExpressions} does for
 * {@code golden/expressions/cases.txt}, over the same rows, for the lines {@code ROW<TAB>EXPR} of {@code xsd/cases.txt}, each
 * expression's {@code $XSD_DIR} replaced by the folder's absolute path (the XSD files beside it) before Spark evaluates it and
 * kept as written in {@code xsd/spark.tsv}, so that a test anywhere substitutes its own path; {@code $XSD_REL} is the folder's path
 * relative to the working directory, which Spark reads a relative path against.
 *
 * <p>Usage: {@code SparkXmlValidation GOLDEN_DIR expressions}.
 */
public final class SparkXmlValidation {
    private SparkXmlValidation() {
    }

    public static void main(String[] args) throws Exception {
        GoldenCases.recordEach(args, "tributary-golden-xml-validation", SparkXmlValidation::run);
    }

    private static void run(SparkSession spark, Path dir) throws Exception {
        spark.conf().set("spark.sql.ansi.enabled", "true");
        spark.conf().set("spark.sql.datetime.java8API.enabled", "true");
        String ddl = new com.fasterxml.jackson.databind.ObjectMapper().readTree(dir.resolve("case.json").toFile()).get("schema").asText();
        StructType schema = StructType.fromDDL(ddl);
        List<Row> rows = spark.read().schema(schema).json(dir.resolve("rows.jsonl").toString()).collectAsList();
        Path xsd = dir.resolve("xsd").toAbsolutePath().normalize();
        Path relative = Path.of("").toAbsolutePath().relativize(xsd);
        List<String> out = new ArrayList<>();
        for (String line : Files.readAllLines(xsd.resolve("cases.txt"), StandardCharsets.UTF_8)) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int tab = line.indexOf('\t');
            String which = line.substring(0, tab);
            String expr = line.substring(tab + 1);
            for (int r = 0; r < rows.size(); r++) {
                if (which.equals("*") || which.equals(Integer.toString(r))) {
                    String value = evaluate(spark, schema, rows.get(r), expr.replace("$XSD_DIR", xsd.toString()).replace("$XSD_REL", relative.toString()));
                    out.add(r + "\t" + SparkExpressions.escape(expr) + "\t" + value);
                }
            }
        }
        Files.write(xsd.resolve("spark.tsv"), out, StandardCharsets.UTF_8);
        System.out.println(xsd + ": " + out.size() + " cases over " + rows.size() + " rows");
    }

    private static String evaluate(SparkSession spark, StructType schema, Row row, String expr) {
        Dataset<Row> df;
        String type;
        try {
            df = spark.createDataFrame(List.of(row), schema).selectExpr(expr);
            type = df.schema().fields()[0].dataType().sql();
        } catch (Exception e) {
            return "!\t!" + condition(e);
        }
        try {
            return type + "\t" + SparkExpressions.canonical(df.collectAsList().get(0).get(0));
        } catch (Exception e) {
            return type + "\t!" + condition(e);
        }
    }

    private static String condition(Throwable e) {
        String found = null;
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SparkThrowable st && st.getCondition() != null) {
                found = st.getCondition();
            }
        }
        return found != null ? found : e.getClass().getSimpleName();
    }
}
