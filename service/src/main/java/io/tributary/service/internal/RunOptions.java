package io.tributary.service.internal;

import java.util.function.BooleanSupplier;

/**
 * How a run treats its state.
 *
 * @param reprocess accept that a lost state means every input file is read and written again
 * @param lock the state lock, when the caller took it first (before binding the HTTP port); null: the pipeline takes it
 * @param stopRequested true once the process was asked to stop: ends a wait for the Kafka cluster at once
 * @param acceptSpecChange on a Kafka cluster with no instance of the pipeline running: run with defining settings that
 *        differ from those its instances last ran with, and record them as the pipeline's ({@link PipelineRegistry})
 */
public record RunOptions(boolean reprocess, StateLock lock, BooleanSupplier stopRequested, boolean acceptSpecChange) {
    public static final RunOptions DEFAULT = new RunOptions(false, null, () -> false, false);
}
