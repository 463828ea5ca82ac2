package io.tributary.source.internal;

import io.tributary.schema.TributaryException;

/** The delta-source's user-facing errors, worded as Spark's Delta source words them where Spark has one. */
public final class SourceErrors {
    private SourceErrors() {
    }

    /** Spark's {@code DELTA_SOURCE_TABLE_IGNORE_CHANGES}: a commit that rewrites data (UPDATE, MERGE, DELETE of rows, RESTORE). */
    public static TributaryException dataUpdate(String tablePath, Commit c, String freshStart) {
        return new TributaryException("[DELTA_SOURCE_TABLE_IGNORE_CHANGES] Detected a data update (for example "
                + c.describeOperation() + ") in the source table at version " + c.version() + ". This is currently not supported. "
                + "If this is going to happen regularly and you are okay to skip changes, set the option 'skipChangeCommits' to 'true'. "
                + "If you would like the data update to be reflected, please restart this query with a fresh checkpoint directory ("
                + freshStart + "; the table's current rows are then published again). The source table can be found at path "
                + tablePath + ".");
    }

    /** Spark's {@code DELTA_SOURCE_IGNORE_DELETE}: a commit that only removes whole files. */
    public static TributaryException delete(String tablePath, Commit c, String freshStart) {
        return new TributaryException("[DELTA_SOURCE_IGNORE_DELETE] Detected deleted data (for example " + c.firstRemovedPath()
                + ", by " + c.describeOperation() + ") from streaming source at version " + c.version() + ". This is currently not supported. "
                + "If you'd like to ignore deletes, set the option 'ignoreDeletes' to 'true' (or 'skipChangeCommits' to skip every "
                + "commit that removes data). If you would like the delete to be reflected, restart with a fresh checkpoint ("
                + freshStart + "). The source table can be found at path " + tablePath + ".");
    }

    /**
     * Spark's {@code DELTA_SCHEMA_CHANGED_WITH_VERSION}, for a change the stream cannot follow (a
     * column dropped, renamed or of another type): the version, both schemas, why, and how to go on.
     */
    public static TributaryException incompatibleSchema(String tablePath, long version, String streamSchema, String newSchema,
                                                        String why, String progressTopic) {
        return new TributaryException("[DELTA_SCHEMA_CHANGED_WITH_VERSION] Detected schema change in version " + version
                + " of " + tablePath + ": streaming source schema: " + streamSchema + "; schema at version " + version + ": " + newSchema
                + ". The change is not additive (" + why + "): the rows written after it cannot be read as the stream's schema."
                + " Spark stops here too, and needs a new checkpoint (or a schemaTrackingLocation, on tables with column mapping)."
                + " To go on with the new schema: delete key '" + tablePath + "' from topic " + progressTopic
                + " (or give the pipeline a new name) and set source.delta.startingVersion: " + version
                + ", so the stream starts at the change, and check that the stages downstream take the new schema (a sink table"
                + " keeps its columns: a retyped one needs a new table). Columns that are only added flow through on their own.");
    }

    /** A change-feed commit this source cannot turn into rows. */
    public static TributaryException changeFeedUnsupported(String tablePath, long version, String what) {
        return new TributaryException("delta-source: readChangeFeed on " + tablePath + " cannot read version " + version + ": " + what
                + ". Delta Kernel has no change-feed reader and Tributary reads only plain `cdc` files and add/remove-only commits;"
                + " read this table's change feed with Spark (table_changes), or stream it without readChangeFeed (skipChangeCommits skips such commits).");
    }
}
