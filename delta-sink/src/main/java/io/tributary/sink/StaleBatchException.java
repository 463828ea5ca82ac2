package io.tributary.sink;

import io.tributary.schema.TributaryException;

/**
 * A {@link PartitionSink} batch that must not be committed: the table's offsets of one of its
 * partitions are not where the batch starts (another writer committed them, e.g. the task that
 * owns the partition since a rebalance), or its commit lost a race to such a writer. Nothing of
 * the batch is in the table; the caller reads the table's offsets again and goes on from there.
 */
public final class StaleBatchException extends TributaryException {
    public StaleBatchException(String message) {
        super(message);
    }

    public StaleBatchException(String message, Throwable cause) {
        super(message, cause);
    }
}
