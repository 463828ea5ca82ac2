package io.tributary.compat.spark;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.SparkThrowable;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;

/**
 * Spark's values for the golden expression cases ({@code golden/expressions/}): the input rows of
 * {@code rows.jsonl}, read with the schema of {@code case.json}, and for each line {@code ROW<TAB>EXPR}
 * of {@code cases.txt} ({@code ROW} a row's number, or {@code *} for every row) it evaluates
 * {@code selectExpr(EXPR)} over that one row (ANSI mode, session time zone UTC) and writes
 * {@code ROW<TAB>EXPR<TAB>TYPE<TAB>VALUE} to {@code spark.tsv}: Spark's result type as its SQL names
 * it and the value as canonical text ({@link #canonical}), or {@code !} and {@code !CONDITION} when
 * Spark refuses the expression at analysis, or the type and {@code !CONDITION} when the row fails.
 *
 * <p>Usage: {@code SparkExpressions GOLDEN_DIR expressions}; with {@code -Dgolden.appendFrom=N} it evaluates only the cases
 * from line N of {@code cases.txt} on (1-based, the lines just added) and appends their results to {@code spark.tsv}.
 */
public final class SparkExpressions {
    private SparkExpressions() {
    }

    public static void main(String[] args) throws Exception {
        GoldenCases.recordEach(args, "tributary-golden-expressions", SparkExpressions::run);
    }

    private static void run(SparkSession spark, Path dir) throws Exception {
        spark.conf().set("spark.sql.ansi.enabled", "true");
        spark.conf().set("spark.sql.datetime.java8API.enabled", "true");
        String ddl = new com.fasterxml.jackson.databind.ObjectMapper().readTree(dir.resolve("case.json").toFile()).get("schema").asText();
        StructType schema = StructType.fromDDL(ddl);
        List<Row> rows = spark.read().schema(schema).json(dir.resolve("rows.jsonl").toString()).collectAsList();
        List<String> out = new ArrayList<>();
        int n = 0;
        int from = Integer.getInteger("golden.appendFrom", 1);
        List<String> lines = Files.readAllLines(dir.resolve("cases.txt"), StandardCharsets.UTF_8);
        for (String line : lines.subList(Math.min(from - 1, lines.size()), lines.size())) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int tab = line.indexOf('\t');
            String which = line.substring(0, tab);
            String expr = line.substring(tab + 1);
            for (int r = 0; r < rows.size(); r++) {
                if (which.equals("*") || which.equals(Integer.toString(r))) {
                    out.add(r + "\t" + escape(expr) + "\t" + evaluate(spark, schema, rows.get(r), expr));
                    n++;
                }
            }
        }
        if (from > 1) {
            Files.write(dir.resolve("spark.tsv"), out, StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.APPEND);
        } else {
            Files.write(dir.resolve("spark.tsv"), out, StandardCharsets.UTF_8);
        }
        System.out.println(dir.getFileName() + ": " + n + " cases over " + rows.size() + " rows");
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
            return type + "\t" + canonical(df.collectAsList().get(0).get(0));
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

    /** A value as text, the same way the expressions module's golden test writes its own. */
    static String canonical(Object v) {
        if (v == null) {
            return "\\N";
        }
        if (v instanceof String s) {
            return escape(s);
        }
        if (v instanceof BigDecimal d) {
            return d.toPlainString();
        }
        if (v instanceof LocalDate || v instanceof java.time.LocalTime || v instanceof Instant || v instanceof java.time.LocalDateTime || v instanceof Number
                || v instanceof Boolean || v instanceof java.time.Duration || v instanceof java.time.Period) {
            return v.toString();
        }
        if (v instanceof org.apache.spark.unsafe.types.VariantVal variant) {
            return escape(variant.toString()); // a VARIANT as its JSON text (time zone UTC)
        }
        if (v instanceof org.apache.spark.unsafe.types.CalendarInterval interval) {
            return interval.toString(); // a legacy CALENDAR INTERVAL as Spark's text: 1 years 2 months 3 days 4.5 seconds
        }
        if (v instanceof byte[] b) {
            StringBuilder sb = new StringBuilder("0x");
            for (byte x : b) {
                sb.append(String.format("%02X", x));
            }
            return sb.toString();
        }
        if (v instanceof scala.collection.Map<?, ?> m) {
            List<String> parts = new ArrayList<>();
            for (Map.Entry<?, ?> e : scala.jdk.javaapi.CollectionConverters.asJava(m).entrySet()) {
                parts.add(canonical(e.getKey()) + " -> " + canonical(e.getValue()));
            }
            return "{" + String.join(", ", parts) + "}";
        }
        if (v instanceof scala.collection.Seq<?> s) {
            List<String> parts = new ArrayList<>();
            for (Object o : scala.jdk.javaapi.CollectionConverters.asJava(s)) {
                parts.add(canonical(o));
            }
            return "[" + String.join(", ", parts) + "]";
        }
        if (v instanceof Row r) {
            List<String> parts = new ArrayList<>();
            for (int i = 0; i < r.length(); i++) {
                parts.add(canonical(r.get(i)));
            }
            return "{" + String.join(", ", parts) + "}";
        }
        return v.getClass().getName() + ":" + v;
    }

    /** Backslash, tab, newline and return escaped; a leading {@code !} (what marks an error) too. */
    static String escape(String s) {
        String e = s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r");
        return e.startsWith("!") ? "\\" + e : e;
    }
}
