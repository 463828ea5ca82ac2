package io.tributary.compat.spark;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.delta.tables.DeltaTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.spark.api.java.function.VoidFunction2;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryException;
import org.apache.spark.sql.streaming.Trigger;
import org.apache.spark.sql.types.StructType;

/**
 * Spark's windowed aggregation with {@code HAVING}, written as a query, for the golden cases of {@code golden/having/<case>/}.
 * {@code case.json} names the output mode, the input (a case of {@code golden/windows}, its files {@code run1.json} ...),
 * the number of runs and the query. Before each run its file is copied into the input folder, then
 * <pre>
 * spark.readStream.schema(SCHEMA).json(in).withWatermark("ts", "5 minutes").createOrReplaceTempView("source")
 * spark.sql(QUERY).writeStream.outputMode(MODE).foreachBatch(...)   // append: appended; update: MERGE on window and user;
 *                                                                  // complete: overwritten
 * </pre>
 * runs once with {@code Trigger.AvailableNow()} and its checkpoint. {@code after-runN.txt} gets the run's batches
 * ({@code batchId:numInputRows@watermark}), each batch's output rows ({@code out batchId|window|user|t}) and the table
 * after the run ({@code window|user|t}). {@code "input"} with a slash is a folder of {@code golden/} whose files
 * {@code "runs"} lists run by run ({@code [["r1a.json", "r1b.json"], ["r2.json"]]}); a query that fails ends the case
 * with a line {@code failed CLASS: MESSAGE} (its first lines). {@code "schema"} gives the table's columns when they are not
 * {@code window, user, t} (the window first); {@code "sourceSchema"} the input's columns when they are not {@link #SCHEMA}.
 *
 * <p>Usage: {@code SparkHaving GOLDEN_HAVING_DIR [CASE...]}
 */
public final class SparkHaving {
    static final String SCHEMA = "id INT, user STRING, amt DOUBLE, ts TIMESTAMP";
    private static final ObjectMapper JSON = new ObjectMapper();

    private SparkHaving() {
    }

    public static void main(String[] args) throws Exception {
        GoldenCases.recordEachWithDelta(args, "tributary-golden-having", SparkHaving::run);
    }

    private static void run(SparkSession spark, Path dir) throws Exception {
        JsonNode spec = JSON.readTree(dir.resolve("case.json").toFile());
        String mode = spec.get("outputMode").asText();
        String input = spec.get("input").asText();
        Path inputs = dir.getParent().resolveSibling(input.contains("/") ? "" : "windows").resolve(input);
        List<List<String>> runs = runs(spec);
        Path work = Files.createTempDirectory("golden-having-");
        Path in = Files.createDirectories(work.resolve("in"));
        String out = work.resolve("out").toString();
        String ck = work.resolve("ck").toString();
        String columns = spec.has("schema") ? spec.get("schema").asText() : "window STRUCT<start: TIMESTAMP, end: TIMESTAMP>, user STRING, t DOUBLE";
        DeltaTable.createIfNotExists(spark).location(out).addColumns(StructType.fromDDL(columns)).execute();
        long mtime = 1_000_000_000_000L;
        for (int run = 1; run <= runs.size(); run++) {
            for (String file : runs.get(run - 1)) {
                Files.copy(inputs.resolve(file), in.resolve(file), StandardCopyOption.REPLACE_EXISTING).toFile()
                        .setLastModified(mtime += 1000);
            }
            List<String> written = Collections.synchronizedList(new ArrayList<>());
            VoidFunction2<Dataset<Row>, Long> sink = (batch, batchId) -> {
                for (Row r : batch.collectAsList()) {
                    written.add(batchId + "|" + row(r));
                }
                if (mode.equals("update")) {
                    DeltaTable.forPath(batch.sparkSession(), out).as("t")
                            .merge(batch.as("s"), "t.window = s.window AND t.user <=> s.user")
                            .whenMatched().updateAll().whenNotMatched().insertAll().execute();
                } else if (mode.equals("complete")) { // every group, each batch: the table is the last batch's rows
                    batch.write().format("delta").mode("overwrite").save(out);
                } else {
                    batch.write().format("delta").mode("append").save(out);
                }
            };
            spark.readStream().schema(StructType.fromDDL(spec.has("sourceSchema") ? spec.get("sourceSchema").asText() : SCHEMA)).json(in.toString())
                    .withWatermark("ts", "5 minutes").createOrReplaceTempView("source");
            StreamingQuery q = spark.sql(spec.get("query").asText())
                    .writeStream().outputMode(mode).foreachBatch(sink)
                    .option("checkpointLocation", ck)
                    .trigger(Trigger.AvailableNow())
                    .start();
            Throwable failed = null;
            try {
                q.awaitTermination();
            } catch (StreamingQueryException e) {
                failed = e.getCause() == null ? e : e.getCause();
            }
            List<String> lines = new ArrayList<>();
            lines.add("# after run " + run + ": Spark's progress (batch:numInputRows@watermark), each batch's output"
                    + " (batch|window|user|t) and the table (window|user|t)");
            lines.add(GoldenCases.batches(q));
            List<String> byBatch = new ArrayList<>(written);
            Collections.sort(byBatch);
            for (String w : byBatch) {
                lines.add("out " + w);
            }
            List<String> table = new ArrayList<>();
            for (Row r : spark.read().format("delta").load(out).collectAsList()) {
                table.add(row(r));
            }
            Collections.sort(table);
            lines.addAll(table);
            if (failed != null) { // the query stopped: its error as Spark gives it, the first lines only
                List<String> message = List.of(failed.getMessage().split("\n"));
                lines.add("failed " + failed.getClass().getSimpleName() + ": " + String.join("\n", message.subList(0, Math.min(6, message.size()))));
            }
            Files.write(dir.resolve("after-run" + run + ".txt"), lines);
            if (failed != null) {
                System.out.println("SparkHaving " + dir.getFileName() + " failed in run " + run + ": " + String.join("\n  ", lines));
                return;
            }
            System.out.println("SparkHaving " + dir.getFileName() + " run " + run + ": " + String.join("\n  ", lines));
        }
    }

    /** Each run's files: {@code "runs": N} is {@code run1.json} ... {@code runN.json}; a list of lists names them. */
    private static List<List<String>> runs(JsonNode spec) {
        List<List<String>> runs = new ArrayList<>();
        if (spec.get("runs").isInt()) {
            for (int run = 1; run <= spec.get("runs").asInt(); run++) {
                runs.add(List.of("run" + run + ".json"));
            }
        } else {
            for (JsonNode files : spec.get("runs")) {
                List<String> names = new ArrayList<>();
                files.forEach(f -> names.add(f.asText()));
                runs.add(names);
            }
        }
        return runs;
    }

    /** {@code {start, end}|user|t}, as golden/windows prints rows. */
    private static String row(Row r) {
        Row w = r.getStruct(0);
        StringBuilder s = new StringBuilder("{" + ts(w.get(0)) + ", " + ts(w.get(1)) + "}");
        for (int i = 1; i < r.length(); i++) {
            s.append('|').append(r.get(i));
        }
        return s.toString();
    }

    private static String ts(Object t) {
        String s = t.toString(); // java.sql.Timestamp in the JVM's zone (UTC): 2026-01-01 10:00:00.0
        return s.endsWith(".0") ? s.substring(0, s.length() - 2) : s;
    }
}
