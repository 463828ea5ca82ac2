package io.tributary.topology.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.EmbeddedBroker;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The events topic's end as a batch of the aggregation takes it, on a real broker. */
@Tag("integration")
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class EventsOffsetsTest {
    private static final String EVENTS = "tributary.eo.events";
    private static final TopicPartition P0 = new TopicPartition(EVENTS, 0);

    @TempDir
    Path dir;

    /**
     * While a transaction that wrote records is still open, the committed end stands before them: the
     * batch's end waits for the transaction to complete (as the markers of an ingest's commit that
     * already returned are still being written) and then covers its records, instead of finding nothing.
     */
    @Test
    void theEndWaitsForATransactionThatWroteRecordsAndCoversThem() throws Exception {
        try (EmbeddedBroker broker = EmbeddedBroker.start(dir.resolve("kafka"));
             Admin admin = Admin.create(Map.of("bootstrap.servers", broker.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(EVENTS, 1, (short) 1))).all().get();
            Map<String, Object> client = Map.of("bootstrap.servers", broker.bootstrapServers());
            try (EventsOffsets offsets = new EventsOffsets(client, EVENTS, "eo-app");
                 KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.<String, Object>of("bootstrap.servers",
                         broker.bootstrapServers(), "transactional.id", "eo-ingest"), new ByteArraySerializer(), new ByteArraySerializer())) {
                producer.initTransactions();
                producer.beginTransaction();
                for (int i = 0; i < 3; i++) {
                    producer.send(new ProducerRecord<>(EVENTS, 0, null, ("row " + i).getBytes(StandardCharsets.UTF_8)));
                }
                producer.flush();
                AtomicReference<Thread> asker = new AtomicReference<>();
                CompletableFuture<Map<TopicPartition, Long>> end = CompletableFuture.supplyAsync(() -> {
                    asker.set(Thread.currentThread());
                    return offsets.settledEnd(Map.of(), Duration.ofSeconds(60));
                });
                // the batch is waiting (between two looks at the committed end) while the transaction is open
                await("the batch waits for the open transaction").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(5))
                        .until(() -> asker.get() != null && asker.get().getState() == Thread.State.TIMED_WAITING);
                assertThat(end).isNotDone();
                producer.commitTransaction();
                assertThat(end.get(30, TimeUnit.SECONDS)).containsEntry(P0, 4L); // 3 records and the commit marker
            }
        }
    }

    /** What is committed is the end at once; a transaction opened after it is a later batch's, past {@code from}. */
    @Test
    void aTransactionStillOpenPastWhatWasReadIsLeftForALaterBatch() throws Exception {
        try (EmbeddedBroker broker = EmbeddedBroker.start(dir.resolve("kafka"));
             Admin admin = Admin.create(Map.of("bootstrap.servers", broker.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(EVENTS, 1, (short) 1))).all().get();
            Map<String, Object> client = Map.of("bootstrap.servers", broker.bootstrapServers());
            try (EventsOffsets offsets = new EventsOffsets(client, EVENTS, "eo-app");
                 KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.<String, Object>of("bootstrap.servers",
                         broker.bootstrapServers(), "transactional.id", "eo-ingest"), new ByteArraySerializer(), new ByteArraySerializer())) {
                producer.initTransactions();
                producer.beginTransaction();
                producer.send(new ProducerRecord<>(EVENTS, 0, null, "first".getBytes(StandardCharsets.UTF_8)));
                producer.commitTransaction();
                await("the first transaction's marker").atMost(Duration.ofSeconds(30))
                        .until(() -> offsets.settledEnd(Map.of(), Duration.ZERO).get(P0) == 2L);
                producer.beginTransaction();
                producer.send(new ProducerRecord<>(EVENTS, 0, null, "second".getBytes(StandardCharsets.UTF_8)));
                producer.flush();
                long t0 = System.nanoTime();
                assertThat(offsets.settledEnd(Map.of(P0, 0L), Duration.ofSeconds(60))).containsEntry(P0, 2L);
                assertThat(Duration.ofNanos(System.nanoTime() - t0)).as("no wait for the later transaction").isLessThan(Duration.ofSeconds(30));
                producer.abortTransaction();
            }
        }
    }
}
