package io.tributary.sink;

import io.tributary.schema.Schema;
import java.time.Duration;
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
 */
public record SinkChanges(String sequenceBy, String deleteWhen, List<String> exceptColumns, Duration deleteRetention) {
    public static final Duration DEFAULT_DELETE_RETENTION = Duration.ofDays(7);
    public static final SinkChanges NONE = new SinkChanges(null, null, List.of(), DEFAULT_DELETE_RETENTION);

    public SinkChanges {
        sequenceBy = sequenceBy == null || sequenceBy.isBlank() ? null : sequenceBy;
        deleteWhen = deleteWhen == null || deleteWhen.isBlank() ? null : deleteWhen;
        exceptColumns = List.copyOf(exceptColumns == null ? List.of() : exceptColumns);
        deleteRetention = deleteRetention == null ? DEFAULT_DELETE_RETENTION : deleteRetention;
    }

    /** The table's columns for rows of {@code rows}: without {@link #exceptColumns}. */
    public Schema tableSchema(Schema rows) {
        if (exceptColumns.isEmpty()) {
            return rows;
        }
        return new Schema(rows.fields().stream().filter(f -> !exceptColumns.contains(f.name())).toList());
    }

    /** True if any of them is set, so the upsert applies changes rather than rows. */
    public boolean active() {
        return sequenceBy != null || deleteWhen != null || !exceptColumns.isEmpty();
    }
}
