package io.tributary.sink.maintenance;

import io.tributary.storage.Storage;

/**
 * How {@link Optimize} compacts.
 *
 * @param targetFileSize the size of the files it writes; files smaller than half of it are compacted. Default {@link #DEFAULT_TARGET_FILE_SIZE}
 * @param where null for the whole table, or equalities on partition columns joined by AND, e.g. {@code day = '2024-05-01'}
 *              (Delta's {@code OPTIMIZE ... WHERE}, which also takes only partition columns)
 * @param maxAttempts how many times a compaction is planned and written again when a concurrent commit removed a file it compacts
 * @param storage the settings of the table's file system (object storage); {@link Storage#NONE} by default
 */
public record OptimizeOptions(long targetFileSize, String where, int maxAttempts, Storage storage) {
    /** 128 MiB, Delta's and Kernel's default; the sink's too. */
    public static final long DEFAULT_TARGET_FILE_SIZE = io.tributary.sink.SinkConfig.DEFAULT_TARGET_FILE_SIZE;

    public OptimizeOptions {
        if (targetFileSize <= 0) {
            throw MaintenanceErrors.badTargetFileSize(targetFileSize);
        }
        if (maxAttempts < 1) {
            throw MaintenanceErrors.badMaxAttempts(maxAttempts);
        }
        where = where == null || where.isBlank() ? null : where.trim();
        storage = storage == null ? Storage.NONE : storage;
    }

    public OptimizeOptions(long targetFileSize, String where, int maxAttempts) {
        this(targetFileSize, where, maxAttempts, Storage.NONE);
    }

    /** The defaults: 128 MiB files, the whole table, 5 attempts. */
    public static OptimizeOptions defaults() {
        return new OptimizeOptions(DEFAULT_TARGET_FILE_SIZE, null, 5);
    }

    public OptimizeOptions withTargetFileSize(long bytes) {
        return new OptimizeOptions(bytes, where, maxAttempts, storage);
    }

    public OptimizeOptions withWhere(String predicate) {
        return new OptimizeOptions(targetFileSize, predicate, maxAttempts, storage);
    }

    /** The settings of the table's file system (object storage). */
    public OptimizeOptions withStorage(Storage settings) {
        return new OptimizeOptions(targetFileSize, where, maxAttempts, settings);
    }
}
