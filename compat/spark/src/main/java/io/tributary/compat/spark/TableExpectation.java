package io.tributary.compat.spark;

import java.util.ArrayList;
import java.util.List;

/**
 * What one Delta table must look like to Spark: its path and the optional expectations
 * (row count, schema DDL, exact rows as Spark's JSON, number of versions).
 */
final class TableExpectation {
    final String path;
    Long rowCount;
    String schemaDdl;
    Long versions;
    final List<String> rows = new ArrayList<>();

    TableExpectation(String path) {
        this.path = path;
    }

    /**
     * Parses {@code --table PATH [--count N] [--schema DDL] [--row JSON]... [--versions N]}, repeated;
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
                default -> throw new IllegalArgumentException("unknown option " + flag + "; " + usage());
            }
        }
        if (tables.isEmpty()) {
            throw new IllegalArgumentException("no table given; " + usage());
        }
        return tables;
    }

    static String usage() {
        return "usage: SparkRead --table PATH [--count N] [--schema DDL] [--row JSON]... [--versions N] [--table ...]";
    }
}
