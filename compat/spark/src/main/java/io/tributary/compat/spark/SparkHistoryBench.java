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
 * Spark's MERGE for SCD type 2 (as Databricks documents it for {@code foreachBatch}: the changes staged twice, once with
 * their key to end the current version, once with a null key to insert the new one) on a table with deletion vectors,
 * on the table and batches of delta-sink's {@code HistoryUpsertBench}: ROWS keys of one version each
 * ({@code id INT, user STRING, amt DOUBLE, ts TIMESTAMP, lsn BIGINT, __START_AT BIGINT, __END_AT BIGINT}, {@code lsn} 0,
 * files of 100,000 rows by id), then the batches of {@link SparkBenchTables#batch}, batch {@code b} with {@code lsn} {@code b}, each
 * applied as
 * <pre>
 * MERGE INTO t USING (
 *   SELECT s.id AS mergeKey, s.* FROM s
 *   UNION ALL
 *   SELECT NULL AS mergeKey, s.* FROM s JOIN t c ON s.id = c.id WHERE c.__END_AT IS NULL AND s.op != 'd' AND s.lsn > c.__START_AT
 * ) u ON t.id = u.mergeKey AND t.__END_AT IS NULL
 * WHEN MATCHED AND u.lsn > t.__START_AT THEN UPDATE SET __END_AT = u.lsn
 * WHEN NOT MATCHED AND u.op != 'd' THEN INSERT (id, user, amt, ts, lsn, __START_AT, __END_AT)
 *   VALUES (u.id, u.user, u.amt, u.ts, u.lsn, u.lsn, NULL)
 * </pre>
 * Per batch: wall and process CPU seconds of the MERGE and its metrics; at the end the table's versions and current
 * rows against what the batches leave. Usage: {@code SparkHistoryBench TABLE_DIR ROWS BATCHES} ({@code -Dspark.master},
 * default {@code local[2]}).
 */
public final class SparkHistoryBench {
    private SparkHistoryBench() {
    }

    public static void main(String[] args) throws Exception {
        String table = args[0];
        int rows = Integer.parseInt(args[1]);
        int batches = Integer.parseInt(args[2]);
        String t = "delta.`" + table + "`";
        SparkSession spark = SparkBenchTables.session("tributary-history-bench");
        try {
            spark.sql("CREATE TABLE " + t + " (id INT, user STRING, amt DOUBLE, ts TIMESTAMP, lsn BIGINT, __START_AT BIGINT, __END_AT BIGINT)"
                    + " USING delta TBLPROPERTIES ('delta.enableDeletionVectors' = 'true')");
            SparkBenchTables.load(spark, table, rows, "spark history", "0L AS lsn", "0L AS __START_AT", "CAST(NULL AS BIGINT) AS __END_AT");
            BitSet current = new BitSet();
            for (int id = 0; id < rows; id++) {
                current.set(id * 2);
            }
            long versions = rows;
            StructType schema = StructType.fromDDL("id INT, user STRING, amt DOUBLE, ts BIGINT, op STRING, lsn BIGINT");
            double[] cpu = new double[batches];
            for (int b = 1; b <= batches; b++) {
                List<Row> changes = new ArrayList<>();
                for (Object[] c : SparkBenchTables.batch(new Random(b), rows)) {
                    Object[] change = Arrays.copyOf(c, 6);
                    change[5] = (long) b;
                    changes.add(RowFactory.create(change));
                    boolean delete = "d".equals(c[4]);
                    versions += delete ? 0 : 1;
                    current.set((Integer) c[0], !delete);
                }
                spark.createDataFrame(changes, schema).selectExpr("id", "user", "amt", "timestamp_micros(ts) AS ts", "op", "lsn")
                        .createOrReplaceTempView("s");
                long c0 = SparkBenchTables.cpuNanos();
                long w0 = System.nanoTime();
                spark.sql("MERGE INTO " + t + " t USING (SELECT s.id AS mergeKey, s.* FROM s UNION ALL"
                        + " SELECT NULL AS mergeKey, s.* FROM s JOIN " + t + " c ON s.id = c.id"
                        + " WHERE c.__END_AT IS NULL AND s.op != 'd' AND s.lsn > c.__START_AT) u"
                        + " ON t.id = u.mergeKey AND t.__END_AT IS NULL"
                        + " WHEN MATCHED AND u.lsn > t.__START_AT THEN UPDATE SET __END_AT = u.lsn"
                        + " WHEN NOT MATCHED AND u.op != 'd' THEN INSERT (id, user, amt, ts, lsn, __START_AT, __END_AT)"
                        + " VALUES (u.id, u.user, u.amt, u.ts, u.lsn, u.lsn, NULL)");
                double wall = (System.nanoTime() - w0) / 1e9;
                cpu[b - 1] = (SparkBenchTables.cpuNanos() - c0) / 1e9;
                Map<String, String> m = SparkBenchTables.lastMetrics(spark, t);
                System.out.printf("  spark history batch %d: %.2f s wall, %.2f s CPU; %,d keys: versions ended %s, inserted %s, copied %s;"
                        + " files removed %s, added %s, deletion vectors added %s%n", b, wall, cpu[b - 1], changes.size(),
                        m.get("numTargetRowsUpdated"), m.get("numTargetRowsInserted"), m.get("numTargetRowsCopied"),
                        m.get("numTargetFilesRemoved"), m.get("numTargetFilesAdded"), m.get("numTargetDeletionVectorsAdded"));
            }
            Arrays.sort(cpu);
            Row counts = spark.sql("SELECT count(*), count_if(__END_AT IS NULL) FROM " + t).first();
            long stored = counts.getLong(0);
            long open = counts.getLong(1);
            boolean expected = stored == versions && open == current.cardinality();
            System.out.printf("RESULT spark history MERGE with deletion vectors: 1%% of keys into %,d rows, median per batch %.2f s CPU;"
                    + " table %,d versions, %,d current (%s)%n", rows, cpu[batches / 2], stored, open,
                    expected ? "as expected" : "EXPECTED " + versions + " versions, " + current.cardinality() + " current");
        } finally {
            spark.stop();
        }
    }
}
