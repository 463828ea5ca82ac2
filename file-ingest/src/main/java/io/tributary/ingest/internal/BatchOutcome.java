package io.tributary.ingest.internal;

import java.util.List;

/**
 * A committed batch: its files (empty for a no-data batch), the watermark its markers carry
 * (null without a watermark), the files left for later because they changed while read, and
 * how long publishing and committing took.
 */
public record BatchOutcome(long batchId, List<FileResult> files, Long watermarkMs, int markers,
                           List<String> changedWhileReading, long publishMs, long commitMs) {
    public long rows() {
        return files.stream().mapToLong(FileResult::rows).sum();
    }

    /** The rows the transform took in (Spark's numInputRows): {@link #rows()} unless a generator or join made several of one. */
    public long inputRows() {
        return files.stream().mapToLong(FileResult::inputRows).sum();
    }

    public long badRows() {
        return files.stream().mapToLong(FileResult::badRows).sum();
    }

    /** The records that gave no row and are no bad record: Debezium's tombstones and truncate events. */
    public long skipped() {
        return files.stream().mapToLong(FileResult::skipped).sum();
    }

    public long deadLettered() {
        return files.stream().mapToLong(FileResult::deadLettered).sum();
    }

    public long bytes() {
        return files.stream().mapToLong(FileResult::bytesRead).sum();
    }
}
