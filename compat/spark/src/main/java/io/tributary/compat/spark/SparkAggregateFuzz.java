package io.tributary.compat.spark;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.api.java.function.VoidFunction2;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryException;
import org.apache.spark.sql.streaming.Trigger;
import org.apache.spark.sql.types.StructType;

/**
 * Spark's windowed aggregations of the aggregation fuzz ({@code AggregateFuzz}, topology's test classes) and of
 * {@code golden/aggregate-fuzz}: each case folder's {@code case.json} gives the output mode, the watermark's delay, the number
 * of group columns ({@code keys}, after the window), the source's schema and the query; its runs are the files
 * {@code input/run1.json} ... of the case's parent folder, one file a run, copied into the input folder before the run:
 * <pre>
 * spark.readStream.schema(SOURCE).json(in).withWatermark("ts", DELAY).createOrReplaceTempView("source")
 * spark.sql(QUERY).writeStream.outputMode(MODE).foreachBatch(...)   // availableNow, the checkpoint kept between runs
 * </pre>
 * The table is each batch's rows appended (append) or merged on the window and the group columns (update), as a Delta
 * sink's MERGE leaves it; with {@code -Dfuzz.delta=true} it is a Delta table so written and read back.
 * {@code after-runN.txt} as {@link SparkHaving} writes it, with the result's columns first ({@code schema DDL}); a query Spark
 * refuses when it starts gives {@code refused CLASS: MESSAGE} in {@code after-run1.txt}.
 *
 * <p>Usage: {@code SparkAggregateFuzz DIR [CASE...]} (every folder of DIR with a {@code case.json} when none is named).
 */
public final class SparkAggregateFuzz {
    private static final ObjectMapper JSON = new ObjectMapper();

    private SparkAggregateFuzz() {
    }

    /** Runs the cases in {@code -Dfuzz.threads} (2) queries at a time, each in a session of its own (its own view {@code source}). */
    public static void main(String[] args) throws Exception {
        List<Path> cases = GoldenCases.fromArgs(args);
        SparkSession spark = SparkSession.builder().appName("tributary-aggregate-fuzz").master("local[1]")
                .config("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension")
                .config("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog")
                .config("spark.ui.enabled", "false").config("spark.sql.session.timeZone", "UTC")
                .config("spark.sql.shuffle.partitions", "1").config("spark.sql.adaptive.enabled", "false").getOrCreate();
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(Integer.getInteger("fuzz.threads", 2));
        try {
            List<java.util.concurrent.Future<?>> runs = new ArrayList<>();
            for (Path c : cases) {
                runs.add(pool.submit(() -> {
                    try {
                        run(spark.newSession(), c);
                    } catch (Exception e) {
                        System.out.println("SparkAggregateFuzz " + c.getFileName() + " not recorded: " + e);
                    }
                }));
            }
            for (java.util.concurrent.Future<?> r : runs) {
                r.get();
            }
        } finally {
            pool.shutdown();
            spark.stop();
        }
    }

    private static void run(SparkSession spark, Path dir) throws Exception {
        JsonNode spec = JSON.readTree(dir.resolve("case.json").toFile());
        String mode = spec.get("outputMode").asText();
        int keys = 1 + spec.get("keys").asInt();
        Path inputs = dir.getParent().resolve("input");
        int runs = spec.get("runs").asInt();
        Path work = Files.createTempDirectory("aggregate-fuzz-");
        Path in = Files.createDirectories(work.resolve("in"));
        String ck = work.resolve("ck").toString();
        String out = work.resolve("out").toString();
        boolean delta = Boolean.getBoolean("fuzz.delta");
        Map<String, String> table = new LinkedHashMap<>();
        long mtime = 1_000_000_000_000L;
        for (int run = 1; run <= runs; run++) {
            List<String> lines = new ArrayList<>();
            lines.add("# after run " + run + ": Spark's result columns (run 1), progress (batch:numInputRows@watermark), each batch's"
                    + " output (batch|window|groups|aggregates) and the table");
            Files.copy(inputs.resolve("run" + run + ".json"), in.resolve("run" + run + ".json"), StandardCopyOption.REPLACE_EXISTING)
                    .toFile().setLastModified(mtime += 1000);
            spark.readStream().schema(StructType.fromDDL(spec.get("sourceSchema").asText())).json(in.toString())
                    .withWatermark("ts", spec.get("watermark").asText()).createOrReplaceTempView("source");
            Dataset<Row> result;
            try {
                result = spark.sql(spec.get("query").asText());
            } catch (Exception e) {
                lines.add("refused " + e.getClass().getSimpleName() + ": " + e.getMessage().split("\n")[0]);
                Files.write(dir.resolve("after-run" + run + ".txt"), lines);
                System.out.println("SparkAggregateFuzz " + dir.getFileName() + " refused: " + e.getMessage().split("\n")[0]);
                return;
            }
            if (run == 1) {
                lines.add("schema " + result.schema().toDDL());
                if (delta) {
                    io.delta.tables.DeltaTable.createIfNotExists(spark).location(out).addColumns(result.schema()).execute();
                }
            }
            List<String> written = Collections.synchronizedList(new ArrayList<>());
            VoidFunction2<Dataset<Row>, Long> sink = (batch, batchId) -> {
                for (Row r : batch.collectAsList()) {
                    String row = row(r);
                    written.add(batchId + "|" + row);
                    table.put(mode.equals("append") ? row + "#" + table.size() : key(row, keys), row);
                }
                if (delta) {
                    if (mode.equals("update")) {
                        StringBuilder on = new StringBuilder();
                        for (int i = 0; i < keys; i++) {
                            String c = "`" + batch.schema().fields()[i].name() + "`";
                            on.append(i == 0 ? "" : " AND ").append("t.").append(c).append(" <=> s.").append(c);
                        }
                        io.delta.tables.DeltaTable.forPath(batch.sparkSession(), out).as("t").merge(batch.as("s"), on.toString())
                                .whenMatched().updateAll().whenNotMatched().insertAll().execute();
                    } else {
                        batch.write().format("delta").mode("append").save(out);
                    }
                }
            };
            StreamingQuery q = null;
            Throwable failed = null;
            try {
                q = result.writeStream().outputMode(mode).foreachBatch(sink).option("checkpointLocation", ck)
                        .trigger(Trigger.AvailableNow()).start();
                q.awaitTermination();
            } catch (StreamingQueryException e) {
                failed = e.getCause() == null ? e : e.getCause();
            } catch (Exception e) { // refused when it starts (an unsupported operation)
                lines.add("refused " + e.getClass().getSimpleName() + ": " + e.getMessage().split("\n")[0]);
                Files.write(dir.resolve("after-run" + run + ".txt"), lines);
                System.out.println("SparkAggregateFuzz " + dir.getFileName() + " refused at start: " + e.getMessage().split("\n")[0]);
                return;
            }
            lines.add(GoldenCases.batches(q));
            List<String> byBatch = new ArrayList<>(written);
            Collections.sort(byBatch);
            byBatch.forEach(w -> lines.add("out " + w));
            List<String> rows = new ArrayList<>();
            if (delta) {
                spark.read().format("delta").load(out).collectAsList().forEach(r -> rows.add(row(r)));
            } else {
                rows.addAll(table.values());
            }
            Collections.sort(rows);
            lines.addAll(rows);
            if (failed != null) {
                List<String> message = List.of(String.valueOf(failed.getMessage()).split("\n"));
                lines.add("failed " + failed.getClass().getSimpleName() + ": " + String.join("\n", message.subList(0, Math.min(6, message.size()))));
            }
            Files.write(dir.resolve("after-run" + run + ".txt"), lines);
            System.out.println("SparkAggregateFuzz " + dir.getFileName() + " run " + run + (failed == null ? "" : " failed"));
            if (failed != null) {
                return;
            }
        }
    }

    /** The window and the group columns of a printed row. */
    private static String key(String row, int keys) {
        String[] f = row.split("\\|", -1);
        return String.join("|", java.util.Arrays.asList(f).subList(0, keys));
    }

    /** {@code {start, end}|v|...}: timestamps as {@link SparkHaving} prints them, the rest as Spark's Row gives it. */
    private static String row(Row r) {
        Row w = r.getStruct(0);
        StringBuilder s = new StringBuilder("{" + ts(w.get(0)) + ", " + ts(w.get(1)) + "}");
        for (int i = 1; i < r.length(); i++) {
            Object v = r.get(i);
            s.append('|').append(v instanceof java.sql.Timestamp ? ts(v) : v);
        }
        return s.toString();
    }

    private static String ts(Object t) {
        String s = t.toString(); // java.sql.Timestamp in the JVM's zone (UTC): 2026-01-01 10:00:00.0
        return s.endsWith(".0") ? s.substring(0, s.length() - 2) : s;
    }
}
