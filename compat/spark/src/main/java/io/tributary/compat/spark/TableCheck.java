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
import org.apache.spark.sql.functions;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.apache.spark.sql.types.StructType;

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
        rows.forEach(r -> System.out.println("  " + r));
        checkSchema(df.schema());
        checkRows(rows);
        step("DESCRIBE DETAIL", this::printDetail);
        step("DESCRIBE HISTORY", this::checkHistory);
        step("file statistics and checkpoint", () -> new StatsProbe(spark, expect.path, df).run(this::fail));
        step("streaming read", () -> checkStream(rows.size()));
        return failures;
    }

    private static List<String> sortedJsonRows(Dataset<Row> df) {
        Column[] all = java.util.Arrays.stream(df.columns()).map(functions::col).toArray(Column[]::new);
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
                .select("version", "operation", "operationParameters", "engineInfo")
                .orderBy("version").collectAsList();
        System.out.println("history:");
        history.forEach(h -> System.out.println("  v" + h.get(0) + " " + h.get(1) + " " + h.get(2) + " " + h.get(3)));
        long latest = history.isEmpty() ? -1 : history.get(history.size() - 1).getLong(0);
        if (expect.versions != null && latest + 1 != expect.versions) {
            fail("latest version is " + latest + ", expected " + (expect.versions - 1)
                    + " (" + expect.versions + " versions)");
        }
    }

    private void checkStream(long batchCount) throws Exception {
        String name = "stream_" + Math.abs(expect.path.hashCode());
        Path checkpoint = Files.createTempDirectory("spark-read-stream-");
        StreamingQuery q = spark.readStream().format("delta").load(expect.path)
                .writeStream().format("memory").queryName(name)
                .option("checkpointLocation", checkpoint.toString())
                .trigger(Trigger.AvailableNow()).start();
        q.awaitTermination();
        long streamed = spark.table(name).count();
        System.out.println("streaming availableNow read: " + streamed + " rows in "
                + q.recentProgress().length + " progress record(s)");
        if (streamed != batchCount) {
            fail("streaming read gave " + streamed + " rows, the batch read " + batchCount);
        }
    }

    private String logListing() {
        try (var files = Files.list(Path.of(expect.path, "_delta_log"))) {
            return files.map(p -> p.getFileName().toString()).sorted().toList().toString();
        } catch (IOException e) {
            return "(cannot list _delta_log: " + e + ")";
        }
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
