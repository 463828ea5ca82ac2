package io.tributary.sink;

import io.tributary.broker.EmbeddedBroker;
import io.tributary.schema.Topics;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The embedded broker a sink test class shares ({@code @RegisterExtension static final TestKafka
 * KAFKA = new TestKafka();}), and what the tests do on it: topics, transactions of records.
 */
final class TestKafka implements BeforeAllCallback, AfterAllCallback {
    private Path dir;
    private EmbeddedBroker broker;

    @Override
    public void beforeAll(ExtensionContext context) throws IOException {
        dir = Files.createTempDirectory("tributary-sink-it");
        broker = EmbeddedBroker.start(dir.resolve("kafka"));
    }

    @Override
    public void afterAll(ExtensionContext context) throws IOException {
        if (broker != null) {
            broker.close();
        }
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    /** Client settings for the sink under test. */
    Map<String, Object> client() {
        return Map.of("bootstrap.servers", broker.bootstrapServers());
    }

    /** A new topic, named as the events topic of a pipeline {@code prefix<random>}. */
    String newTopic(String prefix, int partitions) throws Exception {
        String topic = Topics.events(prefix + UUID.randomUUID().toString().substring(0, 8));
        try (Admin admin = Admin.create(client())) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get();
        }
        return topic;
    }

    /** Runs {@code sends} in one committed transaction of a new transactional producer, as file-ingest publishes a batch. */
    void inTransaction(Consumer<KafkaProducer<byte[], byte[]>> sends) {
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
