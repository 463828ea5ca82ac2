package io.tributary.compat.spark;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;

/**
 * Spark's MERGE on a table with deletion vectors, on the table and batches of delta-sink's {@code DeletionVectorBench}:
 * ROWS rows of even ids ({@code id INT, user STRING, amt DOUBLE, ts TIMESTAMP}, files of 100,000 rows by id), then
 * batches of ROWS / 100 changes (half updates of existing keys, a tenth deletes, the rest new keys; the same
 * {@code java.util.Random} draws), each applied as
 * <pre>
 * MERGE INTO t USING s ON t.id = s.id
 * WHEN MATCHED AND s.op = 'd' THEN DELETE
 * WHEN MATCHED THEN UPDATE SET user = s.user, amt = s.amt, ts = s.ts
 * WHEN NOT MATCHED AND s.op != 'd' THEN INSERT (id, user, amt, ts) VALUES (s.id, s.user, s.amt, s.ts)
 * </pre>
 * Per batch: wall and process CPU seconds of the MERGE, and its metrics from the table's history (deletion vectors
 * added, rows copied, files removed); at the end the table's row count against the keys the batches leave.
 * Usage: {@code SparkDvBench TABLE_DIR ROWS BATCHES} ({@code -Dspark.master}, default {@code local[2]}).
 */
public final class SparkDvBench {
    private SparkDvBench() {
    }

    public static void main(String[] args) throws Exception {
        String table = args[0];
        int rows = Integer.parseInt(args[1]);
        int batches = Integer.parseInt(args[2]);
        SparkSession spark = SparkBenchTables.session("tributary-dv-bench");
        try {
            spark.sql("CREATE TABLE delta.`" + table + "` (id INT, user STRING, amt DOUBLE, ts TIMESTAMP) USING delta"
                    + " TBLPROPERTIES ('delta.enableDeletionVectors' = 'true')");
            SparkBenchTables.load(spark, table, rows, "spark");
            BitSet keys = new BitSet();
            for (int id = 0; id < rows; id++) {
                keys.set(id * 2);
            }
            StructType schema = StructType.fromDDL("id INT, user STRING, amt DOUBLE, ts BIGINT, op STRING");
            double[] cpu = new double[batches];
            for (int b = 1; b <= batches; b++) {
                List<Row> changes = new ArrayList<>();
                for (Object[] c : SparkBenchTables.batch(new Random(b), rows)) {
                    changes.add(RowFactory.create(c));
                    keys.set((Integer) c[0], !"d".equals(c[4]));
                }
                spark.createDataFrame(changes, schema).selectExpr("id", "user", "amt", "timestamp_micros(ts) AS ts", "op")
                        .createOrReplaceTempView("s");
                long c0 = SparkBenchTables.cpuNanos();
                long w0 = System.nanoTime();
                spark.sql("MERGE INTO delta.`" + table + "` t USING s ON t.id = s.id WHEN MATCHED AND s.op = 'd' THEN DELETE"
                        + " WHEN MATCHED THEN UPDATE SET user = s.user, amt = s.amt, ts = s.ts"
                        + " WHEN NOT MATCHED AND s.op != 'd' THEN INSERT (id, user, amt, ts) VALUES (s.id, s.user, s.amt, s.ts)");
                double wall = (System.nanoTime() - w0) / 1e9;
                cpu[b - 1] = (SparkBenchTables.cpuNanos() - c0) / 1e9;
                Map<String, String> m = SparkBenchTables.lastMetrics(spark, "delta.`" + table + "`");
                System.out.printf("  spark batch %d: %.2f s wall, %.2f s CPU; %,d keys: rows updated %s, deleted %s, inserted %s, copied %s;"
                        + " files removed %s, added %s, deletion vectors added %s%n", b, wall, cpu[b - 1], changes.size(),
                        m.get("numTargetRowsUpdated"), m.get("numTargetRowsDeleted"), m.get("numTargetRowsInserted"), m.get("numTargetRowsCopied"),
                        m.get("numTargetFilesRemoved"), m.get("numTargetFilesAdded"), m.get("numTargetDeletionVectorsAdded"));
            }
            Arrays.sort(cpu);
            long count = spark.read().format("delta").load(table).count();
            System.out.printf("RESULT spark MERGE with deletion vectors: 1%% of keys into %,d rows, median per batch %.2f s CPU; table %,d rows (%s)%n",
                    rows, cpu[batches / 2], count, count == keys.cardinality() ? "as expected" : "EXPECTED " + keys.cardinality());
        } finally {
            spark.stop();
        }
    }
}
