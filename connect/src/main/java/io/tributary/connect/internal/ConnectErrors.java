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
}
