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
 * @param trackHistory with history, the columns whose changes open a new version (AUTO CDC's TRACK HISTORY ON)
 */
public record SinkChanges(String sequenceBy, String deleteWhen, List<String> exceptColumns, Duration deleteRetention,
                          boolean history, TrackHistory trackHistory) {
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

    /** With history or without, every change of a key opening a version. */
    public SinkChanges(String sequenceBy, String deleteWhen, List<String> exceptColumns, Duration deleteRetention, boolean history) {
        this(sequenceBy, deleteWhen, exceptColumns, deleteRetention, history, TrackHistory.EVERY_CHANGE);
    }

    /**
     * Which changes of a key open a new version of its history (AUTO CDC's {@code TRACK HISTORY ON}): those that change
     * one of {@code columns}, or one of the table's columns other than {@code exceptColumns} (and other than the keys and
     * {@code sequenceBy}); a change that leaves them as the version before it had them is folded into that version (its
     * other columns take the latest change's values, its {@value #START_AT} stays). {@link #EVERY_CHANGE}: each change
     * opens one. One of the two lists at most.
     */
    public record TrackHistory(List<String> columns, List<String> exceptColumns) {
        public static final TrackHistory EVERY_CHANGE = new TrackHistory(List.of(), List.of());

        public TrackHistory {
            columns = List.copyOf(columns == null ? List.of() : columns);
            exceptColumns = List.copyOf(exceptColumns == null ? List.of() : exceptColumns);
        }

        /** True if a change may be folded into the version before it. */
        public boolean selective() {
            return !columns.isEmpty() || !exceptColumns.isEmpty();
        }

        /**
         * The indexes in {@code data} (the table's columns without {@value #START_AT} and {@value #END_AT}) of the tracked
         * columns; null when every change opens a version.
         */
        public int[] tracked(Schema data, List<String> keys, String sequenceBy) {
            if (!selective()) {
                return null;
            }
            return data.fields().stream().map(Field::name)
                    .filter(n -> columns.isEmpty() ? !exceptColumns.contains(n) && !keys.contains(n) && !n.equals(sequenceBy)
                            : columns.contains(n))
                    .mapToInt(data::indexOf).toArray();
        }
    }

    /** These changes with {@code track} as their {@link #trackHistory}. */
    public SinkChanges withTrackHistory(TrackHistory track) {
        return new SinkChanges(sequenceBy, deleteWhen, exceptColumns, deleteRetention, history, track);
    }

    public SinkChanges {
        sequenceBy = sequenceBy == null || sequenceBy.isBlank() ? null : sequenceBy;
        deleteWhen = deleteWhen == null || deleteWhen.isBlank() ? null : deleteWhen;
        exceptColumns = List.copyOf(exceptColumns == null ? List.of() : exceptColumns);
        deleteRetention = deleteRetention == null ? DEFAULT_DELETE_RETENTION : deleteRetention;
        trackHistory = trackHistory == null ? TrackHistory.EVERY_CHANGE : trackHistory;
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
