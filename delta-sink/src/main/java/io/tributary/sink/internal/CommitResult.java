package io.tributary.sink.internal;

import java.util.Map;

/**
 * What {@link DeltaTableWriter#append} (or a rewriting mode) did.
 *
 * @param committed false when the table already held this batch (its txn version), so nothing was written
 * @param version the new table version; when not committed, the table's latest version
 * @param files Parquet files added
 * @param writeMs time to write the Parquet files
 * @param commitMs time to commit the Delta version (hooks excluded)
 * @param hooksMs time spent in post-commit hooks (checkpoint, checksum)
 * @param metrics mode-specific counts for the progress record (e.g. a MERGE's {@code numTargetFilesRemoved}); empty for appends
 */
public record CommitResult(boolean committed, long version, int files, long writeMs, long commitMs, long hooksMs,
                           Map<String, Object> metrics) {
    public CommitResult(boolean committed, long version, int files, long writeMs, long commitMs, long hooksMs) {
        this(committed, version, files, writeMs, commitMs, hooksMs, Map.of());
    }

    static CommitResult alreadyCommitted(long version) {
        return new CommitResult(false, version, 0, 0, 0, 0);
    }
}
