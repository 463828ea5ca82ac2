package io.tributary.compat.spark;

import io.delta.tables.DeltaTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.StructType;

/**
 * Spark's MERGE of change data kept as history (SCD type 2), for the golden cases of {@code golden/scd2/<case>/}:
 * the change batches of {@code golden/cdc/<case>/} ({@code op, id, name, lsn}), in order, into a Delta table
 * {@code id INT, name STRING, lsn BIGINT, __START_AT BIGINT, __END_AT BIGINT}, as AUTO CDC's {@code STORED AS SCD
 * TYPE 2} documents the result. The usual SCD type 2 MERGE (close the current version, insert the new one) cannot
 * place a change that arrives after a later one, so each batch's keys have their versions worked out again in SQL
 * from every change of those keys held so far (the table's versions, and the deletes, kept in a second Delta table as
 * AUTO CDC keeps them in its own) and the batch's, a change whose {@code (id, lsn)} is held already ignored (within
 * the batch: the first in file order); each insert or update starts a version that the key's next change by
 * {@code lsn} ends ({@code LEAD}), and that MERGE applies:
 * <pre>
 * MERGE INTO t USING versions s ON t.id = s.id AND t.__START_AT = s.__START_AT
 * WHEN MATCHED AND NOT (t.__END_AT &lt;=&gt; s.__END_AT) THEN UPDATE SET __END_AT = s.__END_AT
 * WHEN NOT MATCHED THEN INSERT *
 * </pre>
 * {@code spark-history.txt} gets the table after the last batch, {@code id|name|lsn|__START_AT|__END_AT} by id and start.
 *
 * <p>Usage: {@code SparkScd2Merge GOLDEN_SCD2_DIR [CASE...]} (the batches are read from {@code ../cdc/<case>} beside it).
 */
public final class SparkScd2Merge {
    private SparkScd2Merge() {
    }

    public static void main(String[] args) throws Exception {
        GoldenCases.recordEachWithDelta(args, "tributary-golden-scd2", SparkScd2Merge::run);
    }

    private static void run(SparkSession spark, Path dir) throws Exception {
        Path changes = dir.getParent().resolveSibling("cdc").resolve(dir.getFileName());
        Path tmp = Files.createTempDirectory("scd2-merge-");
        String table = tmp.resolve("t").toString();
        String deletes = tmp.resolve("deletes").toString();
        DeltaTable.createIfNotExists(spark).location(table)
                .addColumns(StructType.fromDDL("id INT, name STRING, lsn BIGINT, __START_AT BIGINT, __END_AT BIGINT")).execute();
        DeltaTable.createIfNotExists(spark).location(deletes).addColumns(StructType.fromDDL("id INT, lsn BIGINT")).execute();
        StructType schema = StructType.fromDDL(SparkCdcMerge.SCHEMA);
        for (int n = 0; Files.exists(changes.resolve("batch-" + n + ".json")); n++) {
            spark.read().schema(schema).json(changes.resolve("batch-" + n + ".json").toString())
                    .withColumn("pos", functions.monotonically_increasing_id()).createOrReplaceTempView("b");
            spark.sql("SELECT id, name, lsn, 'u' AS op, 0 AS src, 0L AS pos FROM delta.`" + table + "` WHERE id IN (SELECT id FROM b)"
                    + " UNION ALL SELECT id, CAST(NULL AS STRING), lsn, 'd', 0, 0L FROM delta.`" + deletes + "` WHERE id IN (SELECT id FROM b)"
                    + " UNION ALL SELECT id, name, lsn, op, 1, pos FROM b").createOrReplaceTempView("all_changes");
            spark.sql("SELECT * FROM (SELECT *, row_number() OVER (PARTITION BY id, lsn ORDER BY src, pos) AS rn FROM all_changes)"
                    + " WHERE rn = 1").createOrReplaceTempView("changes");
            spark.sql("SELECT id, name, lsn, lsn AS __START_AT, __END_AT FROM (SELECT *, LEAD(lsn) OVER (PARTITION BY id ORDER BY lsn)"
                    + " AS __END_AT FROM changes) WHERE op != 'd'").createOrReplaceTempView("versions");
            spark.sql("MERGE INTO delta.`" + table + "` t USING versions s ON t.id = s.id AND t.__START_AT = s.__START_AT"
                    + " WHEN MATCHED AND NOT (t.__END_AT <=> s.__END_AT) THEN UPDATE SET __END_AT = s.__END_AT"
                    + " WHEN NOT MATCHED THEN INSERT *");
            spark.sql("INSERT INTO delta.`" + deletes + "` SELECT id, lsn FROM changes WHERE op = 'd' AND src = 1");
        }
        List<String> lines = new ArrayList<>();
        for (Row r : spark.read().format("delta").load(table).orderBy("id", "__START_AT").collectAsList()) {
            lines.add(r.getInt(0) + "|" + r.getString(1) + "|" + r.getLong(2) + "|" + r.getLong(3) + "|" + (r.isNullAt(4) ? "null" : r.getLong(4)));
        }
        Files.write(dir.resolve("spark-history.txt"), lines);
        System.out.println(dir.getFileName() + ": " + lines.size() + " versions");
    }
}
