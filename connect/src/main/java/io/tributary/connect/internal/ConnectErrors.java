package io.tributary.connect.internal;

import io.tributary.schema.BadRecordException;
import io.tributary.schema.TributaryException;
import org.apache.kafka.common.TopicPartition;

/** The connectors' user-facing errors about the records they are given. */
public final class ConnectErrors {
    private ConnectErrors() {
    }

    /** When an upsert sink is given a record with neither a value nor a key. */
    public static TributaryException noValueNorKey(String connector, TopicPartition partition, long offset) {
        return new TributaryException("delta sink " + connector + ": record " + partition + "@" + offset
                + " has neither a value nor a key; a tombstone's key names the row to delete, e.g. [3]");
    }

    /** When an appending sink is given a record without a value. */
    public static BadRecordException tombstone() {
        return new BadRecordException(null, "the record has no value (a tombstone); an appended table takes rows only");
    }

    /** When a row after the first of a packed record does not fit the schema: {@code bad}, named by its place. */
    public static BadRecordException badPackedRow(int row, BadRecordException bad) {
        return new BadRecordException(bad.field(), "row " + row + " of the record: " + bad.reason());
    }

    /** When a record's value or key cannot be written as JSON. */
    public static BadRecordException notJson(String message) {
        return new BadRecordException(null, "the value cannot be written as JSON: " + message);
    }

    /** When a join's table ({@code join.table}) is not a Delta table (any more). */
    public static TributaryException noJoinTable(String location) {
        return new TributaryException("there is no Delta table at '" + location + "' (no _delta_log); join.table names the path"
                + " every worker reaches, or the URI, of a Delta table");
    }
    /** When {@code sql} and one of the keys its query stands for ({@code where}, {@code select}, {@code join}) are both given. */
    public static TributaryException sqlWithTransform(String key, String sqlKey) {
        return new TributaryException("key '" + key + "' and the query of " + sqlKey + " both transform the rows; write the transform"
                + " once: as the query (its JOIN, WHERE and select list), or as join, where and select without " + sqlKey);
    }

    /** When a connector's query groups rows: a connector runs no aggregation. */
    public static TributaryException sqlGroupBy(String sqlKey, String connector, String at) {
        return new TributaryException(sqlKey + ": the query's GROUP BY (at " + at + " of the query) aggregates over event-time windows,"
                + " which the " + connector + " does not run (it keeps no state between records); remove GROUP BY, or run the"
                + " aggregation with tributary run (its sql: takes the same query, with aggregate.watermark)");
    }

    /** When the file source connector is given neither a schema nor {@code options.singleVariantColumn}. */
    public static TributaryException fileSourceNoSchema(String schemaKey, String optionKey) {
        return new TributaryException("the file source connector needs " + schemaKey + ", the rows' schema as a Spark DDL string (e.g."
                + " \"id INT, user STRING\"), or " + optionKey + " (each whole line one VARIANT column of that name); give one of them");
    }

    /**
     * When the file source connector is given {@code dropDuplicates}: Spark's state of the keys seen cannot be kept exactly
     * once by its tasks; the Delta sink connector's {@code dropDuplicates.keys} can.
     */
    public static TributaryException fileSourceDropDuplicates(String key) {
        return new TributaryException(key + " is not taken by the file source connector: Spark's dropDuplicates keeps every key it"
                + " has seen (until the watermark passes it) and updates that state in the same commit as the rows, but the"
                + " connector's tasks share the files by name and keep no shared state they could update in their own transaction,"
                + " so two tasks could both publish a key; drop duplicates where the rows are written: the Delta sink connector's"
                + " dropDuplicates.keys (exactly once across tasks and restarts, the table is the state), or tributary run's"
                + " transform.dropDuplicates (with withinWatermark)");
    }
}
