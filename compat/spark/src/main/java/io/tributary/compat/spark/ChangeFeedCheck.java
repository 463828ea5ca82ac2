package io.tributary.compat.spark;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
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
        Dataset<Row> latest = spark.read().format("delta").load(path);
        Column[] columns = java.util.Arrays.stream(latest.columns()).map(c -> functions.col("`" + c.replace("`", "``") + "`"))
                .toArray(Column[]::new);
        long last = spark.sql("DESCRIBE HISTORY delta.`" + path + "`").agg(functions.max("version")).first().getLong(0);
        // the feed and each version collected once (the tables checked are small), compared as multisets
        Map<Long, List<String>> inserted = new TreeMap<>();
        Map<Long, List<String>> deleted = new TreeMap<>();
        Dataset<Row> feed = spark.read().format("delta").option("readChangeFeed", "true").option("startingVersion", from).load(path);
        Column row = functions.to_json(functions.struct(columns));
        for (Row r : feed.select(functions.col("_commit_version"), functions.col("_change_type"), row).collectAsList()) {
            boolean in = List.of("insert", "update_postimage").contains(r.getString(1));
            (in ? inserted : deleted).computeIfAbsent(r.getLong(0), v -> new ArrayList<>()).add(r.getString(2));
        }
        List<String> before = from == 0 ? List.of() : json(asOf(from - 1).select(row));
        long changes = 0;
        for (long v = from; v <= last; v++) {
            List<String> now = json(asOf(v).select(row));
            List<String> in = sorted(inserted.getOrDefault(v, List.of()));
            List<String> out = sorted(deleted.getOrDefault(v, List.of()));
            changes += in.size() + out.size();
            System.out.println("  change feed v" + v + ": " + in.size() + " insert/update_postimage, " + out.size() + " delete/update_preimage");
            List<String> added = minus(now, before);
            List<String> removed = minus(before, now);
            if (!in.equals(added)) {
                fail.accept("change feed v" + v + " inserts " + in + ", the version added " + added);
            }
            if (!out.equals(removed)) {
                fail.accept("change feed v" + v + " removes " + out + ", the version took away " + removed);
            }
            before = now;
        }
        System.out.println("change feed from version " + from + " to " + last + ": " + changes + " changes, each version's equal to"
                + " what it changed in the table");
    }

    /** {@code a} without {@code b}, as multisets, sorted. */
    private static List<String> minus(List<String> a, List<String> b) {
        List<String> out = new ArrayList<>(a);
        for (String x : b) {
            out.remove(x);
        }
        return sorted(out);
    }

    private static List<String> sorted(List<String> rows) {
        List<String> out = new ArrayList<>(rows);
        Collections.sort(out);
        return out;
    }

    private Dataset<Row> asOf(long version) {
        return spark.read().format("delta").option("versionAsOf", version).load(path);
    }

    private static List<String> json(Dataset<Row> oneJsonColumn) {
        List<String> out = new ArrayList<>();
        oneJsonColumn.collectAsList().forEach(r -> out.add(r.getString(0)));
        return sorted(out);
    }
}
