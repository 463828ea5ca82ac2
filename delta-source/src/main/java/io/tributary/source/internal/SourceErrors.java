package io.tributary.source.internal;

import io.delta.kernel.exceptions.TableNotFoundException;
import io.tributary.schema.TributaryException;
import org.apache.kafka.common.KafkaException;

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

    /** When startingVersion is negative. */
    public static TributaryException negativeStartingVersion(long version) {
        return new TributaryException("delta-source: startingVersion " + version + " is negative; use a version >= 0 or "
                + "'latest'");
    }

    /** When startingVersion is neither a number nor 'latest'. */
    public static TributaryException badStartingVersion(String text) {
        return new TributaryException("delta-source: startingVersion '" + text + "' is neither a version number nor 'latest'; "
                + "write e.g. startingVersion: 5 or startingVersion: latest");
    }

    /** When the table's id is not the one the stored progress is for. */
    public static TributaryException tableReplaced(String tablePath, String tableId, String progressTableId,
                                                   String progressTopic) {
        return new TributaryException("delta-source: the table at " + tablePath + " has id " + tableId + ", but the stored "
                + "progress is for table id " + progressTableId + " (the table was deleted and written anew, or replaced). "
                + "Its versions no longer match the progress: delete key '" + tablePath + "' from topic " + progressTopic
                + " (or give the pipeline a new name) to read the new table from its start");
    }

    /** When startingVersion is after the table's latest version. */
    public static TributaryException startingVersionAfterLatest(long version, long latest, String tablePath) {
        return new TributaryException("delta-source: startingVersion " + version + " is after the latest version (" + latest
                + ") of " + tablePath + "; use a version from 0 to " + latest + ", or 'latest' to read only commits made from "
                + "now on");
    }

    /** When startingVersion is no longer in the table's log. */
    public static TributaryException startingVersionGone(long version, String tablePath, long earliest) {
        return new TributaryException("delta-source: startingVersion " + version + " of " + tablePath + " is no longer in the "
                + "table's log (older log files were cleaned up); the oldest version still available is " + earliest
                + ": set startingVersion to " + earliest + " or later, or omit it to read the current snapshot");
    }

    /** When readChangeFeed is set on a table that records no change data. */
    public static TributaryException noChangeDataFeed(String tablePath) {
        return new TributaryException("delta-source: readChangeFeed is set, but table " + tablePath + " does not have "
                + "delta.enableChangeDataFeed=true, so it records no change data (Spark refuses this too: "
                + "DELTA_MISSING_CHANGE_DATA); enable the property on the table, or drop readChangeFeed");
    }

    /** When there is no Delta table at the source path. */
    public static TributaryException noTable(String tablePath, TableNotFoundException cause) {
        return new TributaryException("delta-source: no Delta table at " + tablePath + " (no _delta_log folder with commits); "
                + "check source.delta.path, or write the table first", cause);
    }

    /** When the version to resume at is no longer in the table's log; {@code earliest} is the oldest one left, or negative when unknown. */
    public static TributaryException versionGone(String tablePath, long version, long earliest, Exception cause) {
        return new TributaryException("delta-source: table " + tablePath + " no longer holds version " + version
                + " in its log (log files before it were cleaned up"
                + (earliest >= 0 ? "; the oldest version still available is " + earliest : "")
                + "). The stream cannot resume there without losing the commits in between: start from a fresh progress with "
                + "startingVersion " + (earliest >= 0 ? earliest + " or later" : "latest") + ", or omit startingVersion to read the current snapshot again", cause);
    }

    /** When the source's topics cannot be created. */
    public static TributaryException cannotCreateTopics(String message, String rowTopic, String progressTopic, Throwable cause) {
        return new TributaryException("delta-source: " + message + "; create " + rowTopic + " and " + progressTopic
                + " yourself (" + progressTopic + " with cleanup.policy=compact) or grant the client CREATE", cause);
    }

    /** When the progress topic does not exist. */
    public static TributaryException noProgressTopic(String topic, long seconds) {
        return new TributaryException("delta-source: progress topic " + topic + " does not exist (looked for it for " + seconds
                + " s); it is created at start, check bootstrap.servers and that the client may create topics");
    }

    /** When the producer cannot start Kafka transactions. */
    public static TributaryException cannotStartTransactions(String transactionalId, String message, KafkaException cause) {
        return new TributaryException("delta-source: cannot start Kafka transactions with transactional.id " + transactionalId
                + ": " + message + "; check that the broker is reachable and allows transactions", cause);
    }

    /** When another process took over the transactional.id. */
    public static TributaryException fenced(String transactionalId, Throwable cause) {
        return new TributaryException("delta-source: another process took over transactional.id " + transactionalId
                + " (it was fenced); only one delta-source may read a table for a pipeline: stop the other one. Nothing of "
                + "this batch was published.", cause);
    }

    /** When Kafka left the producer unusable batch after batch, each time on a new producer. */
    public static TributaryException producerKeptFailing(String tablePath, long batchId, int attempts, String error, RuntimeException cause) {
        return new TributaryException("delta-source " + tablePath + ": batch " + batchId + " was not published: Kafka's producer failed "
                + attempts + " times in a row, each time on a new producer that took the transactional id over (last: " + error
                + "); nothing of the batch was published. If the batch takes longer than transaction.timeout.ms, raise it under "
                + "kafka: (at most the broker's transaction.max.timeout.ms) or lower source.delta.maxFilesPerTrigger; else check "
                + "the broker's log (its transaction coordinator), and rerun", cause);
    }

    /** When publishing a batch failed and was rolled back. */
    public static TributaryException publishFailed(String topic, String message, RuntimeException cause) {
        return new TributaryException("delta-source: publishing a batch to " + topic + " failed and was rolled back ("
                + message + "); nothing of it is visible to read_committed consumers, run again", cause);
    }

    /** When the pipeline has no name. */
    public static TributaryException noPipelineName() {
        return new TributaryException("delta-source: the pipeline has no name; give it one (name: ...)");
    }

    /** When no table path is given. */
    public static TributaryException noTablePath(String pipeline) {
        return new TributaryException("delta-source of pipeline " + pipeline + ": no table path; set source.delta.path");
    }

    /** When maxFilesPerTrigger is below 1; {@code sparkDefault} is Spark's default. */
    public static TributaryException maxFilesNotPositive(String pipeline, int files, int sparkDefault) {
        return new TributaryException("delta-source of pipeline " + pipeline + ": maxFilesPerTrigger is " + files
                + "; it must be a positive number of files (Spark's default is " + sparkDefault + ")");
    }

    /** When rowsPerRecord is below 1. */
    public static TributaryException rowsPerRecordNotPositive(String pipeline, int rows) {
        return new TributaryException("delta-source of pipeline " + pipeline + ": rowsPerRecord is " + rows
                + "; it must be a positive number of rows (1: a record per row)");
    }

    /** When maxBytesPerTrigger is negative. */
    public static TributaryException negativeMaxBytes(String pipeline, long bytes) {
        return new TributaryException("delta-source of pipeline " + pipeline + ": maxBytesPerTrigger is " + bytes
                + "; it must be a positive number of bytes, or 0 for no limit");
    }

    /** When a watermark delay is given without an event-time column. */
    public static TributaryException watermarkWithoutEventTime(String pipeline) {
        return new TributaryException("delta-source of pipeline " + pipeline + ": a watermark delay without an event-time "
                + "column; set aggregate.eventTime");
    }
}
