package io.tributary.sink;

import io.tributary.settings.Setting;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The Delta sink's settings under their own names; a spec writes them under {@code sink.delta.},
 * the Delta sink connector as they are (the path as {@code delta.path}). {@link SinkConfig.Builder#settings} reads them.
 */
public final class SinkSettings {
    public static final Setting<String> PATH = Setting.path("path", "the Delta table's folder; created on the first write").required();
    public static final Setting<String> MODE = Setting.oneOf("mode", "append every row, or MERGE by key (upsert)", "append", "upsert")
            .withDefault("append");
    public static final Setting<List<String>> KEYS = Setting.list("keys", "the key columns of mode upsert");
    public static final Setting<String> ORDER = Setting.string("order",
            "mode upsert: the column whose largest value wins among rows of one key (default: the last in Kafka order)");
    public static final Setting<String> SEQUENCE_BY = Setting.string("sequenceBy", "mode upsert, change data (AUTO CDC's SEQUENCE"
            + " BY): the column whose greatest value wins per key, within a batch and across batches; kept in the table, and a"
            + " change not above the key's stored value is skipped");
    public static final Setting<String> DELETE_WHEN = Setting.string("deleteWhen", "mode upsert, change data (AUTO CDC's APPLY AS"
            + " DELETE WHEN): a Spark SQL condition over the row's columns, e.g. op = 'd'; a row where it is true deletes its key"
            + " instead of upserting it");
    public static final Setting<List<String>> EXCEPT_COLUMNS = Setting.list("exceptColumns", "mode upsert: columns of the rows not"
            + " stored in the table (AUTO CDC's COLUMNS * EXCEPT), e.g. [op]; not the keys nor sequenceBy");
    public static final Setting<Duration> DELETE_RETENTION = Setting.duration("deleteRetention", "mode upsert with sequenceBy and"
            + " deleteWhen: how long a deleted key's marker (its sequence) is kept, from the commit that deleted it, so a late change"
            + " does not bring the key back").withDefault("7 days");
    public static final Setting<Boolean> HISTORY = Setting.bool("history", "mode upsert with sequenceBy: keep every version of"
            + " each key, with __START_AT and __END_AT from the sequence (AUTO CDC's STORED AS SCD TYPE 2); false: the latest row"
            + " alone").withDefault("false");
    public static final Setting<List<String>> TRACK_HISTORY_COLUMNS = Setting.list("trackHistoryColumns", "history: only a change of"
            + " these columns opens a new version (AUTO CDC's TRACK HISTORY ON col, ...); a change of the others alone updates the"
            + " current version in place; default: every change opens one");
    public static final Setting<List<String>> TRACK_HISTORY_EXCEPT_COLUMNS = Setting.list("trackHistoryExceptColumns", "history:"
            + " a change of these columns alone updates the current version in place instead of opening a new one (AUTO CDC's TRACK"
            + " HISTORY ON * EXCEPT (col, ...)); not with trackHistoryColumns");
    public static final Setting<Map<String, String>> PROPERTIES = Setting.map("properties",
            "Delta table properties set when the table is created, e.g. delta.checkpointInterval");
    public static final Setting<List<String>> PARTITION_BY = Setting.list("partitionBy", "partition columns, set when the table is"
            + " created: a column, or a day of an event time, e.g. date(ts) as day (UTC); Hive-style col=value/ folders");
    public static final Setting<Integer> OPTIMIZE_EVERY = Setting.integer("optimizeEvery", "compact the table's small files (tributary"
            + " optimize, dataChange=false) in the background after every N sink commits; 0: never").withDefault("0").within(0, Integer.MAX_VALUE);
    public static final Setting<Long> TARGET_FILE_SIZE = Setting.bytes("targetFileSize", "the size of the Parquet files the sink writes"
            + " (a batch larger than this is split) and that sink.delta.optimizeEvery compacts to").withDefault("128m").within(1, Long.MAX_VALUE);
    public static final Setting<Duration> ALLOWED_LATENCY = Setting.duration("allowedLatency", "beyond Spark, continuous triggers only:"
            + " let new rows wait up to this long in the topic to fill a file of targetFileSize, so a slow stream writes fewer, larger"
            + " files; 0: commit every batch (Spark)").withDefault("0 seconds");
    public static final Setting<Boolean> ALLOW_NON_EMPTY_PATH = Setting.bool("allowNonEmptyPath", "create the table in a folder that"
            + " holds other files but no _delta_log (refused by default: they are not the table's); vacuum never deletes them")
            .withDefault("false");
    public static final Setting<Boolean> MERGE_SCHEMA = Setting.bool("mergeSchema", "add the pipeline's new columns to an existing"
            + " table, nullable, in the commit of the first rows that carry them (Delta's mergeSchema); false: such a table is refused"
            + " with both schemas shown. A table's columns the pipeline lacks are written null either way").withDefault("false");
    public static final Setting<Integer> ROWS_PER_FILE = Setting.integer("rowsPerFile", "mode upsert: at most this many rows per"
            + " Parquet file written, sorted by key, so a batch rewrites few rows").withDefault(String.valueOf(SinkConfig.DEFAULT_ROWS_PER_FILE))
            .within(1, Integer.MAX_VALUE);

    /** The settings a pipeline spec takes, in the order the documentation lists them. */
    public static final List<Setting<?>> ALL = List.of(PATH, MODE, KEYS, ORDER, SEQUENCE_BY, DELETE_WHEN,
            EXCEPT_COLUMNS, DELETE_RETENTION, HISTORY, TRACK_HISTORY_COLUMNS, TRACK_HISTORY_EXCEPT_COLUMNS, PROPERTIES, PARTITION_BY, OPTIMIZE_EVERY,
            TARGET_FILE_SIZE, ALLOWED_LATENCY, ALLOW_NON_EMPTY_PATH, MERGE_SCHEMA);

    private SinkSettings() {
    }
}
