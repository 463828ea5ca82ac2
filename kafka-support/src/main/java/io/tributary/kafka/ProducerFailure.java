package io.tributary.kafka;

import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.InvalidPidMappingException;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.InvalidTxnStateException;
import org.apache.kafka.common.errors.OutOfOrderSequenceException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.TransactionAbortableException;

/**
 * What a transactional producer's failure means for the batch it was publishing, as a stage that
 * publishes each batch in one transaction (the file ingest, the Delta source) acts on it.
 *
 * <p>Kafka 4.4 (client and broker, {@code transaction.version} 2) says, as {@code ProducerFailureTest} records: a
 * transaction the coordinator aborted because it stayed open past {@code transaction.timeout.ms} fails its commit
 * with {@link InvalidTxnStateException}, or with {@link InvalidProducerEpochException} when a record was sent after
 * the abort; a second producer that took the transactional id fails the first's commit with
 * {@link ProducerFencedException}, or with the same {@link InvalidProducerEpochException} when a record was sent
 * after it. Both leave the producer unusable. The epoch error is told apart by how long the transaction was open:
 * the coordinator aborts only a transaction older than its timeout, which this side's clock, started before the
 * coordinator's, has then seen too.
 */
public enum ProducerFailure {
    /** Another producer took the transactional id (or the producer lost its rights): the stage stops; trying again would fence the other. */
    FENCED,
    /**
     * The producer cannot go on, but no other took over: a new producer with the same transactional id (whose
     * {@code initTransactions()} aborts what this one left open) runs the batch again from its start.
     */
    REPLACE,
    /** Anything else: Kafka's retriable errors, a record refused, an error of the stage's own. */
    OTHER;

    /**
     * What {@code e} (or a cause of it) means for a batch whose transaction was open {@code openMs} when it failed,
     * under the producer's {@code transaction.timeout.ms} of {@code transactionTimeoutMs}.
     */
    public static ProducerFailure of(Throwable e, long openMs, long transactionTimeoutMs) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof ProducerFencedException || t instanceof AuthorizationException) {
                return FENCED;
            }
            if (t instanceof InvalidProducerEpochException) {
                return openMs >= transactionTimeoutMs ? REPLACE : FENCED;
            }
            if (t instanceof InvalidTxnStateException || t instanceof OutOfOrderSequenceException // UnknownProducerIdException too
                    || t instanceof InvalidPidMappingException || t instanceof TransactionAbortableException) {
                return REPLACE;
            }
        }
        return OTHER;
    }

    /** The innermost cause of {@code e}, its class and message, as a log line names what Kafka said. */
    public static String describe(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getClass().getSimpleName() + ": " + t.getMessage();
    }

    /** The {@code transaction.timeout.ms} that {@code producerProps} give a producer: Kafka's default, 60 s, when they give none. */
    public static long transactionTimeoutMs(java.util.Map<String, ?> producerProps) {
        Object v = producerProps.get("transaction.timeout.ms");
        return v == null ? 60_000 : Long.parseLong(String.valueOf(v).trim());
    }
}
