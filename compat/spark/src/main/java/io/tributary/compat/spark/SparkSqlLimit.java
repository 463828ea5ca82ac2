package io.tributary.compat.spark;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.SparkThrowable;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.DataStreamWriter;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.apache.spark.sql.types.StructType;

/**
 * Spark's streaming {@code LIMIT} in a {@code sql:} query over several runs, for the golden cases of {@code golden/sql-limit/<case>/}.
 * {@code case.json} gives {@code schema} (the stream's DDL), {@code query} (over the view {@code source}; {@code delta.`T`} is the
 * case's {@code table.jsonl} written as a Delta table with {@code tableSchema}), {@code runs} (the files of each run, copied into
 * the input folder before it, their modification times in that order), optionally {@code maxFilesPerTrigger} and {@code watermark}
 * (a delay on {@code ts}, {@code withWatermark}). Each run is
 * <pre>
 * spark.readStream.schema(SCHEMA).json(in).createOrReplaceTempView("source")
 * spark.sql(QUERY).writeStream.format("delta").outputMode("append").option("checkpointLocation", ck)
 *      .trigger(Trigger.AvailableNow()).start(table)
 * </pre>
 * with the same checkpoint and table. {@code after-runN.txt} gets the run's batches ({@code batchId:numInputRows@watermark}) and
 * the table after the run, a row a line ({@code |} between values, sorted); a query Spark refuses or that fails ends the case with
 * {@code failed CONDITION: MESSAGE} (the first line).
 *
 * <p>Usage: {@code SparkSqlLimit GOLDEN_SQL_LIMIT_DIR [CASE...]}
 */
public final class SparkSqlLimit {
    private static final ObjectMapper JSON = new ObjectMapper();

    private SparkSqlLimit() {
    }

    public static void main(String[] args) throws Exception {
        GoldenCases.recordEachWithDelta(args, "tributary-golden-sql-limit", SparkSqlLimit::run);
    }

    private static void run(SparkSession spark, Path dir) throws Exception {
        spark.conf().set("spark.sql.datetime.java8API.enabled", "true");
        JsonNode spec = JSON.readTree(dir.resolve("case.json").toFile());
        Path work = Files.createTempDirectory("golden-sql-limit-");
        Path in = Files.createDirectories(work.resolve("in"));
        String out = work.resolve("out").toString();
        String ck = work.resolve("ck").toString();
        String query = spec.get("query").asText();
        if (Files.exists(dir.resolve("table.jsonl"))) {
            String table = work.resolve("table").toString();
            spark.read().schema(StructType.fromDDL(spec.get("tableSchema").asText())).json(dir.resolve("table.jsonl").toString())
                    .write().format("delta").save(table);
            query = query.replace("delta.`T`", "delta.`" + table + "`");
        }
        long mtime = 1_000_000_000_000L;
        int run = 0;
        for (JsonNode files : spec.get("runs")) {
            run++;
            for (JsonNode f : files) {
                Files.copy(dir.resolve(f.asText()), in.resolve(f.asText()), StandardCopyOption.REPLACE_EXISTING).toFile()
                        .setLastModified(mtime += 1000);
            }
            var reader = spark.readStream().schema(StructType.fromDDL(spec.get("schema").asText()));
            if (spec.has("maxFilesPerTrigger")) {
                reader = reader.option("maxFilesPerTrigger", spec.get("maxFilesPerTrigger").asText());
            }
            var source = reader.json(in.toString());
            if (spec.has("watermark")) {
                source = source.withWatermark("ts", spec.get("watermark").asText());
            }
            source.createOrReplaceTempView("source");
            List<String> lines = new ArrayList<>();
            lines.add("# after run " + run + ": Spark's progress (batch:numInputRows@watermark) and the table, sorted");
            String failed = null;
            StreamingQuery q = null;
            try {
                DataStreamWriter<Row> w = spark.sql(query).writeStream().format("delta").outputMode("append")
                        .option("checkpointLocation", ck).trigger(Trigger.AvailableNow());
                q = w.start(out);
                q.awaitTermination();
            } catch (Exception e) {
                failed = failure(e).replace(work.toString(), "DIR");
            }
            if (q != null) {
                lines.add(GoldenCases.batches(q));
            }
            if (Files.exists(Path.of(out, "_delta_log"))) {
                List<String> table = new ArrayList<>();
                for (Row r : spark.read().format("delta").load(out).collectAsList()) {
                    List<String> v = new ArrayList<>();
                    for (int i = 0; i < r.length(); i++) {
                        v.add(SparkExpressions.canonical(r.get(i)));
                    }
                    table.add(String.join("|", v));
                }
                table.sort(null);
                lines.addAll(table);
            }
            if (failed != null) {
                lines.add("failed " + failed);
            }
            Files.write(dir.resolve("after-run" + run + ".txt"), lines);
            System.out.println("SparkSqlLimit " + dir.getFileName() + " run " + run + ":\n  " + String.join("\n  ", lines));
            if (failed != null) {
                return;
            }
        }
    }

    /** {@code CONDITION: first line}: the outermost error with a condition, else the error's class. */
    private static String failure(Exception e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SparkThrowable st && st.getCondition() != null) {
                return st.getCondition() + ": " + String.valueOf(t.getMessage()).lines().findFirst().orElse("");
            }
        }
        return e.getClass().getSimpleName() + ": " + String.valueOf(e.getMessage()).lines().findFirst().orElse("");
    }
}
