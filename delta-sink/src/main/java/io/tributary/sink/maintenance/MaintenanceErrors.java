package io.tributary.sink.maintenance;

import io.tributary.schema.TributaryException;
import java.time.Duration;
import java.util.List;

/** The errors of the table maintenance commands (optimize, vacuum, describe): a table that is not there, options that cannot work, commits that keep losing. */
final class MaintenanceErrors {
    private MaintenanceErrors() {
    }

    /** When optimizeEvery is negative. */
    static TributaryException badOptimizeEvery(int every) {
        return new TributaryException("sink.delta.optimizeEvery is " + every + "; use 0 (off) or a number of commits, e.g. "
                + "100");
    }

    /** When an optimize filter is not an equality on a partition column. */
    static TributaryException notAnEquality(String where, String part) {
        return new TributaryException("optimize --where '" + where + "': '" + part + "' is not an equality on a partition "
                + "column; write e.g. day = '2024-05-01' (several joined by AND)");
    }

    /** When an optimize filter names a column that does not partition the table. */
    static TributaryException notAPartitionColumn(String where, String group, List<String> partitionColumns) {
        return new TributaryException("optimize --where '" + where + "': '" + group
                + "' is not a partition column of the table "
                + (partitionColumns.isEmpty() ? "(it has none, so optimize the whole table)" : partitionColumns)
                + "; Delta's OPTIMIZE WHERE takes partition columns only");
    }

    /** When vacuum finds no Delta table. */
    static TributaryException vacuumNoTable(String tablePath) {
        return new TributaryException("vacuum: no Delta table at " + tablePath + " (no _delta_log with a commit); give the "
                + "folder of an existing table");
    }

    /** When vacuum's retention is negative. */
    static TributaryException negativeRetention(Duration retain) {
        return new TributaryException("vacuum: --retain is negative (" + retain + "); give 0 or more, e.g. 168h");
    }

    /** When vacuum's retention is below the table's, without the check turned off. */
    static TributaryException retentionTooShort(String tablePath, String retain, String retentionProperty, String configured,
                                                String tableRetention) {
        return new TributaryException("vacuum " + tablePath + ": are you sure you would like to vacuum files with such a low "
                + "retention period (" + retain + ", below the table's " + retentionProperty + " of " + configured
                + ")? If writers are currently writing to this table (a running sink, an optimize) or readers are reading an "
                + "older version, deleting the files they still need corrupts their work. If you are certain that no "
                + "operation is running on this table, add --force (Spark: "
                + "spark.databricks.delta.retentionDurationCheck.enabled = false); if you are not sure, use a value not less "
                + "than \"" + tableRetention + "\"");
    }

    /** When vacuum cannot read which files the log references. */
    static TributaryException vacuumCannotReadLog(String tablePath, String message, RuntimeException cause) {
        return new TributaryException("vacuum " + tablePath + ": cannot read which files the log references (" + message
                + "); nothing was deleted. Vacuum it with the engine that wrote it", cause);
    }

    /** When vacuum is asked of a catalog-managed table. */
    static TributaryException vacuumCatalogManaged(String tablePath, String protocol) {
        return new TributaryException("vacuum " + tablePath + ": the table is catalog-managed (protocol " + protocol
                + "); its catalog owns its commits, so vacuum it through the catalog's engine, not by path");
    }

    /** When optimize's target file size is not positive. */
    static TributaryException badTargetFileSize(long targetFileSize) {
        return new TributaryException("optimize: target file size is " + targetFileSize + " bytes; give a positive size, e.g. "
                + "128m");
    }

    /** When optimize's maxAttempts is below 1. */
    static TributaryException badMaxAttempts(int maxAttempts) {
        return new TributaryException("optimize: maxAttempts is " + maxAttempts + "; use 1 or more");
    }

    /** When describe finds no Delta table. */
    static TributaryException describeNoTable(String path) {
        return new TributaryException("describe: no Delta table at " + path + " (no _delta_log with a commit); give the "
                + "folder of an existing table");
    }

    /** When a duration option is not a duration. */
    static TributaryException notADuration(String what, String text) {
        return new TributaryException(what + ": '" + text + "' is not a duration; write e.g. 168h, 7d, or \"interval 1 week\"");
    }

    /** When optimize finds no Delta table. */
    static TributaryException optimizeNoTable(String tablePath) {
        return new TributaryException("optimize: no Delta table at " + tablePath + " (no _delta_log with a commit); give the "
                + "folder of an existing table");
    }

    /** When every attempt of optimize met a concurrent commit. */
    static TributaryException optimizeAttemptsExhausted(String tablePath, int maxAttempts) {
        return new TributaryException("optimize " + tablePath + ": every one of " + maxAttempts + " attempts met a concurrent "
                + "commit that removed or changed files being compacted; the table is unchanged. Run it again when the other "
                + "writer (an upsert, a DELETE, another optimize) is quieter");
    }

    /** When the table disappeared during a compaction. */
    static TributaryException tableDisappeared(String tablePath) {
        return new TributaryException("optimize: the Delta table at " + tablePath + " disappeared during the compaction");
    }
}
