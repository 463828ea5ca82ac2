package io.tributary.expressions;

import io.tributary.schema.TributaryException;

/** The refusals of a {@code UNION ALL} whose queries' columns do not meet ({@link UnionColumns}), with Spark's error classes. */
final class UnionErrors {
    private UnionErrors() {
    }

    static TributaryException columnCount(int query, int columns, int firstColumns) {
        return new TributaryException("[NUM_COLUMNS_MISMATCH] UNION ALL can only be performed on queries with the same number of columns,"
                + " but query " + query + " has " + columns + " and the first query " + firstColumns + "; select as many columns in each");
    }

    static TributaryException columnType(int query, int column, String name, String type, String before) {
        return new TributaryException("[INCOMPATIBLE_COLUMN_TYPE] UNION ALL can only be performed on queries with compatible column types:"
                + " column " + column + " (" + name + ") of query " + query + " is " + type + ", which does not meet " + before
                + " of the queries before it; cast it in one of them, e.g. CAST(" + name + " AS STRING)");
    }

    static TributaryException untypedColumn(int column, String name) {
        return new TributaryException("[DELTA_NULL_SCHEMA_IN_STREAMING_WRITE] column " + column + " (" + name + ") of the UNION ALL is NULL"
                + " in every query and has no type (Spark's VOID), which Spark's Delta write refuses too (Delta doesn't accept NullTypes in"
                + " the schema for streaming writes); give it one in a query: CAST(NULL AS STRING) AS " + name);
    }
}
