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
import io.tributary.schema.Schema;
import io.tributary.schema.Topics;
import io.tributary.settings.Values;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
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
 * Aggregations and deduplication that read someone else's Kafka topic ({@code source.kafka}) on a real
 * broker: Spark's golden tables from the same rows, spread over three partitions, with the stage
 * closed and opened again between runs (availableNow runs, as Spark's were).
 */
@Tag("integration")
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class KafkaSourceAggregationTest {
    private static final int PARTITIONS = 3;
    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    static final BrokerExtension KAFKA = new BrokerExtension();

    @TempDir
    Path dir;
    /** The source topic of the test: its pipeline's name, so that the tests share the broker. */
    private String topic;

    /** golden/windows/case-901, runs 1 to 3: availableNow runs, a file each in Spark's; here its rows, produced before each run. */
    @Test
    void windowedAppendOverAThreePartitionTopicGivesSparksTableAfterEveryRunAcrossRestarts() throws Exception {
        AggregateSpec spec = GoldenWindowsTest.goldenSpec();
        topic = "w";
        Map<String, Object> client = KAFKA.client();
        createTopics(client, topic, Topics.results("w"));
        List<String> table = new ArrayList<>();
        Function<Object[], String> line = row -> new AggregationDriver.Output(false, 0, row, null).line();
        for (int run = 1; run <= 3; run++) {
            produce(client, GoldenWindowsTest.lines("case-901/run" + run + ".json"));
            List<Long> batches = runAvailableNow(AggregationConfig.builder("w", spec, dir.resolve("streams")), client, "deadLetter");
            table.addAll(results(client, Topics.results("w"), spec.outputSchema(), line));
            GoldenWindowsTest.Golden golden = GoldenWindowsTest.golden("case-901/after-run" + run + ".txt");
            assertThat(batches).as("run %d: a data batch, then Spark's no-data batch (%s)", run, golden.batches()).hasSize(2);
            assertThat(batches.get(1)).isZero();
            assertThat(batches.get(0)).isEqualTo(GoldenWindowsTest.lines("case-901/run" + run + ".json").size());
            assertThat(GoldenWindowsTest.sorted(table)).as("after run %d", run).isEqualTo(golden.rows());
        }
    }

    /**
     * Spark's startingOffsets and startingTimestamp: rows already in the topic before the query's start (one in a window
     * of case-901's first run, on each partition) are never read, and runs 1 and 2 give Spark's table of case-901, the
     * start kept across the restart. {@code latest}: a first run with nothing new after the start; JSON: each
     * partition's offset after the old row; a timestamp: after the old rows' record time.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"latest", "json", "timestamp"})
    void aStartElsewhereThanTheEarliestOffsetsSkipsWhatCameBefore(String how) throws Exception {
        AggregateSpec spec = GoldenWindowsTest.goldenSpec();
        topic = "s" + how;
        Map<String, Object> client = KAFKA.client();
        createTopics(client, topic, Topics.results(topic));
        try (KafkaProducer<byte[], byte[]> p = producer(client)) {
            for (int partition = 0; partition < PARTITIONS; partition++) {
                p.send(new ProducerRecord<>(topic, partition, 1_000L, null, bytes("{\"id\": " + (100 + partition)
                        + ", \"user\": \"a\", \"amt\": 1000.0, \"ts\": \"2026-10-05T06:55:00Z\"}"))).get();
            }
        }
        Map<String, String> start = switch (how) {
            case "latest" -> Map.of("startingOffsets", "latest");
            case "json" -> Map.of("startingOffsets", "{\"" + topic + "\":{\"0\":1,\"1\":1,\"2\":1}}");
            default -> Map.of("startingTimestamp", "2000");
        };
        List<String> table = new ArrayList<>();
        Function<Object[], String> line = row -> new AggregationDriver.Output(false, 0, row, null).line();
        if (how.equals("latest")) {
            assertThat(runAvailableNow(AggregationConfig.builder(topic, spec, dir.resolve("streams")), client, "deadLetter", start))
                    .as("nothing after the start").isEmpty();
        }
        for (int run = 1; run <= 2; run++) {
            produce(client, GoldenWindowsTest.lines("case-901/run" + run + ".json"));
            runAvailableNow(AggregationConfig.builder(topic, spec, dir.resolve("streams")), client, "deadLetter", start);
            table.addAll(results(client, Topics.results(topic), spec.outputSchema(), line));
            assertThat(GoldenWindowsTest.sorted(table)).as("after run %d", run)
                    .isEqualTo(GoldenWindowsTest.golden("case-901/after-run" + run + ".txt").rows());
        }
    }

    /** A value that is not a row goes to the dead-letter topic, naming topic, partition and offset; the others are aggregated. */
    @Test
    void aBadValueIsDeadLetteredNamingItsTopicPartitionAndOffset() throws Exception {
        AggregateSpec spec = GoldenWindowsTest.goldenSpec();
        topic = "b";
        Map<String, Object> client = KAFKA.client();
        createTopics(client, topic, Topics.results("b"), Topics.deadLetter("b"));
        List<String> rows = new ArrayList<>(GoldenWindowsTest.lines("case-901/run1.json"));
        try (KafkaProducer<byte[], byte[]> p = producer(client)) {
            p.send(new ProducerRecord<>(topic, 1, null, bytes("{\"id\": 99, \"user\": \"x\", \"amt\": \"many\""))).get();
        }
        produce(client, rows);
        runAvailableNow(AggregationConfig.builder("b", spec, dir.resolve("streams")), client, "deadLetter");
        List<String> table = results(client, Topics.results("b"), spec.outputSchema(),
                row -> new AggregationDriver.Output(false, 0, row, null).line());
        assertThat(GoldenWindowsTest.sorted(table)).isEqualTo(GoldenWindowsTest.golden("case-901/after-run1.txt").rows());
        List<JsonNode> letters = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : read(client, Topics.deadLetter("b"))) {
            letters.add(JSON.readTree(r.value()));
        }
        assertThat(letters).hasSize(1);
        assertThat(letters.get(0).get("topic").asText()).isEqualTo(topic);
        assertThat(letters.get(0).get("partition").asInt()).isEqualTo(1);
        assertThat(letters.get(0).get("offset").asLong()).isZero();
        assertThat(letters.get(0).get("stage").asText()).isEqualTo("b/aggregate");
        assertThat(letters.get(0).get("text").asText()).contains("\"many\"");
    }

    /** golden/dedup/within-watermark, runs 1 and 2 (a file each): dropDuplicatesWithinWatermark over the topic. */
    @Test
    void dropDuplicatesOverATopicGivesSparksTableAfterEveryRun() throws Exception {
        JsonNode c = JSON.readTree(GoldenDedupTest.text("within-watermark/case.json"));
        DedupSpec spec = GoldenDedupTest.spec(c);
        topic = "d";
        Map<String, Object> client = KAFKA.client();
        createTopics(client, topic, Topics.results("d"));
        List<String> table = new ArrayList<>();
        for (int run = 1; run <= 2; run++) {
            produce(client, GoldenDedupTest.lines("within-watermark/run" + run + ".json"));
            runAvailableNow(AggregationConfig.dedup("d", spec, dir.resolve("streams")), client, "deadLetter");
            table.addAll(results(client, Topics.results("d"), GoldenDedupTest.SCHEMA, DedupDriver::line));
            List<String> golden = GoldenDedupTest.lines("within-watermark/after-run" + run + ".txt");
            assertThat(table.stream().sorted().toList()).as("after run %d", run)
                    .isEqualTo(golden.stream().filter(l -> !l.startsWith("#") && !l.startsWith("batches")).sorted().toList());
        }
    }

    /** Opens the stage over the topic, runs batches until there is none, closes it; the rows of each batch. */
    private List<Long> runAvailableNow(AggregationConfig.Builder builder, Map<String, Object> client, String onBadRecord) {
        return runAvailableNow(builder, client, onBadRecord, Map.of());
    }

    /** As above, with more of the source's settings. */
    private List<Long> runAvailableNow(AggregationConfig.Builder builder, Map<String, Object> client, String onBadRecord,
                                       Map<String, String> settings) {
        String pipeline = builder.build().pipeline();
        KafkaInput input = new KafkaInput(subscription(topic, settings), onBadRecord, Topics.deadLetter(pipeline), PARTITIONS,
                PARTITIONS);
        List<Long> batches = new ArrayList<>();
        try (StreamsAggregation stage = new StreamsAggregation(builder.kafkaInput(input).bounded(true).build(), client)) {
            for (Optional<Progress> p = stage.runBatch(); p.isPresent(); p = stage.runBatch()) {
                batches.add(p.get().numInputRows());
            }
        }
        return batches;
    }

    private static KafkaSubscription subscription(String topic, Map<String, String> settings) {
        Map<String, String> raw = new HashMap<>(settings);
        raw.put("topics", topic);
        raw.put("format", "json");
        raw.put("schema", GoldenDedupTest.SCHEMA.toDdl());
        return KafkaSubscription.of(Values.of(KafkaSourceSettings.ALL, raw));
    }

    private static void createTopics(Map<String, Object> client, String... topics) throws Exception {
        try (Admin admin = Admin.create(client)) {
            List<NewTopic> t = new ArrayList<>();
            for (String name : topics) {
                // as the service creates them: no time retention, as the stages stamp records with event times
                t.add(new NewTopic(name, PARTITIONS, (short) 1).configs(Topics.EVENT_TIME_TOPIC_CONFIG));
            }
            admin.createTopics(t).all().get();
        }
    }

    /** The rows as a producer of the topic writes them: one JSON object per record, spread over the partitions by id. */
    private void produce(Map<String, Object> client, List<String> rows) throws Exception {
        try (KafkaProducer<byte[], byte[]> p = producer(client)) {
            for (String row : rows) {
                int id = JSON.readTree(row).get("id").asInt();
                p.send(new ProducerRecord<>(topic, id % PARTITIONS, bytes(String.valueOf(id)), bytes(row))).get();
            }
        }
    }

    private static KafkaProducer<byte[], byte[]> producer(Map<String, Object> client) {
        return new KafkaProducer<>(client, new ByteArraySerializer(), new ByteArraySerializer());
    }

    /** The results records read by earlier calls: the offset after the last, by partition. */
    private final Map<TopicPartition, Long> seen = new HashMap<>();

    /** The rows written to the results topic since the last call (its committed records, in a new consumer). */
    private List<String> results(Map<String, Object> client, String topic, Schema schema, Function<Object[], String> line) {
        RowJson json = new RowJson(schema);
        List<String> rows = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : read(client, topic)) {
            TopicPartition tp = new TopicPartition(r.topic(), r.partition());
            if (r.offset() < seen.getOrDefault(tp, 0L)) {
                continue;
            }
            seen.put(tp, r.offset() + 1);
            if (r.headers().lastHeader(Topics.MARKER_HEADER) == null) {
                RowPack.forEachRow(r.value(), (b, o, l) -> rows.add(line.apply(json.parse(b, o, l))));
            }
        }
        return rows;
    }

    private static List<ConsumerRecord<byte[], byte[]>> read(Map<String, Object> client, String topic) {
        Map<String, Object> props = new HashMap<>(client);
        props.put("isolation.level", "read_committed");
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> tps = c.partitionsFor(topic).stream().map(p -> new TopicPartition(topic, p.partition())).toList();
            c.assign(tps);
            c.seekToBeginning(tps);
            Map<TopicPartition, Long> end = c.endOffsets(tps);
            while (tps.stream().anyMatch(tp -> c.position(tp) < end.get(tp))) {
                c.poll(Duration.ofMillis(100)).forEach(out::add);
            }
        }
        out.sort(java.util.Comparator.comparing((ConsumerRecord<byte[], byte[]> r) -> r.partition()).thenComparing(ConsumerRecord::offset));
        return out;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
