package io.tributary.expressions.internal;

import java.time.Instant;

/**
 * The start of the batch a transform runs, which Spark's {@code current_timestamp()} and its cousins read: one value
 * for every row of a micro-batch. The source sets it when it starts a batch, before the batch's first row; a row
 * evaluated before any batch started is a defect of the source, not of the row.
 */
public final class BatchClock {
    private volatile Instant start;
    private volatile boolean read;

    /** Sets the start of the batch the next rows belong to. */
    public void start(Instant batchStart) {
        this.start = batchStart;
    }

    /** Whether an expression of the transform reads the batch's start. */
    public boolean read() {
        return read;
    }

    void markRead() {
        read = true;
    }

    /** The batch's start, in Spark's precision for it: milliseconds (its {@code batchTimestampMs}). */
    long millis() {
        Instant t = start;
        if (t == null) {
            throw new IllegalStateException("a row was evaluated before its source started a batch: no batch start time is set");
        }
        return t.toEpochMilli();
    }
}
