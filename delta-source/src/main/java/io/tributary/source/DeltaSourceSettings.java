package io.tributary.source;

import io.tributary.settings.Setting;
import java.util.List;

/**
 * The Delta source's settings under their own names; a spec writes them under {@code source.delta.}.
 * {@link DeltaSourceConfig.Builder#settings} reads them.
 */
public final class DeltaSourceSettings {
    public static final Setting<String> PATH = Setting.path("path",
            "a Delta source: the table to read as a stream (Spark's readStream.format(\"delta\").load(path))");
    public static final Setting<String> STARTING_VERSION = Setting.string("startingVersion",
            "a number or latest; absent: the table's current rows, then new commits (Spark's startingVersion)");
    public static final Setting<Boolean> SKIP_CHANGE_COMMITS = Setting.bool("skipChangeCommits",
            "skip commits that update or delete rows (Spark's skipChangeCommits)").withDefault("false");
    public static final Setting<Boolean> IGNORE_DELETES = Setting.bool("ignoreDeletes",
            "skip commits that only remove whole files (Spark's ignoreDeletes)").withDefault("false");
    public static final Setting<Boolean> READ_CHANGE_FEED = Setting.bool("readChangeFeed",
            "read the change data feed: rows with _change_type, _commit_version, _commit_timestamp (Spark's readChangeFeed)")
            .withDefault("false");
    public static final Setting<Integer> MAX_FILES = Setting.integer("maxFilesPerTrigger",
            "at most this many table files per batch (Spark's maxFilesPerTrigger)").withDefault("1000").within(1, Integer.MAX_VALUE);
    public static final Setting<Long> MAX_BYTES = Setting.bytes("maxBytesPerTrigger",
            "at most about this many bytes of table files per batch (Spark's maxBytesPerTrigger)").within(1, Long.MAX_VALUE);
    public static final Setting<Integer> ROWS_PER_RECORD = Setting.integer("rowsPerRecord",
            "rows packed into one events record, as source.files.rowsPerRecord; 1: a record per row").withDefault("1000")
            .within(1, Integer.MAX_VALUE);

    /** Every setting, in the order the documentation lists them. */
    public static final List<Setting<?>> ALL = List.of(PATH, STARTING_VERSION, SKIP_CHANGE_COMMITS, IGNORE_DELETES, READ_CHANGE_FEED,
            MAX_FILES, MAX_BYTES, ROWS_PER_RECORD);

    private DeltaSourceSettings() {
    }
}
