package io.tributary.compat.spark;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.apache.spark.sql.types.StructType;

/**
 * Spark's streaming deduplication, for the golden cases of {@code golden/dedup/<case>/}. {@code case.json}
 * names the operator ({@code withinWatermark}: {@code dropDuplicatesWithinWatermark(keys)}; {@code dropDuplicates}:
 * {@code dropDuplicates(keys)}), its {@code keys}, the {@code watermark} delay on {@code ts} (absent: none) and
 * the runs, each a list of JSON-lines files. Before each run its files are copied into the input folder (each
 * modified a second after the one before, so Spark takes them in order); then
 * <pre>
 * spark.readStream.schema(SCHEMA).option("maxFilesPerTrigger", 1).json(in)
 *   .withWatermark("ts", DELAY)                       // when the case has a watermark
 *   .dropDuplicatesWithinWatermark(KEYS)              // or .dropDuplicates(KEYS)
 *   .writeStream.format("delta").outputMode("append").trigger(Trigger.AvailableNow())
 * </pre>
 * runs once with its checkpoint. {@code after-runN.txt} gets the run's batches
 * ({@code batchId:numInputRows@watermark}) and the table after it, one row per line as {@code id|user|amt|ts}, sorted.
 * A case with {@code "window"} aggregates the rows kept, Spark's chained stateful operators:
 * <pre>
 *   .dropDuplicatesWithinWatermark(KEYS)
 *   .groupBy(window(col("ts"), WINDOW)).agg(count("*").as("n"), sum("amt").as("total"))
 *   .writeStream.format("delta").outputMode("append")...
 * </pre>
 * and its table is one row per window written, {@code start|end|n|total}; with {@code "session"} instead,
 * {@code session_window(col("ts"), SESSION)} in place of {@code window}; {@code "groupBy"} adds columns to group by
 * after the window (written after {@code start|end}).
 *
 * <p>Usage: {@code SparkDedup GOLDEN_DEDUP_DIR [CASE...]}
 */
public final class SparkDedup {
    static final String SCHEMA = "id INT, user STRING, amt DOUBLE, ts TIMESTAMP";
    private static final ObjectMapper JSON = new ObjectMapper();

    private SparkDedup() {
    }

    public static void main(String[] args) throws Exception {
        GoldenCases.recordEachWithDelta(args, "tributary-golden-dedup", SparkDedup::run);
    }

    private static void run(SparkSession spark, Path dir) throws Exception {
        JsonNode spec = JSON.readTree(dir.resolve("case.json").toFile());
        String operator = spec.get("operator").asText();
        List<String> keys = new ArrayList<>();
        spec.get("keys").forEach(k -> keys.add(k.asText()));
        String delay = spec.path("watermark").asText(null);
        Path work = Files.createTempDirectory("golden-dedup-");
        Path in = Files.createDirectories(work.resolve("in"));
        String out = work.resolve("out").toString();
        String ck = work.resolve("ck").toString();
        long mtime = 1_700_000_000_000L;
        int run = 0;
        for (JsonNode files : spec.get("runs")) {
            run++;
            for (JsonNode f : files) {
                Path copy = Files.copy(dir.resolve(f.asText()), in.resolve(f.asText()), StandardCopyOption.REPLACE_EXISTING);
                copy.toFile().setLastModified(mtime += 1000);
            }
            Dataset<Row> rows = spark.readStream().schema(StructType.fromDDL(SCHEMA)).option("maxFilesPerTrigger", "1")
                    .json(in.toString());
            if (delay != null) {
                rows = rows.withWatermark("ts", delay);
            }
            String[] k = keys.toArray(String[]::new);
            rows = operator.equals("withinWatermark") ? rows.dropDuplicatesWithinWatermark(k) : rows.dropDuplicates(k);
            String window = spec.path("window").asText(null);
            String session = spec.path("session").asText(null);
            if (window != null || session != null) {
                List<org.apache.spark.sql.Column> groups = new ArrayList<>();
                groups.add(window != null ? functions.window(functions.col("ts"), window)
                        : functions.session_window(functions.col("ts"), session));
                spec.path("groupBy").forEach(g -> groups.add(functions.col(g.asText())));
                rows = rows.groupBy(groups.toArray(org.apache.spark.sql.Column[]::new))
                        .agg(functions.count("*").as("n"), functions.sum("amt").as("total"));
            }
            StreamingQuery q = rows.writeStream().format("delta").outputMode("append")
                    .option("checkpointLocation", ck).trigger(Trigger.AvailableNow()).start(out);
            q.awaitTermination();
            List<String> lines = new ArrayList<>();
            lines.add("# after run " + run + ": Spark's batches (batch:numInputRows@watermark) and the table ("
                    + (window != null || session != null ? "start|end|n|total" : "id|user|amt|ts") + ")");
            lines.add(GoldenCases.batches(q));
            List<String> table = new ArrayList<>();
            if (Files.exists(Path.of(out, "_delta_log"))) {
                for (Row r : spark.read().format("delta").load(out).collectAsList()) {
                    if (window != null || session != null) {
                        Row w = r.getStruct(0);
                        StringBuilder line = new StringBuilder(ts(w.get(0)) + "|" + ts(w.get(1)));
                        for (int i = 1; i < r.length(); i++) {
                            line.append('|').append(r.get(i));
                        }
                        table.add(line.toString());
                    } else {
                        table.add(r.get(0) + "|" + r.get(1) + "|" + r.get(2) + "|" + ts(r.get(3)));
                    }
                }
            }
            table.sort(null);
            lines.addAll(table);
            Files.write(dir.resolve("after-run" + run + ".txt"), lines);
            System.out.println("SparkDedup " + dir.getFileName() + " run " + run + ":\n  " + String.join("\n  ", lines));
        }
    }

    /** {@code 2026-01-01 10:00:00}, or null. */
    private static String ts(Object t) {
        if (t == null) {
            return "null";
        }
        String s = t.toString(); // java.sql.Timestamp in the JVM's zone (UTC): 2026-01-01 10:00:00.0
        return s.endsWith(".0") ? s.substring(0, s.length() - 2) : s;
    }
}
