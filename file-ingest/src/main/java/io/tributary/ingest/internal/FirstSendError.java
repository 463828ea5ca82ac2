package io.tributary.ingest.internal;

import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;

/**
 * The first error a record of the open transaction got, passed as every send's callback. Once a
 * record failed the transaction cannot commit, so the batch stops sending ({@link #check}): with
 * the broker gone each further send would wait out {@code max.block.ms} for metadata. The error is
 * also why the batch failed, where the commit says only that the producer is in an error state
 * (for rows sent but never acknowledged, Kafka's abortable error has no cause).
 */
final class FirstSendError implements Callback {
    private volatile Exception first;

    @Override
    public void onCompletion(RecordMetadata metadata, Exception e) {
        if (e != null && first == null) {
            first = e;
        }
    }

    /** For a new transaction. */
    void reset() {
        first = null;
    }

    /** The first record error since {@link #reset}, or null. */
    Exception first() {
        return first;
    }

    /** Throws when a record of the open transaction failed. */
    void check() {
        Exception e = first;
        if (e != null) {
            throw new KafkaException("a record of the batch was not acknowledged", e);
        }
    }
}
