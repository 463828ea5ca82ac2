package io.tributary.compat.spark;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Consumer;

import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;

/**
 * Spark's {@code readChangeFeed} of a table with the change data feed on, checked against the table itself: for each
 * version from the first read, the rows its feed inserts ({@code insert}, {@code update_postimage}) are exactly the
 * rows that version added to the table (time travel: {@code versionAsOf V} minus {@code versionAsOf V-1}, as
 * multisets) and the rows its feed removes ({@code delete}, {@code update_preimage}) exactly those it took away.
 * A feed that misses a change, repeats one, or names a change that did not happen fails.
 */
final class ChangeFeedCheck {
    private final SparkSession spark;
    private final String path;
    private final long from;

    ChangeFeedCheck(SparkSession spark, String path, long from) {
        this.spark = spark;
        this.path = path;
        this.from = from;
    }

    void run(Consumer<String> fail) {
        Dataset<Row> feed = spark.read().format("delta").option("readChangeFeed", "true").option("startingVersion", from).load(path);
        Dataset<Row> latest = spark.read().format("delta").load(path);
        Column[] columns = java.util.Arrays.stream(latest.columns()).map(c -> functions.col("`" + c.replace("`", "``") + "`"))
                .toArray(Column[]::new);
        long last = spark.sql("DESCRIBE HISTORY delta.`" + path + "`").agg(functions.max("version")).first().getLong(0);
        long changes = 0;
        for (long v = from; v <= last; v++) {
            Dataset<Row> now = asOf(v).select(columns);
            Dataset<Row> added = v == 0 ? now : now.exceptAll(asOf(v - 1).select(columns));
            Dataset<Row> removed = v == 0 ? now.limit(0) : asOf(v - 1).select(columns).exceptAll(now);
            Dataset<Row> ofVersion = feed.where(functions.col("_commit_version").equalTo(v));
            List<String> inserted = json(ofVersion.where(functions.col("_change_type").isin("insert", "update_postimage")).select(columns));
            List<String> deleted = json(ofVersion.where(functions.col("_change_type").isin("delete", "update_preimage")).select(columns));
            changes += inserted.size() + deleted.size();
            System.out.println("  change feed v" + v + ": " + inserted.size() + " insert/update_postimage, " + deleted.size()
                    + " delete/update_preimage");
            List<String> wantedIn = json(added);
            List<String> wantedOut = json(removed);
            if (!inserted.equals(wantedIn)) {
                fail.accept("change feed v" + v + " inserts " + inserted + ", the version added " + wantedIn);
            }
            if (!deleted.equals(wantedOut)) {
                fail.accept("change feed v" + v + " removes " + deleted + ", the version took away " + wantedOut);
            }
        }
        System.out.println("change feed from version " + from + " to " + last + ": " + changes + " changes, each version's equal to"
                + " what it changed in the table");
    }

    private Dataset<Row> asOf(long version) {
        return spark.read().format("delta").option("versionAsOf", version).load(path);
    }

    private static List<String> json(Dataset<Row> rows) {
        List<String> out = new ArrayList<>(rows.toJSON().collectAsList());
        Collections.sort(out);
        return out;
    }
}
