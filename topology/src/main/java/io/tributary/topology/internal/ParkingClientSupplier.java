package io.tributary.topology.internal;

import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.KafkaClientSupplier;

/**
 * Kafka Streams' clients, as its default makes them, but for the main consumers: {@link PausingConsumer}s over the
 * application's backlog and the source partitions no batch knows yet; and the producers, whose commit steps stop the
 * stream thread when they time out ({@link CommitTimeouts}).
 */
final class ParkingClientSupplier implements KafkaClientSupplier {
    private final ParkedBacklog backlog;
    private final UnknownPartitions unknown;

    /** The clients of application {@code applicationId}. */
    ParkingClientSupplier(String applicationId) {
        this.backlog = ParkedBacklog.of(applicationId);
        this.unknown = UnknownPartitions.of(applicationId);
    }

    @Override
    public Admin getAdmin(Map<String, Object> config) {
        return Admin.create(config);
    }

    @Override
    public Producer<byte[], byte[]> getProducer(Map<String, Object> config) {
        return new CommitTimeouts.StopOnCommitTimeout(new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer()));
    }

    @Override
    public Consumer<byte[], byte[]> getConsumer(Map<String, Object> config) {
        return new PausingConsumer(config, backlog, unknown);
    }

    @Override
    public Consumer<byte[], byte[]> getRestoreConsumer(Map<String, Object> config) {
        return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    @Override
    public Consumer<byte[], byte[]> getGlobalConsumer(Map<String, Object> config) {
        return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }
}
