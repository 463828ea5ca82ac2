package io.tributary.compat.spark;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.delta.tables.DeltaTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.StructField;
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
 * {@code spark-history.txt} gets the table after the last batch, {@code id|name|lsn|__START_AT|__END_AT} (the table's
 * columns) by id and start.
 *
 * <p>A case whose {@code case.json} has {@code "trackHistoryExceptColumns": [...]} (AUTO CDC's {@code TRACK HISTORY ON
 * * EXCEPT (...)}) or {@code "trackHistoryColumns": [...]} ({@code TRACK HISTORY ON col, ...}) keeps every change it held in a change log (a Delta table, as AUTO CDC keeps its own) and works each
 * batch's versions out again from the whole log, in {@code lsn} order per key: a change that is not a delete starts a
 * version when it is the key's first, follows a delete, or has other values than the change before it in a tracked
 * column (the named ones, or every column but the key, {@code lsn}, {@code op} and the named ones); the others join the version before them.
 * A version holds the values and {@code lsn} of its last change, starts at its first and ends at the delete that follows
 * it or at the next version's start; the MERGE then also updates a version's columns, and deletes the versions no
 * longer there ({@code WHEN NOT MATCHED BY SOURCE THEN DELETE}). {@code "schema"} gives the batches' columns (default
 * {@code op STRING, id INT, name STRING, lsn BIGINT}).
 *
 * <p>A case's batches are the {@code batch-N.json} of its own folder, or else those of {@code golden/cdc/<case>} (or of the
 * cdc case its {@code "changes"} names).
 *
 * <p>Usage: {@code SparkScd2Merge GOLDEN_SCD2_DIR [CASE...]}.
 */
public final class SparkScd2Merge {
    private SparkScd2Merge() {
    }

    public static void main(String[] args) throws Exception {
        GoldenCases.recordEachWithDelta(args, "tributary-golden-scd2", SparkScd2Merge::run);
    }

    private static void run(SparkSession spark, Path dir) throws Exception {
        JsonNode spec = new ObjectMapper().readTree(dir.resolve("case.json").toFile());
        Path changes = Files.exists(dir.resolve("batch-0.json")) ? dir
                : dir.getParent().resolveSibling("cdc").resolve(spec.path("changes").asText(dir.getFileName().toString()));
        if (spec.has("trackHistoryExceptColumns") || spec.has("trackHistoryColumns")) {
            List<String> named = new ArrayList<>();
            spec.path(spec.has("trackHistoryColumns") ? "trackHistoryColumns" : "trackHistoryExceptColumns").forEach(c -> named.add(c.asText()));
            runTracked(spark, dir, changes, StructType.fromDDL(spec.path("schema").asText(SparkCdcMerge.SCHEMA)),
                    spec.has("trackHistoryColumns"), named);
            return;
        }
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
        write(spark, dir, table);
    }

    /**
     * TRACK HISTORY ON named (list) or ON * EXCEPT (named): the versions of each key are its runs of changes with the same
     * tracked values.
     */
    private static void runTracked(SparkSession spark, Path dir, Path changes, StructType schema, boolean list, List<String> named)
            throws Exception {
        Path tmp = Files.createTempDirectory("scd2-tracked-");
        String table = tmp.resolve("t").toString();
        String log = tmp.resolve("log").toString();
        List<String> columns = new ArrayList<>();
        List<String> tracked = new ArrayList<>();
        StructType stored = new StructType();
        for (StructField f : schema.fields()) {
            if (!f.name().equals("op")) {
                columns.add(f.name());
                stored = stored.add(f);
                if (!List.of("id", "lsn").contains(f.name()) && named.contains(f.name()) == list) {
                    tracked.add(f.name());
                }
            }
        }
        String cols = String.join(", ", columns);
        DeltaTable.createIfNotExists(spark).location(table).addColumns(stored.add("__START_AT", "long").add("__END_AT", "long")).execute();
        DeltaTable.createIfNotExists(spark).location(log).addColumns(stored.add("op", "string")).execute();
        StringBuilder lags = new StringBuilder();
        StringBuilder sameTracked = new StringBuilder("true");
        StringBuilder latest = new StringBuilder();
        for (String c : tracked) {
            lags.append(", LAG(").append(c).append(") OVER w AS prev_").append(c);
            sameTracked.append(" AND prev_").append(c).append(" <=> ").append(c);
        }
        for (String c : columns) {
            if (!List.of("id", "lsn").contains(c)) {
                latest.append("max_by(").append(c).append(", lsn) FILTER (WHERE op != 'd') AS ").append(c).append(", ");
            }
        }
        for (int n = 0; Files.exists(changes.resolve("batch-" + n + ".json")); n++) {
            spark.read().schema(schema).json(changes.resolve("batch-" + n + ".json").toString())
                    .withColumn("pos", functions.monotonically_increasing_id()).createOrReplaceTempView("b");
            spark.sql("SELECT " + cols + ", op FROM (SELECT *, row_number() OVER (PARTITION BY id, lsn ORDER BY pos) AS rn FROM b)"
                    + " WHERE rn = 1 AND (id, lsn) NOT IN (SELECT id, lsn FROM delta.`" + log + "`)").createOrReplaceTempView("fresh");
            spark.sql("INSERT INTO delta.`" + log + "` SELECT " + cols + ", op FROM fresh");
            spark.sql("SELECT *, SUM(CASE WHEN op != 'd' AND (prev_op IS NULL OR prev_op = 'd' OR NOT (" + sameTracked + "))"
                    + " THEN 1 ELSE 0 END) OVER (PARTITION BY id ORDER BY lsn) AS run FROM (SELECT *, LAG(op) OVER w AS prev_op" + lags
                    + " FROM delta.`" + log + "` WINDOW w AS (PARTITION BY id ORDER BY lsn))").createOrReplaceTempView("runs");
            spark.sql("SELECT id, " + latest + "max(lsn) FILTER (WHERE op != 'd') AS lsn, min(lsn) FILTER (WHERE op != 'd') AS __START_AT,"
                    + " min(lsn) FILTER (WHERE op = 'd') AS ended FROM runs WHERE run > 0 GROUP BY id, run").createOrReplaceTempView("runs_held");
            spark.sql("SELECT " + cols + ", __START_AT, coalesce(ended, LEAD(__START_AT) OVER (PARTITION BY id ORDER BY __START_AT))"
                    + " AS __END_AT FROM runs_held").createOrReplaceTempView("versions");
            StringBuilder same = new StringBuilder("t.__END_AT <=> s.__END_AT");
            for (String c : columns) {
                same.append(" AND t.").append(c).append(" <=> s.").append(c);
            }
            spark.sql("MERGE INTO delta.`" + table + "` t USING versions s ON t.id = s.id AND t.__START_AT = s.__START_AT"
                    + " WHEN MATCHED AND NOT (" + same + ") THEN UPDATE SET *"
                    + " WHEN NOT MATCHED THEN INSERT * WHEN NOT MATCHED BY SOURCE THEN DELETE");
        }
        write(spark, dir, table);
    }

    private static void write(SparkSession spark, Path dir, String table) throws Exception {
        List<String> lines = new ArrayList<>();
        for (Row r : spark.read().format("delta").load(table).orderBy("id", "__START_AT").collectAsList()) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < r.size(); i++) {
                line.append(i == 0 ? "" : "|").append(r.isNullAt(i) ? "null" : r.get(i).toString());
            }
            lines.add(line.toString());
        }
        Files.write(dir.resolve("spark-history.txt"), lines);
        System.out.println(dir.getFileName() + ": " + lines.size() + " versions");
    }
}
