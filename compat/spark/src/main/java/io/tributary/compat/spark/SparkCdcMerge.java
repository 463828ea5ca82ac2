package io.tributary.compat.spark;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.row_number;

import io.delta.tables.DeltaTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.expressions.Window;
import org.apache.spark.sql.types.StructType;

/**
 * Spark's MERGE of change data, for the golden cases of {@code golden/cdc/<case>/}: each
 * {@code batch-N.json} (changes {@code op, id, name, lsn}), in N's order, is reduced to the change
 * with the greatest {@code lsn} per id and merged into a Delta table {@code id INT, name STRING,
 * lsn BIGINT} as Databricks documents for CDC with MERGE:
 * <pre>
 * MERGE INTO t USING s ON t.id = s.id
 * WHEN MATCHED AND s.op = 'd' AND s.lsn > t.lsn THEN DELETE
 * WHEN MATCHED AND s.lsn > t.lsn THEN UPDATE SET name = s.name, lsn = s.lsn
 * WHEN NOT MATCHED AND s.op != 'd' THEN INSERT (id, name, lsn) VALUES (s.id, s.name, s.lsn)
 * </pre>
 * {@code spark-merge.txt} gets the table after the last batch, {@code id|name|lsn} by id. The table has the
 * change data feed on ({@code delta.enableChangeDataFeed=true}); {@code spark-feed.txt} gets what Spark's
 * {@code readChangeFeed} reads of each batch's MERGE ({@code startingVersion} to {@code endingVersion}: the versions
 * the MERGE committed), {@code batch|_change_type|id|name|lsn}, sorted by batch, id, then change type.
 *
 * <p>Usage: {@code SparkCdcMerge GOLDEN_CDC_DIR [CASE...]}
 */
public final class SparkCdcMerge {
    static final String SCHEMA = "op STRING, id INT, name STRING, lsn BIGINT";

    private SparkCdcMerge() {
    }

    public static void main(String[] args) throws Exception {
        GoldenCases.recordEachWithDelta(args, "tributary-golden-cdc", SparkCdcMerge::run);
    }

    private static void run(SparkSession spark, Path dir) throws Exception {
        String out = Files.createTempDirectory("cdc-merge-").resolve("t").toString();
        DeltaTable.createIfNotExists(spark).location(out).addColumns(StructType.fromDDL("id INT, name STRING, lsn BIGINT"))
                .property("delta.enableChangeDataFeed", "true").execute();
        List<String> feed = new ArrayList<>();
        long version = latestVersion(spark, out);
        StructType schema = StructType.fromDDL(SCHEMA);
        for (int n = 0; Files.exists(dir.resolve("batch-" + n + ".json")); n++) {
            Dataset<Row> batch = spark.read().schema(schema).json(dir.resolve("batch-" + n + ".json").toString());
            Dataset<Row> latest = batch.withColumn("rn", row_number().over(Window.partitionBy("id").orderBy(col("lsn").desc())))
                    .where("rn = 1").drop("rn");
            latest.createOrReplaceTempView("s");
            spark.sql("MERGE INTO delta.`" + out + "` t USING s ON t.id = s.id"
                    + " WHEN MATCHED AND s.op = 'd' AND s.lsn > t.lsn THEN DELETE"
                    + " WHEN MATCHED AND s.lsn > t.lsn THEN UPDATE SET name = s.name, lsn = s.lsn"
                    + " WHEN NOT MATCHED AND s.op != 'd' THEN INSERT (id, name, lsn) VALUES (s.id, s.name, s.lsn)");
            long merged = latestVersion(spark, out);
            if (merged > version) {
                List<String> changes = new ArrayList<>();
                for (Row r : spark.read().format("delta").option("readChangeFeed", "true").option("startingVersion", version + 1)
                        .option("endingVersion", merged).load(out).collectAsList()) {
                    changes.add(n + "|" + r.getAs("_change_type") + "|" + r.getAs("id") + "|" + r.getAs("name") + "|" + r.getAs("lsn"));
                }
                changes.sort(feedOrder());
                feed.addAll(changes);
            }
            version = merged;
        }
        Files.write(dir.resolve("spark-feed.txt"), feed);
        List<String> lines = new ArrayList<>();
        for (Row r : spark.read().format("delta").load(out).orderBy("id").collectAsList()) {
            lines.add(r.getInt(0) + "|" + r.getString(1) + "|" + r.getLong(2));
        }
        Files.write(dir.resolve("spark-merge.txt"), lines);
        System.out.println(dir.getFileName() + ": " + lines.size() + " rows, " + feed.size() + " changes in the feed");
    }

    private static long latestVersion(SparkSession spark, String path) {
        return DeltaTable.forPath(spark, path).history(1).select("version").first().getLong(0);
    }

    /** {@code batch|_change_type|id|name|lsn} lines by batch, id, then change type (delete, insert, preimage, postimage). */
    static java.util.Comparator<String> feedOrder() {
        return java.util.Comparator.comparing((String l) -> Integer.parseInt(l.split("\\|")[0]))
                .thenComparing(l -> Integer.parseInt(l.split("\\|")[2])).thenComparing(l -> l.split("\\|")[1]);
    }
}
