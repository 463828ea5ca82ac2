package io.tributary.topology;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.broker.BrokerExtension;
import io.tributary.kafka.KafkaSourceSettings;
import io.tributary.kafka.KafkaSubscription;
import io.tributary.schema.Progress;
import io.tributary.schema.RowJson;
import io.tributary.schema.RowPack;
import io.tributary.schema.Timestamps;
import io.tributary.schema.Topics;
import io.tributary.settings.Values;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * An aggregation over a Kafka source with Spark's {@code maxOffsetsPerTrigger} (golden/kafka-source/case-2: a row that
 * jumps ahead in the second batch makes the rows of the fourth late, as they are judged by the third batch's
 * watermark; without the limit, one batch counts them all), and with
 * {@code closeIdleWindowsAfter} on a quiet topic, on a real broker.
 */
@Tag("integration")
@Tag("scenarios")
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class KafkaSourceRateLimitTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CASE = "/golden/kafka-source/case-2/";

    @RegisterExtension
    static final BrokerExtension KAFKA = new BrokerExtension();

    @TempDir
    Path dir;

    @Test
    void maxOffsetsPerTriggerGivesSparksWindowsWithTheRowsItMakesLate() throws Exception {
        String topic = "limited";
        produceCase(topic);
        List<Long> batches = new ArrayList<>();
        try (StreamsAggregation stage = open(topic, Map.of("maxOffsetsPerTrigger", "3"), true, null)) {
            for (Optional<Progress> p = stage.runBatch(); p.isPresent(); p = stage.runBatch()) {
                batches.add(p.get().numInputRows());
            }
        }
        assertThat(results(topic)).isEqualTo(golden("spark-window.txt"));
        assertThat(batches).as("Spark's split by lag: 1 + 1, 1 + 1, 1 + 2, 1 + 2").containsExactly(2L, 2L, 3L, 3L);
    }

    @Test
    void withoutALimitOneBatchCountsEveryRowAsSparkDoes() throws Exception {
        String topic = "unlimited";
        produceCase(topic);
        try (StreamsAggregation stage = open(topic, Map.of(), true, null)) {
            while (stage.runBatch().isPresent()) {
                // availableNow: to the end offsets seen at the start
            }
        }
        assertThat(results(topic)).isEqualTo(golden("spark-window-unlimited.txt"));
    }

    /** A run stopped after its first batch, and a run that goes on: the records read past the first batch's bounds are not lost. */
    @Test
    void aRestartBetweenLimitedBatchesKeepsSparksWindows() throws Exception {
        String topic = "restarted";
        produceCase(topic);
        try (StreamsAggregation stage = open(topic, Map.of("maxOffsetsPerTrigger", "3"), true, null)) {
            assertThat(stage.runBatch()).isPresent();
        }
        try (StreamsAggregation stage = open(topic, Map.of("maxOffsetsPerTrigger", "3"), true, null)) {
            while (stage.runBatch().isPresent()) {
                // the rest of the run's batches
            }
        }
        assertThat(results(topic)).isEqualTo(golden("spark-window.txt"));
    }

    /**
     * A continuous run under a small limit over a topic far ahead: Spark's source reads no further than each batch's bounds;
     * here the source tasks stop fetching a partition once about a thousand of its records wait past the bounds, so what
     * they park and the offsets they commit stay bounded however far the topic is ahead, and every batch is still the limit's.
     */
    @Test
    void aSmallLimitOverATopicFarAheadParksABoundedBacklog() throws Exception {
        String topic = "ahead";
        int perPartition = 20_000;
        Map<String, Object> client = KAFKA.client();
        try (Admin admin = Admin.create(client)) {
            admin.createTopics(List.of(new NewTopic(topic, 2, (short) 1).configs(Topics.EVENT_TIME_TOPIC_CONFIG),
                    new NewTopic(Topics.results(topic), 2, (short) 1).configs(Topics.EVENT_TIME_TOPIC_CONFIG))).all().get();
        }
        Map<String, Object> fast = new HashMap<>(client);
        fast.put("linger.ms", 20);
        try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(fast, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < 2 * perPartition; i++) {
                var sent = p.send(new ProducerRecord<>(topic, i % 2, null, bytes("{\"id\":" + i + ",\"user\":\"ann\",\"amt\":1.0,"
                        + "\"ts\":\"2026-01-01T10:00:00Z\"}")));
                if (i < 2) {
                    sent.get(); // each partition's leader known before the rest is sent in batches
                }
            }
            p.flush();
        }
        List<Long> batches = new ArrayList<>();
        try (StreamsAggregation stage = open(topic, Map.of("maxOffsetsPerTrigger", "10"), false, null)) {
            while (batches.size() < 8) {
                stage.runBatch().ifPresent(b -> batches.add(b.numInputRows()));
            }
            Map<TopicPartition, Long> consumed = new HashMap<>();
            try (Admin admin = Admin.create(client)) {
                admin.listConsumerGroupOffsets("tributary-" + topic + "-aggregate").partitionsToOffsetAndMetadata().get()
                        .forEach((tp, om) -> {
                            if (tp.topic().equals(topic)) {
                                consumed.put(tp, om.offset());
                            }
                        });
            }
            long parked = parked("tributary-" + topic + "-aggregate-aggregate-kafka-source-held-changelog");
            // 8 batches of 10 read 40 offsets of each partition; about a thousand parked, and a poll's records besides
            assertThat(consumed).as("the source offsets the tasks committed").hasSize(2)
                    .allSatisfy((tp, offset) -> assertThat(offset).isLessThan(4_000));
            assertThat(parked).as("records parked past the batches' bounds, of %s", 2 * perPartition).isLessThan(6_000);
        }
        assertThat(batches).as("Spark's split: 5 + 5").containsOnly(10L);
    }

    /** Spark's minOffsetsPerTrigger under an aggregation: a continuous run's batch waits until that many offsets are there. */
    @Test
    void aBatchWaitsForMinOffsetsPerTrigger() throws Exception {
        String topic = "least";
        try (Admin admin = Admin.create(KAFKA.client())) {
            admin.createTopics(List.of(new NewTopic(topic, 2, (short) 1).configs(Topics.EVENT_TIME_TOPIC_CONFIG),
                    new NewTopic(Topics.results(topic), 2, (short) 1).configs(Topics.EVENT_TIME_TOPIC_CONFIG))).all().get();
        }
        List<String> records = lines("records.jsonl");
        try (StreamsAggregation stage = open(topic, Map.of("minOffsetsPerTrigger", "5", "maxTriggerDelay", "1h"), false, null)) {
            assertThat(stage.runBatch()).as("nothing there: the first trigger, never delayed").isEmpty();
            produce(topic, records.subList(0, 4));
            assertThat(stage.runBatch()).as("4 offsets, fewer than 5").isEmpty();
            assertThat(stage.runBatch()).as("still 4").isEmpty();
            produce(topic, records.subList(4, 5));
            assertThat(stage.runBatch().map(Progress::numInputRows)).contains(5L);
        }
    }

    private static void produce(String topic, List<String> records) throws Exception {
        try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(KAFKA.client(), new ByteArraySerializer(), new ByteArraySerializer())) {
            for (String line : records) {
                JsonNode r = JSON.readTree(line);
                p.send(new ProducerRecord<>(topic, r.get("partition").asInt(), r.get("timestamp").asLong(), bytes(r.get("key").asText()),
                        bytes(r.get("value").asText()))).get();
            }
        }
    }

    /** How many records the held store's changelog holds now: its keys whose last value is not a deletion. */
    private static long parked(String changelog) {
        Map<String, Object> props = new HashMap<>(KAFKA.client());
        props.put("isolation.level", "read_committed");
        Map<String, Boolean> live = new HashMap<>();
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> tps = c.partitionsFor(changelog).stream().map(i -> new TopicPartition(changelog, i.partition())).toList();
            c.assign(tps);
            c.seekToBeginning(tps);
            Map<TopicPartition, Long> end = c.endOffsets(tps);
            while (tps.stream().anyMatch(tp -> c.position(tp) < end.get(tp))) {
                for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(100))) {
                    live.put(new String(r.key(), StandardCharsets.UTF_8), r.value() != null);
                }
            }
        }
        return live.values().stream().filter(v -> v).count();
    }

    /** closeIdleWindowsAfter: a continuous run over a topic that goes quiet closes its open windows, which Spark never writes. */
    @Test
    void aQuietTopicsWindowsCloseAfterCloseIdleWindowsAfter() throws Exception {
        String topic = "quiet";
        produceCase(topic);
        try (StreamsAggregation stage = open(topic, Map.of(), false, Duration.ofSeconds(1))) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            List<String> rows = List.of();
            while (rows.size() < 2 && System.nanoTime() < deadline) {
                stage.runBatch();
                rows = results(topic);
            }
            // every row counted (one batch), and the window of 10:31 that no later event closes is written too
            assertThat(rows).containsExactly("2026-01-01 10:00:00|2026-01-01 10:10:00|ann|1021.0",
                    "2026-01-01 10:30:00|2026-01-01 10:40:00|ann|2.0");
        }
    }

    private StreamsAggregation open(String topic, Map<String, String> settings, boolean bounded, Duration closeIdle) {
        AggregateSpec spec = AggregateSpec.builder().eventTime("ts").watermark(Duration.ofMinutes(5)).window(Duration.ofMinutes(10))
                .groupBy("user").select("t", "sum(amt)").outputMode(OutputMode.APPEND).build(AggregationDriver.seedSchema());
        Map<String, String> raw = new HashMap<>(settings);
        raw.put("topics", topic);
        raw.put("format", "json");
        raw.put("schema", AggregationDriver.seedSchema().toDdl());
        KafkaInput input = new KafkaInput(KafkaSubscription.of(Values.of(KafkaSourceSettings.ALL, raw)), "deadLetter",
                Topics.deadLetter(topic), 2, 2);
        if (closeIdle != null) {
            input = input.withCloseIdleWindowsAfter(closeIdle, spec.span());
        }
        return new StreamsAggregation(AggregationConfig.builder(topic, spec, dir.resolve("streams")).kafkaInput(input).bounded(bounded)
                .build(), KAFKA.client());
    }

    /** The case's topic (2 partitions) and its records, each on the partition the case gives. */
    private static void produceCase(String topic) throws Exception {
        Map<String, Object> client = KAFKA.client();
        try (Admin admin = Admin.create(client)) {
            admin.createTopics(List.of(new NewTopic(topic, 2, (short) 1).configs(Topics.EVENT_TIME_TOPIC_CONFIG),
                    new NewTopic(Topics.results(topic), 2, (short) 1).configs(Topics.EVENT_TIME_TOPIC_CONFIG))).all().get();
        }
        try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(client, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (String line : lines("records.jsonl")) {
                JsonNode r = JSON.readTree(line);
                p.send(new ProducerRecord<>(topic, r.get("partition").asInt(), r.get("timestamp").asLong(), bytes(r.get("key").asText()),
                        bytes(r.get("value").asText()))).get();
            }
        }
    }

    /** The windows in the results topic, as Spark's table prints them ({@code start|end|user|t}), sorted. */
    private static List<String> results(String topic) {
        RowJson json = new RowJson(AggregateSpec.builder().eventTime("ts").watermark(Duration.ofMinutes(5)).window(Duration.ofMinutes(10))
                .groupBy("user").select("t", "sum(amt)").outputMode(OutputMode.APPEND).build(AggregationDriver.seedSchema()).outputSchema());
        List<String> rows = new ArrayList<>();
        Map<String, Object> props = new HashMap<>(KAFKA.client());
        props.put("isolation.level", "read_committed");
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> tps = List.of(new TopicPartition(Topics.results(topic), 0), new TopicPartition(Topics.results(topic), 1));
            c.assign(tps);
            c.seekToBeginning(tps);
            Map<TopicPartition, Long> end = c.endOffsets(tps);
            while (tps.stream().anyMatch(tp -> c.position(tp) < end.get(tp))) {
                for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(100))) {
                    if (r.headers().lastHeader(Topics.MARKER_HEADER) == null) {
                        RowPack.forEachRow(r.value(), (b, o, l) -> {
                            Object[] row = json.parse(b, o, l);
                            Object[] w = (Object[]) row[0];
                            rows.add(ts((Long) w[0]) + "|" + ts((Long) w[1]) + "|" + row[1] + "|" + row[2]);
                        });
                    }
                }
            }
        }
        return rows.stream().sorted().toList();
    }

    private static String ts(long micros) {
        return Timestamps.formatMicros(micros).replace('T', ' ').replace("Z", "");
    }

    private static List<String> golden(String file) {
        return lines(file).stream().filter(l -> !l.startsWith("#")).sorted().toList();
    }

    private static List<String> lines(String file) {
        try (InputStream in = KafkaSourceRateLimitTest.class.getResourceAsStream(CASE + file)) {
            assertThat(in).as("fixture %s", file).isNotNull();
            return Arrays.stream(new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")).filter(l -> !l.isBlank()).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
