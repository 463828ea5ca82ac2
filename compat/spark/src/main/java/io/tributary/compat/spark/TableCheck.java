package io.tributary.compat.spark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.delta.DeltaLog;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryException;
import org.apache.spark.sql.streaming.Trigger;
import org.apache.spark.sql.types.StructType;

import scala.Option;

/**
 * Reads one Delta table with Spark (batch, history, detail, per-value filters that exercise the
 * file statistics, and a streaming availableNow read) and returns what did not match.
 */
final class TableCheck {
    private final SparkSession spark;
    private final TableExpectation expect;
    private final List<String> failures = new ArrayList<>();

    TableCheck(SparkSession spark, TableExpectation expect) {
        this.spark = spark;
        this.expect = expect;
    }

    List<String> run() {
        System.out.println();
        System.out.println("==== " + expect.path);
        Dataset<Row> df;
        List<String> rows;
        long start = System.nanoTime();
        try {
            df = spark.read().format("delta").load(expect.path);
            System.out.println("schema: " + df.schema().toDDL());
            df.printSchema();
            rows = sortedJsonRows(df);
        } catch (Exception e) {
            fail("batch read failed: " + describe(e));
            return failures;
        }
        System.out.println("  (batch read: " + (System.nanoTime() - start) / 1_000_000 + " ms)");
        System.out.println("count: " + rows.size());
        for (int i = 0; i < rows.size(); i++) {
            if (rows.size() > 30 && i == 5) {
                System.out.println("  ... " + (rows.size() - 10) + " more ...");
                i = rows.size() - 5;
            }
            System.out.println("  " + rows.get(i));
        }
        checkSchema(df.schema());
        checkRows(rows);
        step("DESCRIBE DETAIL", this::printDetail);
        step("DESCRIBE HISTORY", this::checkHistory);
        step("log actions per version", this::printLogActions);
        if (!expect.countsAsOf.isEmpty()) {
            step("time travel", this::checkCountsAsOf);
        }
        step("file statistics and checkpoint", () -> new StatsProbe(spark, expect.path, df).run(this::fail));
        if (expect.streamRowsSkippingChanges == null) {
            step("streaming read", () -> checkStream(rows.size()));
        } else {
            step("streaming read over change commits", () -> checkStreamOverChanges(rows.size()));
        }
        if (expect.changeFeedFrom != null) {
            step("change data feed", () -> new ChangeFeedCheck(spark, expect.path, expect.changeFeedFrom).run(this::fail));
        }
        if (expect.timeOpen > 0) {
            step("open time", this::timeOpen);
        }
        return failures;
    }

    private static List<String> sortedJsonRows(Dataset<Row> df) {
        // maps have no order in Spark: sort by the other columns (the rows are compared sorted anyway)
        Column[] all = java.util.Arrays.stream(df.schema().fields())
                .filter(f -> !f.dataType().catalogString().contains("map<"))
                .map(f -> functions.col("`" + f.name().replace("`", "``") + "`")).toArray(Column[]::new);
        return df.orderBy(all).toJSON().collectAsList();
    }

    private void checkSchema(StructType actual) {
        if (expect.schemaDdl == null) {
            return;
        }
        StructType wanted = StructType.fromDDL(expect.schemaDdl);
        String a = actual.catalogString().toLowerCase(Locale.ROOT);
        String w = wanted.catalogString().toLowerCase(Locale.ROOT);
        if (!a.equals(w)) {
            fail("schema is " + a + ", expected " + w);
        }
    }

    private void checkRows(List<String> rows) {
        if (expect.rowCount != null && rows.size() != expect.rowCount) {
            fail("count is " + rows.size() + ", expected " + expect.rowCount);
        }
        if (!expect.rows.isEmpty()) {
            List<String> wanted = new ArrayList<>(expect.rows);
            java.util.Collections.sort(wanted);
            List<String> sortedActual = new ArrayList<>(rows);
            java.util.Collections.sort(sortedActual);
            if (!wanted.equals(sortedActual)) {
                fail("rows are " + sortedActual + ", expected " + wanted);
            }
        }
    }

    private void printDetail() {
        Row d = spark.sql("DESCRIBE DETAIL delta.`" + expect.path + "`")
                .select("format", "numFiles", "minReaderVersion", "minWriterVersion", "tableFeatures", "properties")
                .first();
        System.out.println("detail: format=" + d.get(0) + " numFiles=" + d.get(1) + " minReaderVersion=" + d.get(2)
                + " minWriterVersion=" + d.get(3) + " tableFeatures=" + d.get(4) + " properties=" + d.get(5));
        System.out.println("log: " + logListing());
    }

    private void checkHistory() {
        List<Row> history = spark.sql("DESCRIBE HISTORY delta.`" + expect.path + "`")
                .select("version", "operation", "operationParameters", "operationMetrics", "isBlindAppend", "engineInfo")
                .orderBy("version").collectAsList();
        System.out.println("history (version operation operationParameters operationMetrics isBlindAppend engineInfo):");
        for (int i = 0; i < history.size(); i++) {
            if (history.size() > 20 && i == 3) {
                System.out.println("  ... " + (history.size() - 6) + " more ...");
                i = history.size() - 3;
            }
            Row h = history.get(i);
            System.out.println("  v" + h.get(0) + " " + h.get(1) + " " + h.get(2) + " " + h.get(3) + " " + h.get(4) + " " + h.get(5));
        }
        long latest = history.isEmpty() ? -1 : history.get(history.size() - 1).getLong(0);
        if (expect.versions != null && latest + 1 != expect.versions) {
            fail("latest version is " + latest + ", expected " + (expect.versions - 1)
                    + " (" + expect.versions + " versions)");
        }
        // every version from the oldest still in the log to the latest, each with an operation
        for (int i = 0; i < history.size(); i++) {
            Row h = history.get(i);
            if (i > 0 && h.getLong(0) != history.get(i - 1).getLong(0) + 1) {
                fail("history jumps from v" + history.get(i - 1).getLong(0) + " to v" + h.getLong(0));
            }
            String op = h.isNullAt(1) ? "" : h.getString(1);
            if (op.isBlank()) {
                fail("history v" + h.getLong(0) + " has no operation");
            } else if (expect.operation != null && !op.equals(expect.operation)) {
                fail("history v" + h.getLong(0) + " shows operation " + op + ", expected " + expect.operation);
            }
        }
    }

    /**
     * What each commit file holds as Spark's JSON reader sees it: adds and removes, and how many
     * of them are data changes (an upsert removes and re-adds with {@code dataChange=true}).
     */
    private void printLogActions() throws IOException {
        String[] commits = logFiles().stream().filter(f -> f.matches(".*/[0-9]{20}\\.json")).toArray(String[]::new);
        Dataset<Row> log = spark.read().json(commits);
        List<String> fields = List.of(log.columns());
        Column add = fields.contains("add") ? functions.col("add") : functions.lit(null);
        Column remove = fields.contains("remove") ? functions.col("remove") : functions.lit(null);
        Column addChange = fields.contains("add") ? functions.col("add.dataChange") : functions.lit(false);
        Column removeChange = fields.contains("remove") ? functions.col("remove.dataChange") : functions.lit(false);
        List<Row> perVersion = log.select(functions.col("_metadata.file_name").as("file"), add.as("a"), remove.as("r"),
                        addChange.as("ac"), removeChange.as("rc"))
                .groupBy("file")
                .agg(functions.count("a"), functions.sum(functions.when(functions.col("ac"), 1).otherwise(0)),
                        functions.count("r"), functions.sum(functions.when(functions.col("rc"), 1).otherwise(0)))
                .orderBy("file").collectAsList();
        long changeCommits = perVersion.stream().filter(r -> r.getLong(4) > 0).count();
        System.out.println("log: " + perVersion.size() + " commit file(s), " + changeCommits
                + " with removes of dataChange=true (change commits)");
        if (perVersion.size() <= 20) {
            perVersion.forEach(r -> System.out.println("  " + r.getString(0) + ": add " + r.get(1) + " (dataChange " + r.get(2)
                    + "), remove " + r.get(3) + " (dataChange " + r.get(4) + ")"));
        }
    }

    private void checkCountsAsOf() {
        for (var e : expect.countsAsOf.entrySet()) {
            long n = spark.read().format("delta").option("versionAsOf", e.getKey()).load(expect.path).count();
            System.out.println("versionAsOf " + e.getKey() + ": " + n + " rows");
            if (n != e.getValue()) {
                fail("versionAsOf " + e.getKey() + " has " + n + " rows, expected " + e.getValue());
            }
        }
    }

    private void checkStream(long batchCount) throws Exception {
        long streamed = streamAvailableNow(false, false);
        if (streamed != batchCount) {
            fail("streaming read gave " + streamed + " rows, the batch read " + batchCount);
        }
    }

    /**
     * A table with change commits, read as a stream the way Spark documents it. From the latest
     * snapshot (no startingVersion) the stream gives the batch read's rows. From version 0 it
     * replays the commits one by one, as a stream running while the table was written would have:
     * without options it must stop at the first change commit
     * ({@code DELTA_SOURCE_TABLE_IGNORE_CHANGES}); with {@code skipChangeCommits=true} it must skip
     * those commits whole and give only the other commits' rows.
     */
    private void checkStreamOverChanges(long batchCount) throws Exception {
        checkStream(batchCount);
        System.out.println("a stream from version 0 without options (an ERROR from MicroBatchExecution is expected):");
        try {
            long streamed = streamAvailableNow(true, false);
            fail("a stream from version 0 without skipChangeCommits read " + streamed
                    + " rows; Spark should have refused the change commits");
        } catch (StreamingQueryException e) {
            String message = String.valueOf(e.getMessage());
            System.out.println("stream from version 0 without options failed, as Spark does on change commits: "
                    + message.lines().findFirst().orElse(""));
            if (!message.contains("DELTA_SOURCE_TABLE_IGNORE_CHANGES")) {
                fail("the stream failed, but not with DELTA_SOURCE_TABLE_IGNORE_CHANGES: " + describe(e));
            }
        }
        long streamed = streamAvailableNow(true, true);
        if (streamed != expect.streamRowsSkippingChanges) {
            fail("a stream from version 0 with skipChangeCommits=true gave " + streamed + " rows, expected "
                    + expect.streamRowsSkippingChanges);
        }
    }

    private long streamAvailableNow(boolean fromVersion0, boolean skipChangeCommits) throws Exception {
        String name = "stream_" + Math.abs(expect.path.hashCode()) + (fromVersion0 ? "_v0" : "") + (skipChangeCommits ? "_skip" : "");
        Path checkpoint = Files.createTempDirectory("spark-read-stream-");
        var reader = spark.readStream().format("delta");
        if (fromVersion0) {
            reader = reader.option("startingVersion", "0");
        }
        if (skipChangeCommits) {
            reader = reader.option("skipChangeCommits", "true");
        }
        StreamingQuery q = reader.load(expect.path)
                .writeStream().format("memory").queryName(name)
                .option("checkpointLocation", checkpoint.toString())
                .trigger(Trigger.AvailableNow()).start();
        q.awaitTermination();
        long streamed = spark.table(name).count();
        System.out.println("streaming availableNow read" + (fromVersion0 ? " from version 0" : "")
                + (skipChangeCommits ? " with skipChangeCommits=true" : "") + ": "
                + streamed + " rows in " + q.recentProgress().length + " progress record(s)");
        return streamed;
    }

    /**
     * How long a Spark user waits to open and count the table: a new DataFrame each time
     * ({@code load(path).count()}), two warm-ups, then {@code timeOpen} timed runs, once with
     * Delta's DeltaLog cache as a session keeps it and once with the cache cleared before each
     * open (a new session's cold open: listing, checkpoint and JSON replay). Reports, never asserts.
     */
    private void timeOpen() {
        for (boolean cold : new boolean[] {false, true}) {
            List<Long> ms = new ArrayList<>();
            long count = -1;
            for (int i = 0; i < 2 + expect.timeOpen; i++) {
                if (cold) {
                    DeltaLog.clearCache();
                }
                long start = System.nanoTime();
                count = spark.read().format("delta").load(expect.path).count();
                long took = (System.nanoTime() - start) / 1_000_000;
                if (i >= 2) {
                    ms.add(took);
                }
            }
            List<Long> sorted = new ArrayList<>(ms);
            java.util.Collections.sort(sorted);
            System.out.println("open time" + (cold ? " (DeltaLog cache cleared before each open)" : " (DeltaLog cache kept)")
                    + ": median " + sorted.get(sorted.size() / 2) + " ms of " + ms + " ms, " + count + " rows, version "
                    + DeltaLog.forTable(spark, expect.path).update(false, Option.empty(), Option.empty()).version());
        }
    }

    private String logListing() {
        try {
            List<String> names = logFiles().stream().map(f -> f.substring(f.lastIndexOf('/') + 1)).toList();
            if (names.size() <= 40) {
                return names.toString();
            }
            return names.size() + " files: " + names.subList(0, 6) + " ... " + names.subList(names.size() - 6, names.size());
        } catch (IOException e) {
            return "(cannot list _delta_log: " + e + ")";
        }
    }

    /**
     * The files of the table's {@code _delta_log}, sorted, as URIs: listed through Spark's Hadoop
     * file system, so a table in S3 ({@code s3a://}) is listed as a local one.
     */
    private List<String> logFiles() throws IOException {
        org.apache.hadoop.fs.Path log = new org.apache.hadoop.fs.Path(expect.path, "_delta_log");
        org.apache.hadoop.fs.FileSystem fs = log.getFileSystem(spark.sparkContext().hadoopConfiguration());
        List<String> files = new ArrayList<>();
        for (org.apache.hadoop.fs.FileStatus f : fs.listStatus(log)) {
            if (f.isFile()) {
                files.add(f.getPath().toString());
            }
        }
        java.util.Collections.sort(files);
        return files;
    }

    private interface Step {
        void run() throws Exception;
    }

    private void step(String what, Step step) {
        long start = System.nanoTime();
        try {
            step.run();
        } catch (Exception e) {
            fail(what + " failed: " + describe(e));
        }
        System.out.println("  (" + what + ": " + (System.nanoTime() - start) / 1_000_000 + " ms)");
    }

    private void fail(String problem) {
        String line = expect.path + ": " + problem;
        System.out.println("FAIL " + line);
        failures.add(line);
    }

    static String describe(Throwable e) {
        StringBuilder sb = new StringBuilder(e.toString());
        for (Throwable c = e.getCause(); c != null && c != c.getCause(); c = c.getCause()) {
            sb.append("\n    caused by: ").append(c);
        }
        return sb.toString();
    }
}
