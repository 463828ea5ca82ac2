package io.tributary.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.broker.EmbeddedBroker;
import io.tributary.schema.Progress;
import io.tributary.schema.RowPack;
import io.tributary.schema.Schema;
import io.tributary.schema.Topics;
import io.tributary.schema.TributaryException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The aggregation stage on a real broker: what its progress lines count. */
@Tag("integration")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class StreamsAggregationTest {
    private static final String EVENTS = "tributary.t.events";
    private static final String RESULTS = "tributary.t.results";
    private static final int PARTITIONS = 2;

    @TempDir
    Path dir;

    /**
     * The stages open concurrently, so the ingest's first batch may be aggregated and committed
     * before the aggregation stage has opened: its first progress line still counts that batch.
     */
    @Test
    void theFirstBatchCountsWhatWasAggregatedWhileTheStageOpened() throws Exception {
        Schema input = Schema.parse("id INT, user STRING, amt DOUBLE, ts TIMESTAMP");
        AggregateSpec spec = AggregateSpec.builder().eventTime("ts").watermark(java.time.Duration.ofMinutes(5))
                .window(java.time.Duration.ofMinutes(10)).groupBy(List.of("user")).select(Map.of("t", "sum(amt)"))
                .outputMode(OutputMode.APPEND).build(input);
        try (EmbeddedBroker broker = EmbeddedBroker.start(dir.resolve("kafka"));
             Admin admin = Admin.create(Map.of("bootstrap.servers", broker.bootstrapServers()))) {
            Map<String, Object> client = Map.of("bootstrap.servers", broker.bootstrapServers());
            admin.createTopics(List.of(new NewTopic(EVENTS, PARTITIONS, (short) 1).configs(Topics.EVENT_TIME_TOPIC_CONFIG),
                    new NewTopic(RESULTS, PARTITIONS, (short) 1).configs(Topics.EVENT_TIME_TOPIC_CONFIG))).all().get();
            try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.<String, Object>of("bootstrap.servers",
                    broker.bootstrapServers()), new ByteArraySerializer(), new ByteArraySerializer())) {
                RowPack rows = new RowPack(1024);
                rows.add(bytes("{\"id\":1,\"user\":\"a\",\"amt\":5.0,\"ts\":\"2026-01-01T10:01:00Z\"}"), 0);
                rows.add(bytes("{\"id\":2,\"user\":\"a\",\"amt\":1.0,\"ts\":\"2026-01-01T10:04:00Z\"}"), 0);
                rows.add(bytes("{\"id\":3,\"user\":\"a\",\"amt\":2.0,\"ts\":\"2026-01-01T10:30:00Z\"}"), 0);
                producer.send(new ProducerRecord<>(EVENTS, 0, bytes("[\"a\"]"), rows.take())).get();
                for (int p = 0; p < PARTITIONS; p++) {
                    RecordHeaders marker = new RecordHeaders();
                    marker.add(Topics.MARKER_HEADER, Topics.WATERMARK);
                    producer.send(new ProducerRecord<>(EVENTS, p, null, null,
                            bytes("{\"batchId\":0,\"watermarkMs\":null}"), marker)).get();
                }
            }
            Map<TopicPartition, Long> end = admin.listOffsets(Map.of(new TopicPartition(EVENTS, 0), OffsetSpec.latest(),
                    new TopicPartition(EVENTS, 1), OffsetSpec.latest())).all().get().entrySet().stream()
                    .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));

            try (StreamsAggregation stage = new StreamsAggregation(AggregationConfig.builder("t", spec, dir.resolve("streams")).bounded(true).build(), client)) {
                // the batch is aggregated and committed before the pipeline asks for it
                await("the aggregation commits the batch").atMost(java.time.Duration.ofSeconds(60)).pollInterval(java.time.Duration.ofMillis(20))
                        .untilAsserted(() -> assertThat(committed(admin)).isEqualTo(end));

                Optional<Progress> progress = stage.runBatch();
                assertThat(progress).as("the first batch's progress").isPresent();
                assertThat(progress.get().numInputRows()).isEqualTo(3);
                assertThat(progress.get().sources().get(0).endOffset()).isEqualTo(Map.of(EVENTS, Map.of("0", 2L, "1", 1L)));
                assertThat(stage.runBatch()).as("nothing more").isEmpty();
                // what the service publishes as metrics: the two windows of user a are in state, nothing was late
                assertThat(stage.metrics()).containsEntry(AggregateMetrics.INPUT_ROWS, 3.0)
                        .containsEntry(AggregateMetrics.ROWS_TOTAL, 2.0).containsEntry(AggregateMetrics.ROWS_DROPPED, 0.0);
            }
        }
    }

    /**
     * Rows that no batch-end marker follows can never be written: a bounded run fails at once,
     * naming the partition and what to do, rather than waiting for the commit interval and ending
     * as if all were done.
     */
    @Test
    void aBoundedRunFailsAtOnceWhenNoMarkerEndsTheLastBatch() throws Exception {
        Schema input = Schema.parse("id INT, user STRING, amt DOUBLE, ts TIMESTAMP");
        AggregateSpec spec = AggregateSpec.builder().eventTime("ts").window(java.time.Duration.ofMinutes(10))
                .groupBy(List.of("user")).select(Map.of("t", "sum(amt)")).outputMode(OutputMode.COMPLETE).build(input);
        try (EmbeddedBroker broker = EmbeddedBroker.start(dir.resolve("kafka"));
             Admin admin = Admin.create(Map.of("bootstrap.servers", broker.bootstrapServers()))) {
            Map<String, Object> client = Map.of("bootstrap.servers", broker.bootstrapServers());
            admin.createTopics(List.of(new NewTopic(EVENTS, PARTITIONS, (short) 1).configs(Topics.EVENT_TIME_TOPIC_CONFIG),
                    new NewTopic(RESULTS, PARTITIONS, (short) 1).configs(Topics.EVENT_TIME_TOPIC_CONFIG))).all().get();
            try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.<String, Object>of("bootstrap.servers",
                    broker.bootstrapServers(), "transactional.id", "no-markers"), new ByteArraySerializer(), new ByteArraySerializer())) {
                producer.initTransactions();
                producer.beginTransaction();
                RowPack rows = new RowPack(1024);
                rows.add(bytes("{\"id\":1,\"user\":\"a\",\"amt\":5.0,\"ts\":\"2026-01-01T10:01:00Z\"}"), 0);
                producer.send(new ProducerRecord<>(EVENTS, 1, bytes("[\"a\"]"), rows.take()));
                producer.commitTransaction(); // rows, then the commit's control record: no marker
            }
            try (StreamsAggregation stage = new StreamsAggregation(AggregationConfig.builder("t", spec, dir.resolve("streams")).bounded(true).build(), client)) {
                assertThatThrownBy(stage::runBatch).isInstanceOf(TributaryException.class)
                        .hasMessageContaining("the aggregation read " + EVENTS + "-1 up to its end (offset 1)")
                        .hasMessageContaining("no batch-end marker follows its last rows")
                        .hasMessageContaining("add an input file and run again");
            }
        }
    }

    /**
     * A HAVING predicate that fails on a closed window (ANSI's division by zero) stops the stage as Spark fails the query:
     * the error the run ends with names the predicate as written, the group and the failing part, not only the state.
     */
    @Test
    void aHavingThatFailsOnAGroupStopsTheStageNamingThePredicateAndTheGroup() throws Exception {
        Schema input = Schema.parse("id INT, user STRING, amt DOUBLE, ts TIMESTAMP");
        AggregateSpec spec = AggregateSpec.builder().eventTime("ts").watermark(java.time.Duration.ofMinutes(5))
                .window(java.time.Duration.ofMinutes(10)).groupBy(List.of("user")).select(Map.of("t", "sum(amt)"))
                .having("10 / (count(*) - 1) > 1").outputMode(OutputMode.APPEND).build(input);
        try (EmbeddedBroker broker = EmbeddedBroker.start(dir.resolve("kafka"));
             Admin admin = Admin.create(Map.of("bootstrap.servers", broker.bootstrapServers()))) {
            Map<String, Object> client = Map.of("bootstrap.servers", broker.bootstrapServers());
            admin.createTopics(List.of(new NewTopic(EVENTS, PARTITIONS, (short) 1).configs(Topics.EVENT_TIME_TOPIC_CONFIG),
                    new NewTopic(RESULTS, PARTITIONS, (short) 1).configs(Topics.EVENT_TIME_TOPIC_CONFIG))).all().get();
            try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.<String, Object>of("bootstrap.servers",
                    broker.bootstrapServers()), new ByteArraySerializer(), new ByteArraySerializer())) {
                RowPack rows = new RowPack(1024);
                rows.add(bytes("{\"id\":1,\"user\":\"a\",\"amt\":5.0,\"ts\":\"2026-01-01T10:01:00Z\"}"), 0);
                rows.add(bytes("{\"id\":2,\"user\":\"a\",\"amt\":2.0,\"ts\":\"2026-01-01T10:30:00Z\"}"), 0);
                producer.send(new ProducerRecord<>(EVENTS, 0, bytes("[\"a\"]"), rows.take())).get();
                long watermark = java.time.Instant.parse("2026-01-01T10:25:00Z").toEpochMilli(); // closes a's 10:00 window of one row
                for (String marker : List.of("{\"batchId\":0,\"watermarkMs\":null}", "{\"batchId\":1,\"watermarkMs\":" + watermark + "}")) {
                    for (int p = 0; p < PARTITIONS; p++) {
                        RecordHeaders headers = new RecordHeaders();
                        headers.add(Topics.MARKER_HEADER, Topics.WATERMARK);
                        producer.send(new ProducerRecord<>(EVENTS, p, null, null, bytes(marker), headers)).get();
                    }
                }
            }
            // the window may close, and the predicate fail, before the application is running (the start then ends with
            // that error) or in a later batch: either way the run stops with the predicate's own message
            assertThatThrownBy(() -> {
                try (StreamsAggregation stage = new StreamsAggregation(
                        AggregationConfig.builder("t", spec, dir.resolve("streams")).bounded(true).build(), client)) {
                    while (stage.runBatch().isPresent()) {
                        // batch 0 ends; batch 1 closes the window and fails
                    }
                }
            }).isInstanceOf(TributaryException.class).hasMessageContaining("the aggregation (Kafka Streams application")
                    .hasMessageContaining("stopped: aggregate.having \"10 / (count(*) - 1) > 1\" failed on the group window"
                            + " {2026-01-01T10:00:00Z, 2026-01-01T10:10:00Z}, user a, t 5.0, count(*) 1: DIVIDE_BY_ZERO: division by zero"
                            + " in 10 / (count(*) - 1)")
                    .hasMessageContaining("guard the predicate (try_divide, CASE WHEN ...)");
        }
    }

    /**
     * Two instances of one application share its tasks: each runs one partition's task and keeps
     * a warm copy of the other's, a batch of each is its own partition (its progress names the
     * instance), and when one closes the other takes its task.
     */
    @Test
    void instancesShareTheTasksAndABatchIsTheInstancesPartitions() throws Exception {
        Schema input = Schema.parse("id INT, user STRING, amt DOUBLE, ts TIMESTAMP");
        AggregateSpec spec = AggregateSpec.builder().eventTime("ts").watermark(java.time.Duration.ofMinutes(5))
                .window(java.time.Duration.ofMinutes(10)).groupBy(List.of("user")).select(Map.of("t", "sum(amt)"))
                .outputMode(OutputMode.APPEND).build(input);
        try (EmbeddedBroker broker = EmbeddedBroker.start(dir.resolve("kafka"));
             Admin admin = Admin.create(Map.of("bootstrap.servers", broker.bootstrapServers()))) {
            Map<String, Object> client = Map.of("bootstrap.servers", broker.bootstrapServers());
            admin.createTopics(List.of(new NewTopic(EVENTS, PARTITIONS, (short) 1).configs(Topics.EVENT_TIME_TOPIC_CONFIG),
                    new NewTopic(RESULTS, PARTITIONS, (short) 1).configs(Topics.EVENT_TIME_TOPIC_CONFIG))).all().get();
            try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.<String, Object>of("bootstrap.servers",
                    broker.bootstrapServers()), new ByteArraySerializer(), new ByteArraySerializer())) {
                for (int p = 0; p < PARTITIONS; p++) {
                    RowPack rows = new RowPack(1024);
                    rows.add(bytes("{\"id\":" + p + ",\"user\":\"u" + p + "\",\"amt\":1.0,\"ts\":\"2026-01-01T10:01:00Z\"}"), 0);
                    producer.send(new ProducerRecord<>(EVENTS, p, bytes("[\"u" + p + "\"]"), rows.take())).get();
                    RecordHeaders marker = new RecordHeaders();
                    marker.add(Topics.MARKER_HEADER, Topics.WATERMARK);
                    producer.send(new ProducerRecord<>(EVENTS, p, null, null, bytes("{\"batchId\":0,\"watermarkMs\":null}"), marker)).get();
                }
            }
            StreamsAggregation b = null;
            try (StreamsAggregation a = new StreamsAggregation(AggregationConfig.builder("t", spec, dir.resolve("a")).instance("a", 1).build(), client)) {
                b = new StreamsAggregation(AggregationConfig.builder("t", spec, dir.resolve("b")).instance("b", 1).build(), client);
                StreamsAggregation other = b;
                await("each instance runs one task and keeps a copy of the other").atMost(java.time.Duration.ofSeconds(90))
                        .pollInterval(java.time.Duration.ofMillis(100)).untilAsserted(() -> {
                            assertThat(a.share().partitions()).hasSize(1);
                            assertThat(other.share().partitions()).hasSize(1);
                            assertThat(a.share().standbyTasks()).isEqualTo(other.share().activeTasks());
                            assertThat(other.share().standbyTasks()).isEqualTo(a.share().activeTasks());
                        });
                int mine = a.share().partitions().get(0);
                assertThat(other.share().partitions()).containsExactly(1 - mine);
                await("both tasks commit their partition").atMost(java.time.Duration.ofSeconds(90))
                        .pollInterval(java.time.Duration.ofMillis(100))
                        .untilAsserted(() -> assertThat(committed(admin)).containsEntry(new TopicPartition(EVENTS, 0), 2L)
                                .containsEntry(new TopicPartition(EVENTS, 1), 2L));
                Optional<Progress> batch = a.runBatch();
                assertThat(batch).as("the batch of a").isPresent();
                Progress.Source source = batch.get().sources().get(0);
                assertThat(source.endOffset()).isEqualTo(Map.of(EVENTS, Map.of(String.valueOf(mine), 2L)));
                assertThat(source.metrics()).containsEntry("instance", "a").containsEntry("partitions", List.of(mine));
                b.close();
                b = null;
                await("a takes the task of b, which left the group").atMost(java.time.Duration.ofSeconds(90))
                        .pollInterval(java.time.Duration.ofMillis(100))
                        .untilAsserted(() -> assertThat(a.share().partitions()).containsExactly(0, 1));
            } finally {
                if (b != null) {
                    b.close();
                }
            }
        }
    }

    private static Map<TopicPartition, Long> committed(Admin admin) throws Exception {
        Map<TopicPartition, OffsetAndMetadata> m = admin.listConsumerGroupOffsets("tributary-t-aggregate")
                .partitionsToOffsetAndMetadata().get();
        return m.entrySet().stream().filter(e -> e.getKey().topic().equals(EVENTS) && e.getValue() != null)
                .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
