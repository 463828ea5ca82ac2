package io.tributary.compat.spark;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.sum;
import static org.apache.spark.sql.functions.window;

import io.delta.tables.DeltaTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

import org.apache.spark.api.java.function.VoidFunction2;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.DataStreamReader;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryException;
import org.apache.spark.sql.streaming.StreamingQueryProgress;
import org.apache.spark.sql.streaming.Trigger;
import org.apache.spark.sql.types.StructType;

/**
 * The workloads of {@code tributary bench}, as a Spark user writes them: Structured
 * Streaming over JSON-lines files into Delta, {@code Trigger.AvailableNow}, {@code local[2]}.
 *
 * <pre>SparkBench SCENARIO INPUT_DIR WORK_DIR [MAX_FILES_PER_TRIGGER]</pre>
 *
 * <ul>
 *   <li>{@code raw}: files to a Delta table (append);</li>
 *   <li>{@code upsert}: foreachBatch: {@code dropDuplicates("id")} then a Delta MERGE on {@code id}
 *       into {@code WORK/tgt} (created empty first if absent, inside the timed part);</li>
 *   <li>{@code upsert10}: {@code upsert} with {@code maxFilesPerTrigger} 10;</li>
 *   <li>{@code windowed}: 5-minute watermark, 10-minute tumbling windows per user, {@code sum(amt)},
 *       append mode, into a Delta table;</li>
 *   <li>{@code transform}: {@code raw} with {@link #WHERE} and {@link #SELECT} ({@code where}, {@code selectExpr}), as
 *       {@code tributary bench raw} with {@code transform.where} and {@code transform.select};</li>
 *   <li>{@code select}: the same job as {@code transform} (a filter and five computed columns of seven), under the name
 *       docs/performance.md gives it;</li>
 *   <li>{@code dedup}: {@code withWatermark("ts", "1 hour").dropDuplicatesWithinWatermark("id")} into a Delta table
 *       (append), as {@code tributary bench raw --repeated-ids 0.3} with {@code transform.dropDuplicates};</li>
 *   <li>{@code join}: a left join on {@code id} with the Delta table {@code -Dbench.dims=PATH} (100,000 rows, made by
 *       {@code dims}; Spark reads it as the static side of a stream-static join) into a Delta table;</li>
 *   <li>{@code dims}: not timed, writes the join's table ({@code id INT, segment STRING}, ids 0 to 99,999) to WORK_DIR;</li>
 *   <li>{@code empty}: {@code raw} over an empty folder (INPUT_DIR must be empty).</li>
 * </ul>
 *
 * {@code maxFilesPerTrigger} for any scenario: a 4th argument or {@code -Dbench.maxFilesPerTrigger=N}.
 * Prints one line last: {@code SPARKBENCH scenario=... rows_in_table=N wall_in_job_ms=...}, where
 * {@code wall_in_job_ms} runs from just before the SparkSession is built to the query's end and the
 * rows are counted afterwards (untimed, {@code readback_ms}) by reading the output table back;
 * {@code -Dbench.verify=true} also counts rows with a null {@code ts} and the table's versions.
 */
public final class SparkBench {
    static final String SCHEMA = "id INT, user STRING, amt DOUBLE, ts TIMESTAMP";
    /** The rows of the join's table. */
    static final long DIMS_ROWS = 100_000;
    /** The transform scenario's filter and select list, as docs/transform.md measures them. */
    static final String WHERE = "id >= 0 AND user IS NOT NULL";
    static final String[] SELECT = {"id", "upper(user) AS user", "amt * 1.1 AS amt2", "round(amt, 1) AS amt", "ts", "to_date(ts) AS day",
        "hash(id, user) AS h"};

    private SparkBench() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 3 || args.length > 4) {
            System.err.println("usage: SparkBench raw|transform|select|dedup|join|dims|upsert|upsert10|windowed|empty INPUT_DIR WORK_DIR [MAX_FILES_PER_TRIGGER]");
            System.exit(2);
        }
        String scenario = args[0];
        Path input = Path.of(args[1]).toAbsolutePath();
        Path work = Path.of(args[2]).toAbsolutePath();
        String maxFiles = args.length == 4 ? args[3] : System.getProperty("bench.maxFilesPerTrigger",
                "upsert10".equals(scenario) ? "10" : null);
        if (!java.util.Set.of("raw", "transform", "select", "dedup", "join", "dims", "upsert", "upsert10", "windowed", "empty").contains(scenario)) {
            System.err.println("SparkBench: unknown scenario '" + scenario + "'; the ones there are: raw, transform, select, dedup, join, dims,"
                    + " upsert, upsert10, windowed, empty");
            System.exit(2);
        }
        if (!Files.isDirectory(input)) {
            System.err.println("SparkBench: no input folder " + input);
            System.exit(2);
        }
        if ("empty".equals(scenario)) {
            try (var files = Files.list(input)) {
                if (files.findAny().isPresent()) {
                    System.err.println("SparkBench: empty: the input folder " + input + " is not empty");
                    System.exit(2);
                }
            }
        }
        Files.createDirectories(work);
        String ck = work.resolve("ck").toString();
        String out = work.resolve("out").toString();
        String tgt = work.resolve("tgt").toString();

        long t0 = System.nanoTime();
        SparkSession spark = SparkSession.builder()
                .appName("tributary-sparkbench-" + scenario)
                .master("local[2]")
                .config("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension")
                .config("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog")
                .config("spark.sql.session.timeZone", "UTC")
                .config("spark.ui.enabled", "false")
                // spark.sql.shuffle.partitions: Spark's default (200)
                .getOrCreate();
        long tSession = System.nanoTime();

        DataStreamReader reader = spark.readStream().schema(SCHEMA);
        if (maxFiles != null) {
            reader = reader.option("maxFilesPerTrigger", maxFiles);
        }
        Dataset<Row> source = reader.json(input.toString());
        StreamingQuery query;
        String table;
        switch (scenario) {
            case "raw", "empty" -> {
                query = source.writeStream().format("delta")
                        .option("checkpointLocation", ck)
                        .trigger(Trigger.AvailableNow())
                        .start(out);
                table = out;
            }
            case "transform", "select" -> {
                query = source.where(WHERE).selectExpr(SELECT).writeStream().format("delta")
                        .option("checkpointLocation", ck)
                        .trigger(Trigger.AvailableNow())
                        .start(out);
                table = out;
            }
            case "dedup" -> {
                query = source.withWatermark("ts", "1 hour").dropDuplicatesWithinWatermark("id").writeStream().format("delta")
                        .option("checkpointLocation", ck)
                        .trigger(Trigger.AvailableNow())
                        .start(out);
                table = out;
            }
            case "join" -> {
                String dims = System.getProperty("bench.dims");
                if (dims == null || !DeltaTable.isDeltaTable(spark, dims)) {
                    System.err.println("SparkBench: join: -Dbench.dims=PATH names no Delta table (SparkBench dims INPUT PATH writes it)");
                    spark.stop();
                    System.exit(2);
                }
                Dataset<Row> table2 = spark.read().format("delta").load(dims);
                query = source.join(table2, scala.jdk.javaapi.CollectionConverters.asScala(java.util.List.of("id")).toSeq(), "left")
                        .writeStream().format("delta")
                        .option("checkpointLocation", ck)
                        .trigger(Trigger.AvailableNow())
                        .start(out);
                table = out;
            }
            case "dims" -> {
                spark.range(DIMS_ROWS).selectExpr("CAST(id AS INT) AS id", "concat('seg-', CAST(id % 10 AS STRING)) AS segment")
                        .write().format("delta").mode("overwrite").save(work.toString());
                System.out.println("SPARKBENCH scenario=dims rows_in_table=" + spark.read().format("delta").load(work.toString()).count()
                        + " table=" + work);
                spark.stop();
                System.exit(0);
                return;
            }
            case "upsert", "upsert10" -> {
                StructType schema = StructType.fromDDL(SCHEMA);
                // as a user's job would: the target exists before the first MERGE
                DeltaTable.createIfNotExists(spark).location(tgt).addColumns(schema).execute();
                VoidFunction2<Dataset<Row>, Long> merge = (batch, batchId) -> {
                    Dataset<Row> d = batch.dropDuplicates("id");
                    DeltaTable.forPath(batch.sparkSession(), tgt).as("t")
                            .merge(d.as("s"), "t.id = s.id")
                            .whenMatched().updateAll()
                            .whenNotMatched().insertAll()
                            .execute();
                };
                query = source.writeStream()
                        .foreachBatch(merge)
                        .option("checkpointLocation", ck)
                        .trigger(Trigger.AvailableNow())
                        .start();
                table = tgt;
            }
            case "windowed" -> {
                Dataset<Row> agg = source.withWatermark("ts", "5 minutes")
                        .groupBy(window(col("ts"), "10 minutes"), col("user"))
                        .agg(sum("amt").as("t"));
                query = agg.writeStream().format("delta")
                        .outputMode("append")
                        .option("checkpointLocation", ck)
                        .trigger(Trigger.AvailableNow())
                        .start(out);
                table = out;
            }
            default -> throw new IllegalStateException(scenario);
        }
        try {
            query.awaitTermination();
        } catch (StreamingQueryException e) {
            System.err.println("SparkBench: the query failed: " + e.getMessage());
            spark.stop();
            System.exit(1);
        }
        long tEnd = System.nanoTime();

        // untimed from here: what the query did, then the table read back
        long batches = 0;
        long dataBatches = 0;
        long inputRows = 0;
        for (StreamingQueryProgress p : query.recentProgress()) {
            batches++;
            if (p.numInputRows() > 0) {
                dataBatches++;
            }
            inputRows += p.numInputRows();
        }
        StringBuilder line = new StringBuilder("SPARKBENCH scenario=").append(scenario);
        long tRead = System.nanoTime();
        if (DeltaTable.isDeltaTable(spark, table)) {
            long rows = spark.read().format("delta").load(table).count();
            line.append(" rows_in_table=").append(rows);
            if ("windowed".equals(scenario)) {
                line.append(" output_rows=").append(rows);
            }
            if (Boolean.getBoolean("bench.verify")) { // a full scan and the history: slower, off by default
                if (!"windowed".equals(scenario)) {
                    line.append(" null_ts=").append(spark.read().format("delta").load(table).where(col("ts").isNull()).count());
                }
                line.append(" delta_versions=").append(DeltaTable.forPath(spark, table).history().count());
            }
        } else {
            line.append(" rows_in_table=0 table=absent"); // no batch ran, so the sink never created the table
        }
        long readMs = (System.nanoTime() - tRead) / 1_000_000;
        line.append(String.format(Locale.ROOT, " wall_in_job_ms=%d session_ms=%d query_ms=%d readback_ms=%d",
                (tEnd - t0) / 1_000_000, (tSession - t0) / 1_000_000, (tEnd - tSession) / 1_000_000, readMs));
        line.append(" progress_entries=").append(batches).append(" data_batches=").append(dataBatches)
                .append(" input_rows=").append(inputRows);
        line.append(" maxFilesPerTrigger=").append(maxFiles == null ? "none" : maxFiles);
        spark.stop();
        System.out.println(line);
        System.out.flush();
        System.exit(0);
    }
}
