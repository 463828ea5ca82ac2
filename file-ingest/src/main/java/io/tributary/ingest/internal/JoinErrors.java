package io.tributary.ingest.internal;

import io.tributary.schema.TributaryException;

/** The errors of a stream-static join's Delta table ({@code transform.join}): finding it when the pipeline is built, and reading it in a batch. */
public final class JoinErrors {
    private JoinErrors() {
    }

    public static TributaryException unknownJoinKey(String key, String field) {
        return new TributaryException(key + ": unknown join key '" + field + "'; a join takes table, as, on and type");
    }

    public static TributaryException noStaticTables() {
        return new TributaryException("transform.join needs a way to read Delta tables; this ingest was built without one");
    }

    public static TributaryException joinNeedsTable(String key) {
        return new TributaryException(key + ": a join needs the path or URI of a Delta table");
    }

    public static TributaryException noJoinTable(String key, String table) {
        return new TributaryException(key + ": there is no Delta table at '" + table
                + "' (no _delta_log with a commit); create it first, or correct the path");
    }

    public static TributaryException joinTableGone(String key, long version) {
        return new TributaryException(key + ": the join table is gone; it had version " + version);
    }

    public static TributaryException joinSchemaChanged(String key, String from, String to, long version) {
        return new TributaryException(key + ": the join table's schema changed from " + from + " to " + to + " at version "
                + version + "; restart the pipeline to use the new schema");
    }

    public static TributaryException inJoin(String key, TributaryException e) {
        return new TributaryException(key + ": " + e.getMessage(), e);
    }
}
