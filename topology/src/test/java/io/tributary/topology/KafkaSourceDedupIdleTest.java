package io.tributary.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.BrokerExtension;
import io.tributary.kafka.KafkaSourceSettings;
import io.tributary.kafka.KafkaSubscription;
import io.tributary.schema.Progress;
import io.tributary.schema.RowJson;
import io.tributary.schema.RowPack;
import io.tributary.schema.Schema;
import io.tributary.schema.Timestamps;
import io.tributary.schema.Topics;
import io.tributary.settings.Values;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
 * {@code closeIdleWindowsAfter} over a Kafka source with Spark's {@code dropDuplicatesWithinWatermark} before the windowed
 * aggregation, the two stages a pipeline runs for it, on a real broker: the quiet topic's windows close, the keys the
 * moved watermark passes leave the deduplication's state, and a later duplicate of one is late, as any row behind the
 * watermark.
 */
@Tag("integration")
@Tag("scenarios")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class KafkaSourceDedupIdleTest {
    private static final Schema SCHEMA = AggregationDriver.seedSchema();

    @RegisterExtension
    static final BrokerExtension KAFKA = new BrokerExtension();

    @TempDir
    Path dir;

    @Test
    void aQuietTopicsWindowsCloseWithDropDuplicatesBeforeTheAggregationAndTheKeysLeaveItsState() throws Exception {
        String topic = "quietdedup";
        String deduplicated = topic + "-deduplicated";
        createTopics(topic, deduplicated, Topics.results(topic));
        // powers of two: a sum says which rows counted; ids 1 and 5 come twice, on the other partition
        produce(topic, 0, row(1, 1, "10:01"), row(2, 2, "10:31"), row(3, 4, "10:02"), row(4, 8, "10:03"), row(5, 16, "10:04"));
        produce(topic, 1, row(6, 32, "10:05"), row(7, 64, "10:06"), row(8, 128, "10:07"), row(9, 256, "10:08"), row(10, 512, "10:09"),
                row(1, 1, "10:01"));
        produce(topic, 0, row(5, 16, "10:04"));
        AggregateSpec spec = AggregateSpec.builder().eventTime("ts").watermark(Duration.ofMinutes(5)).window(Duration.ofMinutes(10))
                .groupBy("user").select("t", "sum(amt)").outputMode(OutputMode.APPEND).build(SCHEMA);
        DedupSpec dedup = DedupSpec.of(SCHEMA, List.of("id", "user"), "ts", Duration.ofMinutes(5), true);
        Map<String, String> raw = Map.of("topics", topic, "format", "json", "schema", SCHEMA.toDdl());
        KafkaInput input = new KafkaInput(KafkaSubscription.of(Values.of(KafkaSourceSettings.ALL, raw)), "deadLetter",
                Topics.deadLetter(topic), 2, 2).withCloseIdleWindowsAfter(Duration.ofSeconds(1), spec.span())
                .placedBy(spec.groupBy()); // a group's rows on one partition of the deduplicated topic (its keys hold the group-by)
        List<Long> stateRows = new ArrayList<>();
        try (StreamsAggregation first = new StreamsAggregation(AggregationConfig.dedup(topic, dedup, dir.resolve("streams"))
                .topics(Topics.events(topic), deduplicated).kafkaInput(input).bounded(false).build(), KAFKA.client());
             StreamsAggregation then = new StreamsAggregation(AggregationConfig.builder(topic, spec, dir.resolve("streams"))
                     .topics(deduplicated, Topics.results(topic)).bounded(false).build(), KAFKA.client())) {
            await().atMost(Duration.ofSeconds(90)).pollDelay(Duration.ZERO).until(() -> {
                first.runBatch().ifPresent(p -> stateRows.add(keysInState(p)));
                then.runBatch();
                return results(topic).size() >= 2;
            });
            // the duplicates of 1 and 5 not counted (1021, not 1038); the 10:30 window, that no later event closes, written
            assertThat(results(topic)).containsExactly("2026-01-01 10:00:00|2026-01-01 10:10:00|ann|1021.0",
                    "2026-01-01 10:30:00|2026-01-01 10:40:00|ann|2.0");
            // the watermark moved to 10:41 (10:31 and a window's length): every key's 5 minutes passed, none left
            assertThat(stateRows).isNotEmpty();
            assertThat(stateRows.get(stateRows.size() - 1)).as("keys in state after the quiet batch, batches: %s", stateRows).isZero();

            // a duplicate of id 2 behind the moved watermark is late; a new row's window closes once the topic is quiet again
            produce(topic, 1, row(2, 4096, "10:31"), row(11, 1024, "10:45"));
            await().atMost(Duration.ofSeconds(90)).pollDelay(Duration.ZERO).until(() -> {
                first.runBatch().ifPresent(p -> stateRows.add(keysInState(p)));
                then.runBatch();
                return results(topic).size() >= 3;
            });
            assertThat(results(topic)).containsExactly("2026-01-01 10:00:00|2026-01-01 10:10:00|ann|1021.0",
                    "2026-01-01 10:30:00|2026-01-01 10:40:00|ann|2.0", "2026-01-01 10:40:00|2026-01-01 10:50:00|ann|1024.0");
            assertThat(stateRows.get(stateRows.size() - 1)).as("keys in state, batches: %s", stateRows).isZero();
        }
    }

    private static long keysInState(Progress p) {
        return ((Number) p.stateOperators().get(0).get("numRowsTotal")).longValue();
    }

    private static String row(int id, int amt, String time) {
        return "{\"id\":" + id + ",\"user\":\"ann\",\"amt\":" + amt + ".0,\"ts\":\"2026-01-01T" + time + ":00Z\"}";
    }

    private static void createTopics(String... topics) throws Exception {
        try (Admin admin = Admin.create(KAFKA.client())) {
            List<NewTopic> all = new ArrayList<>();
            for (String t : topics) {
                all.add(new NewTopic(t, 2, (short) 1).configs(Topics.EVENT_TIME_TOPIC_CONFIG));
            }
            admin.createTopics(all).all().get();
        }
    }

    private static void produce(String topic, int partition, String... values) throws Exception {
        try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(KAFKA.client(), new ByteArraySerializer(), new ByteArraySerializer())) {
            for (String v : values) {
                p.send(new ProducerRecord<>(topic, partition, null, v.getBytes(StandardCharsets.UTF_8))).get();
            }
        }
    }

    /** The windows in the results topic, as Spark's table prints them ({@code start|end|user|t}), sorted. */
    private static List<String> results(String topic) {
        RowJson json = new RowJson(AggregateSpec.builder().eventTime("ts").watermark(Duration.ofMinutes(5)).window(Duration.ofMinutes(10))
                .groupBy("user").select("t", "sum(amt)").outputMode(OutputMode.APPEND).build(SCHEMA).outputSchema());
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
}
