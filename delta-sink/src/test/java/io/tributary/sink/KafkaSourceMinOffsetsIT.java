package io.tributary.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.kafka.KafkaSourceSettings;
import io.tributary.kafka.KafkaSubscription;
import io.tributary.schema.Progress;
import io.tributary.settings.Values;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Spark's {@code minOffsetsPerTrigger} and {@code maxTriggerDelay} on a Kafka source, into a Delta table, on a real
 * broker: a continuous run's batch waits for that many offsets, or for the delay to pass since the last batch; an
 * availableNow run reads all there is, the minimum notwithstanding. The batches are read back from the table's commits.
 */
@Tag("integration")
@Tag("scenarios")
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class KafkaSourceMinOffsetsIT {
    @RegisterExtension
    static final TestKafka KAFKA = new TestKafka();

    @TempDir
    Path dir;

    @Test
    void aBatchWaitsForMinOffsetsPerTriggerThenReadsThemAll() throws Exception {
        String topic = topic();
        try (DeltaSink sink = sink(topic, Map.of("minOffsetsPerTrigger", "5", "maxTriggerDelay", "1h"), false)) {
            assertThat(sink.runBatch()).as("nothing there yet").isEmpty(); // Spark's first trigger is never delayed
            produce(topic, 0, 1, 2);
            produce(topic, 1, 3);
            assertThat(sink.runBatch()).as("3 offsets, fewer than 5").isEmpty();
            assertThat(sink.runBatch()).as("still 3").isEmpty();
            produce(topic, 1, 4, 5);
            assertThat(sink.runBatch().map(Progress::numInputRows)).contains(5L);
            produce(topic, 0, 6);
            assertThat(sink.runBatch()).as("1 offset past the last batch").isEmpty();
        }
        assertThat(dataCommits()).as("the table's batches: rows and offsets").containsExactly("5 rows to {0=2, 1=3}");
    }

    @Test
    void afterMaxTriggerDelayABatchReadsFewerOffsets() throws Exception {
        String topic = topic();
        try (DeltaSink sink = sink(topic, Map.of("minOffsetsPerTrigger", "5", "maxTriggerDelay", "1s"), false)) {
            assertThat(sink.runBatch()).isEmpty(); // the last trigger: now
            produce(topic, 0, 1, 2);
            await().atMost(Duration.ofSeconds(30)).pollDelay(Duration.ZERO).until(() -> sink.runBatch().isPresent());
        }
        assertThat(dataCommits()).containsExactly("2 rows to {0=2, 1=0}");
    }

    @Test
    void anAvailableNowRunReadsToItsEndWhateverTheMinimum() throws Exception {
        String topic = topic();
        produce(topic, 0, 1, 2, 3, 4, 5);
        try (DeltaSink sink = sink(topic, Map.of("minOffsetsPerTrigger", "2", "maxOffsetsPerTrigger", "2", "maxTriggerDelay", "1h"),
                true)) {
            while (sink.runBatch().isPresent()) {
                // as Spark's availableNow: batches of at most maxOffsetsPerTrigger up to the end offsets seen at the start
            }
        }
        assertThat(dataCommits()).containsExactly("2 rows to {0=2, 1=0}", "2 rows to {0=4, 1=0}", "1 rows to {0=5, 1=0}");
    }

    @Test
    void aMinimumAboveTheMaximumIsRefusedNamingBoth() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> KafkaSubscription.of(Values.of(KafkaSourceSettings.ALL,
                        Map.of("topics", "t", "schema", "id INT", "minOffsetsPerTrigger", "10", "maxOffsetsPerTrigger", "5"))))
                .hasMessageContaining("minOffsetsPerTrigger: 10 is above maxOffsetsPerTrigger (5)");
    }

    private DeltaSink sink(String topic, Map<String, String> settings, boolean availableNow) {
        Map<String, String> raw = new HashMap<>(settings);
        raw.put("topics", topic);
        raw.put("schema", "id INT");
        KafkaSubscription subscription = KafkaSubscription.of(Values.of(KafkaSourceSettings.ALL, raw));
        Values sink = Values.localized(SinkSettings.ALL, s -> s.under("sink.delta"), k -> null, (s, text, e) -> e);
        SinkConfig config = SinkConfig.builder(table(), subscription.rowSchema(), subscription.description(), "min-sink", "min/sink")
                .settings(sink).badRecords(SinkBadRecords.forName("deadLetter", topic + ".deadletter")).build();
        return DeltaSink.builder(config, KAFKA.client()).subscription(subscription).availableNow(availableNow).continuous(!availableNow)
                .build();
    }

    /** Each commit that added rows: how many, and the source offsets the table holds after it. */
    private List<String> dataCommits() {
        List<String> out = new ArrayList<>();
        for (TableCommit c : DeltaTables.history(table())) {
            if (c.addedRows() > 0) {
                out.add(c.addedRows() + " rows to " + new java.util.TreeMap<>(c.sinkOffsets().offsets()));
            }
        }
        return out;
    }

    private static String topic() throws Exception {
        String topic = "min-" + UUID.randomUUID().toString().substring(0, 8);
        try (Admin admin = Admin.create(KAFKA.client())) {
            admin.createTopics(List.of(new NewTopic(topic, 2, (short) 1))).all().get();
        }
        return topic;
    }

    private static void produce(String topic, int partition, int... ids) throws Exception {
        try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(KAFKA.client(), new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int id : ids) {
                p.send(new ProducerRecord<>(topic, partition, null, ("{\"id\":" + id + "}").getBytes(StandardCharsets.UTF_8))).get();
            }
        }
    }

    private String table() {
        return dir.resolve("t").toString();
    }
}
