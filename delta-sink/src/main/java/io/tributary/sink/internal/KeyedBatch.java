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

    /** Drops what the batch holds outside memory (a batch that failed before its commit). */
    default void discard() {
    }

    /** What a mode does with a batch's collapsed changes at its commit. */
    interface Commit {
        CommitResult commit(BatchChanges changes, SinkOffsets next, long sourceRows);
    }

    /** A batch that collects into {@code collector} and, at its commit, hands the collapsed changes to {@code commit}. */
    static KeyedBatch collecting(BatchChanges.Collector collector, Commit commit) {
        return new KeyedBatch() {
            @Override
            public void add(RecordOrigin origin, Object[] row) {
                collector.add(origin, row);
            }

            @Override
            public CommitResult commit(SinkOffsets next, long sourceRows) {
                return commit.commit(collector.build(), next, sourceRows);
            }

            @Override
            public void discard() {
                if (collector instanceof SpillingCollector spilling) {
                    spilling.discard();
                }
            }
        };
    }
}
