package io.tributary.expressions.internal;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The start of the batch a transform runs, which Spark's {@code current_timestamp()} and its cousins read: one value
 * for every row of a micro-batch. The source sets it when it starts a batch, before the batch's first row; a row
 * evaluated before any batch started is a defect of the source, not of the row.
 */
public final class BatchClock {
    /** The batch's start as a TIMESTAMP's value and as a DATE's (UTC), made once per batch; null before the first. */
    private volatile Values values;
    private volatile boolean read;
    /** What restarts with each batch: the generators of the random functions. */
    private final List<Runnable> onStart = new CopyOnWriteArrayList<>();

    private record Values(Long micros, Integer days) {
    }

    /** Sets the start of the batch the next rows belong to, in Spark's precision for it: milliseconds ({@code batchTimestampMs}). */
    public void start(Instant batchStart) {
        long ms = batchStart.toEpochMilli();
        values = new Values(Math.multiplyExact(ms, 1000L), (int) Math.floorDiv(ms, 86_400_000L));
        onStart.forEach(Runnable::run);
    }

    /** Runs {@code restart} at the start of every batch. */
    void onStart(Runnable restart) {
        onStart.add(restart);
    }

    /** Whether an expression of the transform reads the batch's start. */
    public boolean read() {
        return read;
    }

    void markRead() {
        read = true;
    }

    /** The batch's start in microseconds since the epoch. */
    Long micros() {
        return values().micros();
    }

    /** The day of the batch's start in UTC, in days since the epoch. */
    Integer days() {
        return values().days();
    }

    private Values values() {
        Values v = values;
        if (v == null) {
            throw new IllegalStateException("a row was evaluated before its source started a batch: no batch start time is set");
        }
        return v;
    }
}
