package io.tributary.compat.spark;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Spark 4.2's {@code readChangeFeed} of a table the Tributary sink wrote from a {@code golden/cdc} case
 * (batch N is the sink's version N), written as {@link SparkCdcMerge} writes Spark's own feed:
 * {@code batch|_change_type|id|name|lsn}, by batch, id and change type; so that the two files compare with
 * {@code diff}.
 *
 * <p>Usage: {@code SparkChangeFeed TABLE OUT_FILE}
 */
public final class SparkChangeFeed {
    private SparkChangeFeed() {
    }

    public static void main(String[] args) throws Exception {
        SparkSession spark = SparkSession.builder().appName("tributary-change-feed").master("local[1]")
                .config("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension")
                .config("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog")
                .config("spark.ui.enabled", "false").config("spark.sql.session.timeZone", "UTC")
                .config("spark.sql.shuffle.partitions", "1").getOrCreate();
        try {
            List<String> feed = new ArrayList<>();
            for (Row r : spark.read().format("delta").option("readChangeFeed", "true").option("startingVersion", 0).load(args[0])
                    .collectAsList()) {
                feed.add(r.getAs("_commit_version") + "|" + r.getAs("_change_type") + "|" + r.getAs("id") + "|" + r.getAs("name")
                        + "|" + r.getAs("lsn"));
            }
            feed.sort(SparkCdcMerge.feedOrder());
            Files.write(Path.of(args[1]), feed);
            System.out.println(args[0] + ": " + feed.size() + " changes in the feed");
        } finally {
            spark.stop();
        }
    }
}
