package io.tributary.compat.spark;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.max;
import static org.apache.spark.sql.functions.session_window;
import static org.apache.spark.sql.functions.sum;

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
import org.apache.spark.sql.streaming.Trigger;
import org.apache.spark.sql.types.StructType;

/**
 * Spark's session windows over a folder of JSON files, for the golden cases of {@code golden/sessions/<case>/}.
 * {@code case.json} names the output mode, the gap, the watermark delay, {@code maxFilesPerTrigger} (absent:
 * a run's files in one batch) and the runs, each a list of files of {@code golden/sessions/input/}. Before each
 * run its files are copied into the input folder (modification times in order), then
 * <pre>
 * spark.readStream.schema(SCHEMA).option("maxFilesPerTrigger", M).json(in)
 *   .withWatermark("ts", WATERMARK).groupBy(session_window(col("ts"), GAP), col("user"))
 *   .agg(sum("amt").as("t"), count(lit(1)).as("n"), max("amt").as("hi"))
 * </pre>
 * runs once with {@code Trigger.AvailableNow()} and its checkpoint, each batch appended to a Delta table by
 * {@code foreachBatch}. {@code after-runN.txt} gets the run's batches ({@code batchId:numInputRows@watermark}),
 * each batch's output rows ({@code out batchId|session_window|user|t|n|hi}) and the table after the run.
 * A query Spark refuses to start writes its message to {@code refused.txt} instead.
 *
 * <p>Usage: {@code SparkSessionWindows GOLDEN_SESSIONS_DIR [CASE...]}
 */
public final class SparkSessionWindows {
    static final String SCHEMA = "id INT, user STRING, amt DOUBLE, ts TIMESTAMP";
    private static final ObjectMapper JSON = new ObjectMapper();

    private SparkSessionWindows() {
    }

    public static void main(String[] args) throws Exception {
        GoldenCases.recordEachWithDelta(args, "tributary-golden-sessions", SparkSessionWindows::run);
    }

    private static void run(SparkSession spark, Path dir) throws Exception {
        JsonNode spec = JSON.readTree(dir.resolve("case.json").toFile());
        String mode = spec.get("outputMode").asText();
        Path inputs = dir.resolveSibling("input");
        Path work = Files.createTempDirectory("golden-sessions-");
        Path in = Files.createDirectories(work.resolve("in"));
        String out = work.resolve("out").toString();
        String ck = work.resolve("ck").toString();
        DeltaTable.createIfNotExists(spark).location(out).addColumns(StructType.fromDDL(
                "session_window STRUCT<start: TIMESTAMP, end: TIMESTAMP>, user STRING, t DOUBLE, n BIGINT, hi DOUBLE")).execute();
        long mtime = 1_000_000_000_000L;
        int run = 0;
        for (JsonNode files : spec.get("runs")) {
            run++;
            for (JsonNode f : files) {
                Path copy = Files.copy(inputs.resolve(f.asText()), in.resolve(f.asText()), StandardCopyOption.REPLACE_EXISTING);
                copy.toFile().setLastModified(mtime += 1000);
            }
            List<String> written = Collections.synchronizedList(new ArrayList<>());
            VoidFunction2<Dataset<Row>, Long> sink = (batch, batchId) -> {
                for (Row r : batch.collectAsList()) {
                    written.add(batchId + "|" + row(r));
                }
                batch.write().format("delta").mode("append").save(out);
            };
            var reader = spark.readStream().schema(StructType.fromDDL(SCHEMA));
            if (spec.has("maxFilesPerTrigger")) {
                reader = reader.option("maxFilesPerTrigger", spec.get("maxFilesPerTrigger").asText());
            }
            StreamingQuery q;
            try {
                q = reader.json(in.toString())
                        .withWatermark("ts", spec.get("watermark").asText())
                        .groupBy(session_window(col("ts"), spec.get("gap").asText()), col("user"))
                        .agg(sum("amt").as("t"), count(lit(1)).as("n"), max("amt").as("hi"))
                        .writeStream().outputMode(mode).foreachBatch(sink)
                        .option("checkpointLocation", ck)
                        .trigger(Trigger.AvailableNow())
                        .start();
            } catch (Exception e) {
                String message = String.valueOf(e.getMessage()).lines().findFirst().orElse("");
                Files.writeString(dir.resolve("refused.txt"), e.getClass().getSimpleName() + ": " + message + "\n");
                System.out.println("SparkSessionWindows " + dir.getFileName() + ": refused: " + message);
                return;
            }
            q.awaitTermination();
            List<String> lines = new ArrayList<>();
            lines.add("# after run " + run + ": Spark's progress (batch:numInputRows@watermark), each batch's output"
                    + " (batch|session_window|user|t|n|hi) and the table (session_window|user|t|n|hi)");
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
            System.out.println("SparkSessionWindows " + dir.getFileName() + " run " + run + ": " + String.join("\n  ", lines));
        }
    }

    /** {@code {start, end}|user|t|n|hi}, as golden/windows prints rows. */
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
