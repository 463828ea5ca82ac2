package io.tributary.compat.spark;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.SparkThrowable;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Spark's rows for the golden generator cases ({@code golden/generators/}): the rows of {@code rows.jsonl}, read with the
 * schema of {@code case.json}, as the view {@code source}; each line of {@code cases.txt} is either
 * {@code select<TAB>WHERE<TAB>ITEM...}, run as {@code rows.where(WHERE).selectExpr(ITEM...)} (WHERE {@code -} for none), or
 * {@code sql<TAB>QUERY}, run as {@code spark.sql(QUERY)} (ANSI mode, UTC), or {@code stream<TAB>QUERY}, the same over the rows
 * read as a stream and written by a streaming query (trigger availableNow) to a memory sink. {@code spark.tsv} holds each case's rows in Spark's
 * order, {@code CASE<TAB>VALUE...} ({@link SparkExpressions#canonical}), or {@code CASE<TAB>!CONDITION} where Spark refuses the
 * case or fails it at run time (the error's condition); {@code columns.tsv} the columns of each case Spark ran,
 * {@code CASE<TAB>NAME TYPE<TAB>...}.
 *
 * <p>Usage: {@code SparkGenerators GOLDEN_DIR generators}
 */
public final class SparkGenerators {
    private SparkGenerators() {
    }

    public static void main(String[] args) throws Exception {
        GoldenCases.recordEach(args, "tributary-golden-generators", SparkGenerators::run);
    }

    private static void run(SparkSession spark, Path dir) throws Exception {
        spark.conf().set("spark.sql.ansi.enabled", "true");
        spark.conf().set("spark.sql.datetime.java8API.enabled", "true");
        var json = new com.fasterxml.jackson.databind.ObjectMapper().readTree(dir.resolve("case.json").toFile());
        StructType schema = StructType.fromDDL(json.get("schema").asText());
        Dataset<Row> source = spark.read().schema(schema).json(dir.resolve("rows.jsonl").toString());
        source.createOrReplaceTempView("source");
        List<String> out = new ArrayList<>();
        List<String> columns = new ArrayList<>();
        int c = 0;
        for (String line : Files.readAllLines(dir.resolve("cases.txt"), StandardCharsets.UTF_8)) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split("\t");
            try {
                Dataset<Row> result;
                if (f[0].equals("sql")) {
                    result = spark.sql(f[1]);
                } else if (f[0].equals("stream")) {
                    result = stream(spark, dir, schema, source, f[1], c);
                } else {
                    Dataset<Row> rows = f[1].equals("-") ? source : source.where(f[1]);
                    result = rows.selectExpr(Arrays.copyOfRange(f, 2, f.length));
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
        System.out.println(dir.getFileName() + ": " + c + " generator cases, " + out.size() + " rows");
    }

    /**
     * What the streaming query {@code sql} writes, {@code source} read as a stream of the same rows ({@code readStream}), run with
     * trigger availableNow into a memory sink; the batch view {@code batch} is {@code source} again afterwards.
     */
    private static Dataset<Row> stream(SparkSession spark, Path dir, StructType schema, Dataset<Row> batch, String sql, int c)
            throws Exception {
        Path in = Files.createTempDirectory("tributary-generators-stream");
        Files.copy(dir.resolve("rows.jsonl"), in.resolve("rows.jsonl"));
        spark.readStream().schema(schema).json(in.toString()).createOrReplaceTempView("source");
        try {
            StreamingQuery run = spark.sql(sql).writeStream().format("memory").queryName("generators_" + c).outputMode("append")
                    .trigger(Trigger.AvailableNow()).start();
            run.awaitTermination();
            return spark.table("generators_" + c);
        } finally {
            batch.createOrReplaceTempView("source");
        }
    }

    /** The condition of the first Spark error in {@code e}'s causes ({@code UNSUPPORTED_GENERATOR.MULTI_GENERATOR}). */
    private static String condition(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SparkThrowable s && s.getCondition() != null) {
                return s.getCondition();
            }
        }
        if (e instanceof org.apache.spark.sql.AnalysisException) { // a streaming query's refusal at start, which has none
            return e.getClass().getSimpleName();
        }
        throw new IllegalStateException("no Spark error condition in " + e, e);
    }
}
