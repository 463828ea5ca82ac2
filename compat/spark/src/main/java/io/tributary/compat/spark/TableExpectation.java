package io.tributary.compat.spark;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one Delta table must look like to Spark: its path and the optional expectations
 * (row count, schema DDL, exact rows as Spark's JSON, number of versions, the operation every
 * version shows in history, row counts of earlier versions, how a stream over change commits
 * behaves), and whether to time opening it.
 */
final class TableExpectation {
    final String path;
    Long rowCount;
    String schemaDdl;
    Long versions;
    final List<String> rows = new ArrayList<>();
    /** the operation every version must show in {@code DESCRIBE HISTORY}, e.g. {@code STREAMING UPDATE} */
    String operation;
    /** version to row count of a time-travel read ({@code versionAsOf}) */
    final Map<Long, Long> countsAsOf = new TreeMap<>();
    /**
     * Set when the table has change commits (removes with {@code dataChange=true}, as an upsert
     * writes): a plain stream must then fail as Spark does, and a stream with
     * {@code skipChangeCommits=true} must give this many rows.
     */
    Long streamRowsSkippingChanges;
    /**
     * Set on a table with the change data feed on: Spark's {@code readChangeFeed} from this version must give, for
     * each version, exactly what that version changed in the table ({@link ChangeFeedCheck}).
     */
    Long changeFeedFrom;
    /** timed opens ({@code load(path).count()}) after two warm-ups; 0: none */
    int timeOpen;

    TableExpectation(String path) {
        this.path = path;
    }

    /**
     * Parses {@code --table PATH [--count N] [--schema DDL] [--row JSON]... [--versions N] [--operation OP]
     * [--as-of VERSION:COUNT]... [--stream-skipping-changes N] [--change-feed-from V] [--time-open N]}, repeated;
     * each {@code --table} starts a new table and the options after it apply to that table.
     */
    static List<TableExpectation> parse(String[] args) {
        List<TableExpectation> tables = new ArrayList<>();
        TableExpectation current = null;
        for (int i = 0; i < args.length; i++) {
            String flag = args[i];
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("option " + flag + " needs a value; " + usage());
            }
            String value = args[++i];
            if (flag.equals("--table")) {
                current = new TableExpectation(value);
                tables.add(current);
                continue;
            }
            if (current == null) {
                throw new IllegalArgumentException("option " + flag + " comes before any --table; " + usage());
            }
            switch (flag) {
                case "--count" -> current.rowCount = Long.parseLong(value);
                case "--schema" -> current.schemaDdl = value;
                case "--row" -> current.rows.add(value);
                case "--versions" -> current.versions = Long.parseLong(value);
                case "--operation" -> current.operation = value;
                case "--as-of" -> {
                    String[] vc = value.split(":");
                    if (vc.length != 2) {
                        throw new IllegalArgumentException("--as-of takes VERSION:COUNT, not " + value);
                    }
                    current.countsAsOf.put(Long.parseLong(vc[0].strip()), Long.parseLong(vc[1].strip()));
                }
                case "--stream-skipping-changes" -> current.streamRowsSkippingChanges = Long.parseLong(value);
                case "--change-feed-from" -> current.changeFeedFrom = Long.parseLong(value);
                case "--time-open" -> current.timeOpen = Integer.parseInt(value);
                default -> throw new IllegalArgumentException("unknown option " + flag + "; " + usage());
            }
        }
        if (tables.isEmpty()) {
            throw new IllegalArgumentException("no table given; " + usage());
        }
        return tables;
    }

    static String usage() {
        return "usage: SparkRead --table PATH [--count N] [--schema DDL] [--row JSON]... [--versions N] [--operation OP]"
                + " [--as-of VERSION:COUNT]... [--stream-skipping-changes N] [--change-feed-from V] [--time-open N] [--table ...]";
    }
}
