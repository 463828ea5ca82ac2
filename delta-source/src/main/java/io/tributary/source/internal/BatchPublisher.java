package io.tributary.source.internal;

import io.tributary.kafka.ProducerFailure;
import io.tributary.schema.CrashPoint;
import io.tributary.schema.TributaryException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A transactional producer that publishes one batch (its rows, then the source's progress record and
 * the batch's watermark markers) in one Kafka transaction: a reader with {@code read_committed} sees both or neither. A second
 * instance with the same transactional id fences this one. After a failed {@link #publish}, {@link #lastFailure} says
 * whether the producer was fenced, is to be replaced, or neither ({@link ProducerFailure}).
 */
public final class BatchPublisher implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BatchPublisher.class);

    /** The rows of a batch, sent inside the open transaction. */
    public interface Rows {
        void publish(Consumer<ProducerRecord<byte[], byte[]>> send);
    }

    private final KafkaProducer<byte[], byte[]> producer;
    private final String transactionalId;
    private final long transactionTimeoutMs;
    /** When the last transaction began (System.nanoTime). */
    private long beganNanos;
    /** What the last failed {@link #publish} meant for the producer, or null. */
    private ProducerFailure lastFailure;

    public BatchPublisher(Map<String, Object> clientProps, String transactionalId) {
        Map<String, Object> props = new HashMap<>();
        for (Map.Entry<String, Object> e : clientProps.entrySet()) {
            String k = e.getKey();
            if (!k.equals("group.id") && !k.equals("isolation.level") && !k.equals("auto.offset.reset")
                    && !k.equals("enable.auto.commit") && !k.equals("group.instance.id")) {
                props.put(k, e.getValue());
            }
        }
        props.put("transactional.id", transactionalId);
        props.put("enable.idempotence", "true");
        props.put("acks", "all");
        props.putIfAbsent("client.id", "tributary-delta-source-" + transactionalId);
        this.transactionalId = transactionalId;
        this.transactionTimeoutMs = ProducerFailure.transactionTimeoutMs(props);
        this.producer = new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
        try {
            producer.initTransactions();
        } catch (KafkaException e) {
            producer.close();
            throw SourceErrors.cannotStartTransactions(transactionalId, e.getMessage(), e);
        }
    }

    /** The partitions of {@code topic}, as the producer knows them. */
    public int partitions(String topic) {
        return producer.partitionsFor(topic).size();
    }

    /**
     * Publishes {@code rows}, then the records {@code after} gives once the rows are sent (the
     * progress record, the markers), in one transaction.
     */
    public void publish(String topic, Rows rows, Supplier<List<ProducerRecord<byte[], byte[]>>> after) {
        lastFailure = null;
        try {
            beganNanos = System.nanoTime();
            producer.beginTransaction();
            rows.publish(producer::send);
            for (ProducerRecord<byte[], byte[]> r : after.get()) {
                producer.send(r);
            }
            producer.flush();
            CrashPoint.reach(CrashPoint.DELTA_SOURCE_BEFORE_COMMIT);
            producer.commitTransaction();
            CrashPoint.reach(CrashPoint.DELTA_SOURCE_AFTER_COMMIT);
        } catch (RuntimeException e) {
            lastFailure = ProducerFailure.of(e, (System.nanoTime() - beganNanos) / 1_000_000, transactionTimeoutMs);
            if (lastFailure == ProducerFailure.FENCED) {
                throw SourceErrors.fenced(transactionalId, e);
            }
            abort(e);
            if (e instanceof TributaryException te) {
                throw te;
            }
            throw SourceErrors.publishFailed(topic, e.getMessage(), e);
        }
    }

    /**
     * What the last {@link #publish}'s failure meant for this producer (by how long its transaction was open when it
     * failed), or null when it did not fail.
     */
    public ProducerFailure lastFailure() {
        return lastFailure;
    }

    private void abort(RuntimeException cause) {
        try {
            producer.abortTransaction();
        } catch (RuntimeException e) {
            cause.addSuppressed(e);
            LOG.warn("delta-source: aborting the transaction of {} failed too: {}", transactionalId, e.toString());
        }
    }

    @Override
    public void close() {
        producer.close();
    }
}
