package io.tributary.service.internal;

import io.tributary.schema.TributaryException;

/** A stop (SIGTERM) came while the run was still waiting for its Kafka cluster: nothing ran, nothing failed. */
public final class StoppedWhileStarting extends TributaryException {
    StoppedWhileStarting(String message) {
        super(message);
    }
}
