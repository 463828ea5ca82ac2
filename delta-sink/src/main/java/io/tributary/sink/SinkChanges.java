package io.tributary.sink;

import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Mode upsert's change-data settings (Databricks' AUTO CDC): which column orders a key's changes,
 * which rows delete their key, which columns the table does not store, and how long a deleted
 * key's marker is kept ({@code docs/cdc.md}).
 *
 * @param sequenceBy the column whose greatest value wins per key, within and across batches; null: Kafka order within a batch
 * @param deleteWhen {@code column = value} or {@code column IN ('a', 'b')}; null: rows never delete
 * @param exceptColumns columns of the rows the table does not store
 * @param deleteRetention how long a deleted key's marker is kept, from the commit that deleted it
 * @param history SCD type 2: each key keeps its versions, each with {@value #START_AT} and {@value #END_AT} from the sequence
 */
public record SinkChanges(String sequenceBy, String deleteWhen, List<String> exceptColumns, Duration deleteRetention,
                          boolean history) {
    public static final Duration DEFAULT_DELETE_RETENTION = Duration.ofDays(7);
    public static final SinkChanges NONE = new SinkChanges(null, null, List.of(), DEFAULT_DELETE_RETENTION);
    /** The column of a version (history) that holds the sequence from which it is the key's current row. */
    public static final String START_AT = "__START_AT";
    /** The column of a version (history) that holds the sequence from which it no longer is; null for the current row. */
    public static final String END_AT = "__END_AT";

    /** Without history (SCD type 1). */
    public SinkChanges(String sequenceBy, String deleteWhen, List<String> exceptColumns, Duration deleteRetention) {
        this(sequenceBy, deleteWhen, exceptColumns, deleteRetention, false);
    }

    public SinkChanges {
        sequenceBy = sequenceBy == null || sequenceBy.isBlank() ? null : sequenceBy;
        deleteWhen = deleteWhen == null || deleteWhen.isBlank() ? null : deleteWhen;
        exceptColumns = List.copyOf(exceptColumns == null ? List.of() : exceptColumns);
        deleteRetention = deleteRetention == null ? DEFAULT_DELETE_RETENTION : deleteRetention;
    }

    /**
     * The table's columns for rows of {@code rows}: without {@link #exceptColumns}; with {@link #history}, then
     * {@value #START_AT} and {@value #END_AT} of the sequence's type.
     */
    public Schema tableSchema(Schema rows) {
        Schema data = exceptColumns.isEmpty() ? rows
                : new Schema(rows.fields().stream().filter(f -> !exceptColumns.contains(f.name())).toList());
        if (!history || sequenceBy == null || rows.indexOf(sequenceBy) < 0) {
            return data;
        }
        List<Field> fields = new ArrayList<>(data.fields());
        fields.add(new Field(START_AT, rows.field(rows.indexOf(sequenceBy)).type(), true));
        fields.add(new Field(END_AT, rows.field(rows.indexOf(sequenceBy)).type(), true));
        return new Schema(fields);
    }

    /** True if any of them is set, so the upsert applies changes rather than rows. */
    public boolean active() {
        return sequenceBy != null || deleteWhen != null || !exceptColumns.isEmpty() || history;
    }
}
