package io.tributary.sink.internal;

import io.tributary.schema.TributaryException;

/**
 * A batch of a sink that shares its topic's partitions with other instances was not committed,
 * and must not be: another instance committed some of its partitions first (it owned them
 * meanwhile), or won the table's creation. Nothing of the batch is in the table; the sink reads
 * its partitions again from the table's offsets.
 */
public final class BatchSuperseded extends TributaryException {
    public BatchSuperseded(String message, Throwable cause) {
        super(message, cause);
    }
}
