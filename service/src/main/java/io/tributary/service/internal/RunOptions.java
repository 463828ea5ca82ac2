package io.tributary.service.internal;

import java.util.function.BooleanSupplier;

/**
 * How a run treats its state.
 *
 * @param reprocess accept that a lost state means every input file is read and written again
 * @param lock the state lock, when the caller took it first (before binding the HTTP port); null: the pipeline takes it
 * @param stopRequested true once the process was asked to stop: ends a wait for the Kafka cluster at once
 */
public record RunOptions(boolean reprocess, StateLock lock, BooleanSupplier stopRequested) {
    public static final RunOptions DEFAULT = new RunOptions(false, null, () -> false);
}
