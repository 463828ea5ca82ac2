package io.tributary.compat.spark;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.SparkThrowable;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * What Spark's parser does with a keyword written alone as a column ({@code golden/keywords/}): over a view
 * {@code source} whose columns are {@code id INT} and one INT column named by each word of {@code keywords.txt} (two
 * rows: id 1 with every keyword column 10, id 2 with 20), each form of {@code forms.txt} ({@code FORM<TAB>TEXT}, the
 * word in the text as {@code {k}}) is run for each word as Spark runs it: {@code sql} as {@code spark.sql(TEXT)},
 * {@code select} as {@code selectExpr(TEXT)}, {@code where} as {@code where(TEXT)}, at Spark's defaults (ANSI mode,
 * {@code spark.sql.ansi.enforceReservedKeywords} false). {@code spark.tsv} gets {@code FORM<TAB>TEXT<TAB>RESULT}: the
 * result's column names and rows ({@code id,end<TAB>1,10;2,20}), or {@code !CONDITION<TAB>MESSAGE} (the first line of
 * Spark's message) when Spark refuses it.
 *
 * <p>Usage: {@code SparkKeywords GOLDEN_DIR keywords}
 */
public final class SparkKeywords {
    private SparkKeywords() {
    }

    public static void main(String[] args) throws Exception {
        GoldenCases.recordEach(args, "tributary-golden-keywords", SparkKeywords::run);
    }

    private static void run(SparkSession spark, Path dir) throws Exception {
        List<String> words = Files.readAllLines(dir.resolve("keywords.txt"), StandardCharsets.UTF_8).stream()
                .map(String::trim).filter(w -> !w.isEmpty() && !w.startsWith("#")).toList();
        List<StructField> fields = new ArrayList<>(List.of(DataTypes.createStructField("id", DataTypes.IntegerType, true)));
        List<Object> low = new ArrayList<>(List.of(1));
        List<Object> high = new ArrayList<>(List.of(2));
        for (String w : words) {
            fields.add(DataTypes.createStructField(w, DataTypes.IntegerType, true));
            low.add(10);
            high.add(20);
        }
        StructType schema = DataTypes.createStructType(fields);
        Dataset<Row> source = spark.createDataFrame(List.of(RowFactory.create(low.toArray()), RowFactory.create(high.toArray())), schema);
        source.createOrReplaceTempView("source");
        List<String> out = new ArrayList<>();
        for (String line : Files.readAllLines(dir.resolve("forms.txt"), StandardCharsets.UTF_8)) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String form = line.substring(0, line.indexOf('\t'));
            String template = line.substring(line.indexOf('\t') + 1);
            for (String w : words) {
                String text = template.replace("{k}", w);
                out.add(form + "\t" + text + "\t" + run(spark, source, form, text));
            }
        }
        Files.write(dir.resolve("spark.tsv"), out, StandardCharsets.UTF_8);
        System.out.println(dir.getFileName() + ": " + out.size() + " cases, " + words.size() + " words");
    }

    private static String run(SparkSession spark, Dataset<Row> source, String form, String text) {
        try {
            Dataset<Row> df = switch (form) {
                case "sql" -> spark.sql(text);
                case "select" -> source.selectExpr(text);
                case "where" -> source.where(text).select("id");
                default -> throw new IllegalArgumentException("form " + form);
            };
            List<String> rows = new ArrayList<>();
            for (Row r : df.collectAsList()) {
                List<String> values = new ArrayList<>();
                for (int i = 0; i < r.length(); i++) {
                    values.add(String.valueOf(r.get(i)));
                }
                rows.add(String.join(",", values));
            }
            return String.join(",", df.schema().fieldNames()) + "\t" + String.join(";", rows);
        } catch (Exception e) {
            String condition = e.getClass().getSimpleName();
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof SparkThrowable st && st.getCondition() != null) {
                    condition = st.getCondition();
                    break;
                }
            }
            String message = String.valueOf(e.getMessage()).lines().findFirst().orElse("").replace("\t", " ");
            return "!" + condition + "\t" + message;
        }
    }
}
