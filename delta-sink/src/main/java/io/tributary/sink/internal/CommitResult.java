package io.tributary.sink.internal;

/**
 * What {@link DeltaTableWriter#append} did.
 *
 * @param committed false when the table already held this batch (its txn version), so nothing was written
 * @param version the new table version; when not committed, the table's latest version
 * @param files Parquet files added
 * @param writeMs time to write the Parquet files
 * @param commitMs time to commit the Delta version (hooks excluded)
 * @param hooksMs time spent in post-commit hooks (checkpoint, checksum)
 */
public record CommitResult(boolean committed, long version, int files, long writeMs, long commitMs, long hooksMs) {
    static CommitResult alreadyCommitted(long version) {
        return new CommitResult(false, version, 0, 0, 0, 0);
    }
}
