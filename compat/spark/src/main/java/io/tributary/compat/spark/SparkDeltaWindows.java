package io.tributary.compat.spark;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.sum;
import static org.apache.spark.sql.functions.window;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.delta.tables.DeltaTable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.spark.api.java.function.VoidFunction2;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.apache.spark.sql.types.StructType;

/**
 * Spark's windows over a Delta source, for the golden cases of {@code golden/delta-windows/<case>/}.
 * {@code case.json} names the runs (each a list of {@code commitN.json} files), the output mode
 * and {@code maxFilesPerTrigger}. Before each run, each of its commit files is appended to the
 * source Delta table as one commit of one Parquet file ({@code coalesce(1)}); then the query
 * <pre>
 * spark.readStream.format("delta").option("startingVersion", "0").option("maxFilesPerTrigger", M).load(src)
 *   .withWatermark("ts", "5 minutes").groupBy(window(col("ts"), "10 minutes"), col("user")).agg(sum("amt").as("t"))
 * </pre>
 * runs once with {@code Trigger.AvailableNow()} and its checkpoint, writing each batch with
 * {@code foreachBatch} into a Delta table (append mode: appended; update mode: a MERGE on window
 * and user). {@code after-runN.txt} gets Spark's batches of that run ({@code batchId:numInputRows}
 * and the watermark each batch ran with), what each batch wrote, and the table after the run.
 *
 * <p>Usage: {@code SparkDeltaWindows GOLDEN_DELTA_WINDOWS_DIR [CASE...]}
 */
public final class SparkDeltaWindows {
    static final String SCHEMA = "id INT, user STRING, amt DOUBLE, ts TIMESTAMP";
    private static final ObjectMapper JSON = new ObjectMapper();

    private SparkDeltaWindows() {
    }

    public static void main(String[] args) throws Exception {
        List<Path> cases = GoldenCases.fromArgs(args);
        SparkSession spark = SparkSession.builder().master("local[2]").appName("tributary-golden-delta-windows")
                .config("spark.ui.enabled", "false").config("spark.sql.session.timeZone", "UTC")
                .config("spark.sql.shuffle.partitions", "2")
                .config("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension")
                .config("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog")
                .getOrCreate();
        try {
            for (Path c : cases) {
                run(spark, c);
            }
        } finally {
            spark.stop();
        }
    }

    private static void run(SparkSession spark, Path dir) throws Exception {
        JsonNode spec = JSON.readTree(dir.resolve("case.json").toFile());
        String mode = spec.get("outputMode").asText();
        String maxFiles = spec.path("maxFilesPerTrigger").asText("1000");
        Path work = Files.createTempDirectory("delta-windows-");
        String src = work.resolve("src").toString();
        String out = work.resolve("out").toString();
        String ck = work.resolve("ck").toString();
        StructType schema = StructType.fromDDL(SCHEMA);
        DeltaTable.createIfNotExists(spark).location(out)
                .addColumns(StructType.fromDDL("window STRUCT<start: TIMESTAMP, end: TIMESTAMP>, user STRING, t DOUBLE")).execute();
        int run = 0;
        for (JsonNode files : spec.get("runs")) {
            run++;
            for (JsonNode f : files) {
                spark.read().schema(schema).json(dir.resolve(f.asText()).toString()).coalesce(1)
                        .write().format("delta").mode("append").save(src);
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
                } else {
                    batch.write().format("delta").mode("append").save(out);
                }
            };
            StreamingQuery q = spark.readStream().format("delta").option("startingVersion", "0")
                    .option("maxFilesPerTrigger", maxFiles).load(src)
                    .withWatermark("ts", "5 minutes")
                    .groupBy(window(col("ts"), "10 minutes"), col("user"))
                    .agg(sum("amt").as("t"))
                    .writeStream().outputMode(mode).foreachBatch(sink)
                    .option("checkpointLocation", ck)
                    .trigger(Trigger.AvailableNow())
                    .start();
            q.awaitTermination();
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
            Files.write(dir.resolve("after-run" + run + ".txt"), lines);
            System.out.println("SparkDeltaWindows " + dir.getFileName() + " run " + run + ": " + String.join("\n  ", lines));
        }
    }

    /** {@code {start, end}|user|t}, as golden/windows prints rows. */
    private static String row(Row r) {
        Row w = r.getStruct(0);
        return "{" + ts(w.get(0)) + ", " + ts(w.get(1)) + "}|" + r.get(1) + "|" + r.get(2);
    }

    private static String ts(Object t) {
        String s = t.toString(); // java.sql.Timestamp in the JVM's zone (UTC): 2026-01-01 10:00:00.0
        return s.endsWith(".0") ? s.substring(0, s.length() - 2) : s;
    }
}
