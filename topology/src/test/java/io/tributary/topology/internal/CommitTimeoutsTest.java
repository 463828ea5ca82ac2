package io.tributary.topology.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.EmbeddedBroker;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.streams.errors.StreamsException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The exact sequence behind windows written twice and one lost after a broker restart: a stream
 * thread's commit times out while the broker is away. Kafka Streams retries nothing it takes for
 * a Kafka error other than a timeout, so the thread's producer must not answer a timeout: the
 * thread then stops, and the producer of the instance started in its place settles the old
 * transaction (no transaction left open on the topic) before any task could restore.
 */
@Tag("integration")
class CommitTimeoutsTest {
    private static final String TOPIC = "results";

    @TempDir
    Path dir;

    @Test
    void aCommitThatTimesOutStopsTheThreadAndTheNextProducerSettlesTheTransaction() throws Exception {
        EmbeddedBroker broker = EmbeddedBroker.start(dir.resolve("kafka"));
        int port = broker.port();
        TopicPartition tp = new TopicPartition(TOPIC, 0);
        try {
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", broker.bootstrapServers()))) {
                admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 1))).all().get();
            }
            ConsumerGroupMetadata group;
            try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of("bootstrap.servers", broker.bootstrapServers(),
                    "group.id", "aggregate"), new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
                group = consumer.groupMetadata();
            }
            Producer<byte[], byte[]> thread = producer(broker, 2_000);
            await().atMost(Duration.ofMinutes(1)).ignoreException(TimeoutException.class).until(() -> {
                thread.initTransactions(); // retried after a timeout, as Kafka allows, on a loaded machine
                return true;
            });
            thread.beginTransaction();
            thread.send(new ProducerRecord<>(TOPIC, 0, null, "window 15".getBytes(StandardCharsets.UTF_8))).get();

            broker.close(); // the broker goes away in the middle of the commit
            Throwable offsets = catchThrowable(() -> thread.sendOffsetsToTransaction(
                    Map.of(new TopicPartition("events", 0), new OffsetAndMetadata(42)), group));
            Throwable commit = catchThrowable(thread::commitTransaction);
            for (Throwable e : List.of(offsets, commit)) {
                // not a timeout, which Kafka Streams answers by reviving the thread's tasks with this producer
                assertThat(e).isInstanceOf(KafkaException.class).isNotInstanceOf(TimeoutException.class)
                        .hasRootCauseInstanceOf(TimeoutException.class).hasMessageContaining("timed out");
                // Kafka Streams wraps it so; the aggregation takes that for Kafka trouble and starts a new instance
                assertThat(StreamsApp.kafkaTrouble(new StreamsException("Error encountered trying to commit a transaction", e))).isTrue();
            }
            thread.close(Duration.ZERO); // the dead thread's producer

            broker = EmbeddedBroker.start(dir.resolve("kafka"), port);
            try (Producer<byte[], byte[]> next = producer(broker, 60_000); Admin admin = Admin.create(Map.of("bootstrap.servers",
                    broker.bootstrapServers()))) {
                next.initTransactions(); // the new instance's thread, before any of its tasks restores
                long end = admin.listOffsets(Map.of(tp, OffsetSpec.latest())).all().get().get(tp).offset();
                long committedEnd = admin.listOffsets(Map.of(tp, OffsetSpec.latest()),
                        new ListOffsetsOptions(IsolationLevel.READ_COMMITTED)).all().get().get(tp).offset();
                assertThat(committedEnd).as("no transaction of the stopped thread left open on the topic").isEqualTo(end);
            }
        } finally {
            broker.close();
        }
    }

    /** A producer as the aggregation's thread has, whose requests give up after {@code maxBlockMs}. */
    private static Producer<byte[], byte[]> producer(EmbeddedBroker broker, int maxBlockMs) {
        return new ParkingClientSupplier("aggregate").getProducer(Map.of(
                "bootstrap.servers", broker.bootstrapServers(),
                "transactional.id", "aggregate-1",
                "max.block.ms", maxBlockMs,
                "request.timeout.ms", Math.min(maxBlockMs, 30_000),
                "delivery.timeout.ms", maxBlockMs + 30_000,
                "key.serializer", "org.apache.kafka.common.serialization.ByteArraySerializer",
                "value.serializer", "org.apache.kafka.common.serialization.ByteArraySerializer"));
    }
}
