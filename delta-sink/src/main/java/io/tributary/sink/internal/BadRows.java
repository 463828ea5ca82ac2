package io.tributary.sink.internal;

import io.tributary.kafka.TopicCreation;
import io.tributary.schema.BadRecordException;
import io.tributary.schema.TributaryException;
import io.tributary.sink.SinkBadRecords;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The rows of the sink's topic that the table cannot hold ({@link SinkBadRecords}): under
 * {@code fail} one names the record and stops the batch; under {@code drop} it is logged and left
 * out; under {@code deadLetter} it also goes to the dead-letter topic (created with one partition
 * when missing), keyed {@code <topic>:<partition>:<offset>} with its row number in the record.
 * The batch's dead letters are all in their topic ({@link #flush}) before the batch commits, so a
 * batch committed never loses one; a batch redone after a failed commit sends them again.
 */
final class BadRows implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BadRows.class);
    /** The most of a bad row's text kept in a dead letter, as file-ingest keeps of a bad line. */
    static final int MAX_TEXT_BYTES = 64 * 1024;

    private final SinkBadRecords policy;
    private final String stage;
    private final Map<String, Object> clientProps;
    /** The setting that chose {@code policy}, named in a refusal: the file source's or the Kafka source's {@code onBadRecord}. */
    private final String policyKey;
    private KafkaProducer<byte[], byte[]> producer;
    private final List<Future<RecordMetadata>> sent = new ArrayList<>();

    /**
     * @param stage names the sink in the dead letters and the producer's client id
     * @param policyKey the setting that chose {@code policy} ({@code source.kafka.onBadRecord}), named when a row stops the batch
     */
    BadRows(SinkBadRecords policy, String stage, Map<String, Object> clientProps, String policyKey) {
        this.policy = policy;
        this.stage = stage;
        this.clientProps = clientProps;
        this.policyKey = policyKey;
    }

    /**
     * Row {@code row} (1-based) of the record at {@code offset}, {@code bytes[off, off + len)}, which
     * is not a row of {@code schemaDdl} for {@code why}: dead-lettered or dropped.
     *
     * @throws TributaryException under {@code onBadRecord fail}, naming the record, the column and the reason
     */
    void reject(String topic, int partition, long offset, int row, byte[] bytes, int off, int len, String schemaDdl,
                BadRecordException why) {
        reject(topic, partition, offset, row, bytes, off, len, schemaDdl, why, false);
    }

    /**
     * As above; {@code binary}: the value is not text (Avro, Protobuf), and the dead letter holds it
     * as {@code valueBase64} instead of {@code text}.
     */
    void reject(String topic, int partition, long offset, int row, byte[] bytes, int off, int len, String schemaDdl,
                BadRecordException why, boolean binary) {
        String where = "topic " + topic + " partition " + partition + " offset " + offset + (row > 1 ? " row " + row : "");
        if (policy.policy() == SinkBadRecords.Policy.FAIL) {
            throw SinkErrors.badRowFails(where, schemaDdl, why.getMessage(), policyKey, why);
        }
        if (policy.policy() == SinkBadRecords.Policy.DROP) {
            LOG.warn("delta sink {}: {} is not a row of the table: {}; dropped (onBadRecord drop)", stage, where, why.getMessage());
            return;
        }
        LOG.warn("delta sink {}: {} is not a row of the table: {}; sent to dead-letter topic {}", stage, where, why.getMessage(),
                policy.deadLetterTopic());
        byte[] letter = io.tributary.kafka.SourceRecords.deadLetter(stage, topic, partition, offset, row, why, bytes, off, len, binary);
        sent.add(producer().send(new ProducerRecord<>(policy.deadLetterTopic(), io.tributary.kafka.SourceRecords.deadLetterKey(topic,
                partition, offset), letter)));
    }

    /** Waits until every dead letter sent is in its topic. @throws TributaryException if one could not be written */
    void flush() {
        if (sent.isEmpty()) {
            return;
        }
        producer.flush();
        try {
            for (Future<RecordMetadata> f : sent) {
                f.get();
            }
        } catch (ExecutionException e) {
            throw SinkErrors.cannotWriteDeadLetters(stage, policy.deadLetterTopic(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw SinkErrors.interruptedWritingDeadLetters(stage, policy.deadLetterTopic(), e);
        } finally {
            sent.clear();
        }
    }

    private KafkaProducer<byte[], byte[]> producer() {
        if (producer == null) {
            try (Admin admin = Admin.create(clientProps)) {
                TopicCreation.create(admin, List.of(new NewTopic(policy.deadLetterTopic(), Optional.of(1), Optional.empty())));
            }
            Map<String, Object> p = new HashMap<>(clientProps);
            p.remove(ProducerConfig.TRANSACTIONAL_ID_CONFIG);
            p.put(ProducerConfig.CLIENT_ID_CONFIG, stage + "-deadletter");
            p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
            p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
            producer = new KafkaProducer<>(p);
        }
        return producer;
    }

    @Override
    public void close() {
        if (producer != null) {
            producer.close(Duration.ofSeconds(5));
        }
    }
}
