package io.tributary.topology.internal;

import io.tributary.schema.TributaryException;
import java.util.concurrent.ExecutionException;

/** The errors of reading the events topic's offsets and the application's committed ones ({@link EventsOffsets}). */
final class OffsetErrors {
    private OffsetErrors() {
    }

    /** When interrupted while reading the events topic's end offsets. */
    static TributaryException interruptedReadingEndOffsets(String eventsTopic, InterruptedException cause) {
        return new TributaryException("interrupted while reading the end offsets of " + eventsTopic, cause);
    }

    /** When the events topic's end offsets cannot be read. */
    static TributaryException cannotReadEndOffsets(String eventsTopic, Throwable reason, ExecutionException cause) {
        return new TributaryException("cannot read the end offsets of " + eventsTopic + ": " + reason, cause);
    }

    /** When interrupted while reading the application's committed offsets. */
    static TributaryException interruptedReadingCommitted(String applicationId, InterruptedException cause) {
        return new TributaryException("interrupted while reading the offsets of " + applicationId, cause);
    }

    /** When the application's committed offsets cannot be read. */
    static TributaryException cannotReadCommitted(String applicationId, Throwable reason, ExecutionException cause) {
        return new TributaryException("cannot read the committed offsets of " + applicationId + ": " + reason, cause);
    }
}
