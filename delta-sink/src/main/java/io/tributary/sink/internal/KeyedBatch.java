package io.tributary.sink.internal;

import io.tributary.sink.SinkOffsets;

/**
 * A keyed mode's batch, collapsed to one change per key while the sink reads it
 * ({@link TopicReader#readKeyed}), so that the batch's superseded rows and its records' origins
 * are never all in memory; for batches whose records come in Kafka order (one partition).
 */
public interface KeyedBatch {
    /** The next record in Kafka order: its origin, and its row or null for a tombstone. */
    void add(RecordOrigin origin, Object[] row);

    /**
     * Writes and commits the batch as {@link WriteMode#write} does.
     *
     * @param sourceRows the records read (for the progress metrics)
     */
    CommitResult commit(SinkOffsets next, long sourceRows);
}
