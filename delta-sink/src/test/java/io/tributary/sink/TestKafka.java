package io.tributary.sink;

import io.tributary.broker.BrokerExtension;
import io.tributary.schema.Topics;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.errors.InvalidTxnStateException;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The embedded broker a sink test class shares ({@code @RegisterExtension static final TestKafka
 * KAFKA = new TestKafka();}), and what the tests do on it: topics, transactions of records.
 */
final class TestKafka extends BrokerExtension {
    /** A new topic, named as the events topic of a pipeline {@code prefix<random>}. */
    String newTopic(String prefix, int partitions) throws Exception {
        String topic = Topics.events(prefix + UUID.randomUUID().toString().substring(0, 8));
        try (Admin admin = Admin.create(client())) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get();
        }
        return topic;
    }

    /**
     * Runs {@code sends} in one committed transaction of a new transactional producer, as file-ingest publishes a batch; a
     * transaction the broker's coordinator refuses to commit (InvalidTxnStateException, seen once just after the broker's
     * start) is aborted, so it is run again whole by a new producer.
     */
    void inTransaction(Consumer<KafkaProducer<byte[], byte[]>> sends) {
        try {
            commitOnce(sends);
        } catch (InvalidTxnStateException refused) {
            commitOnce(sends);
        }
    }

    private void commitOnce(Consumer<KafkaProducer<byte[], byte[]>> sends) {
        Map<String, Object> p = new HashMap<>(client());
        p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "test-" + UUID.randomUUID());
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
            producer.initTransactions();
            producer.beginTransaction();
            sends.accept(producer);
            producer.commitTransaction();
        }
    }
}
