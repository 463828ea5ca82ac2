package io.tributary.compat.spark;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;

/**
 * What {@link SparkDvBench} and {@link SparkHistoryBench} share: the session, the table of delta-sink's
 * {@code DeletionVectorBench} (ROWS rows of even ids, files of 100,000 rows by id), its batches, the process's CPU and
 * the metrics of the table's last commit.
 */
final class SparkBenchTables {
    private SparkBenchTables() {
    }

    /** A local session with Delta ({@code -Dspark.master}, default {@code local[2]}). */
    static SparkSession session(String appName) {
        return SparkSession.builder().appName(appName).master(System.getProperty("spark.master", "local[2]"))
                .config("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension")
                .config("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog")
                .config("spark.sql.session.timeZone", "UTC").config("spark.ui.enabled", "false").getOrCreate();
    }

    /**
     * Appends the bench's {@code rows} rows ({@code id INT, user STRING, amt DOUBLE, ts TIMESTAMP}, then the columns
     * {@code more}, each a select item) to {@code table}, in files of 100,000 rows by id; prints the wall time.
     */
    static void load(SparkSession spark, String table, int rows, String label, String... more) {
        List<String> columns = new ArrayList<>(List.of("CAST(id * 2 AS INT) AS id", "concat('u', id % 1000) AS user",
                "CAST(id AS DOUBLE) * 0.5D AS amt", "timestamp_micros(1700000000000000 + id) AS ts"));
        columns.addAll(List.of(more));
        long t0 = System.nanoTime();
        spark.range(rows).selectExpr(columns.toArray(new String[0])).repartitionByRange(Math.max(1, rows / 100_000), functions.col("id"))
                .sortWithinPartitions("id").write().format("delta").mode("append").save(table);
        System.out.printf("  %s: %,d rows loaded in %.1f s wall%n", label, rows, (System.nanoTime() - t0) / 1e9);
    }

    /** DeletionVectorBench's batch: rows / 100 changes, the last per key kept ({@code id, user, amt, ts micros, op}). */
    static List<Object[]> batch(Random rnd, int rows) {
        Map<Integer, Object[]> changes = new LinkedHashMap<>();
        for (int k = 0; k < rows / 100; k++) {
            int kind = k % 10;
            int id = rnd.nextInt(rows) * 2 + (kind >= 6 ? 1 : 0);
            changes.remove(id);
            changes.put(id, new Object[] {id, "upd", -1.0, 0L, kind == 5 ? "d" : "u"});
        }
        return new ArrayList<>(changes.values());
    }

    /** The {@code operationMetrics} of the last commit of {@code table} ({@code delta.`path`}). */
    static Map<String, String> lastMetrics(SparkSession spark, String table) {
        Row last = spark.sql("DESCRIBE HISTORY " + table + " LIMIT 1").first();
        return last.getJavaMap(last.fieldIndex("operationMetrics"));
    }

    static long cpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }
}
