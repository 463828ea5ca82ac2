package io.tributary.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.schema.Timestamps;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A running aggregation or deduplication over a Kafka source (its own {@code tributary run} process) takes in a
 * partition added to its topic, or a topic created to match its {@code topicPattern}, as Spark's Kafka source does: a
 * following batch reads it from its earliest offset, its rows count in the windows and move the global watermark, and
 * each window is written once with Spark's values.
 */
@Tag("integration")
@Tag("scenarios")
@Timeout(600)
class KafkaSourceAddedPartitionsScenarioTest {
    private static final String AGGREGATE = """
            aggregate:
              eventTime: ts
              watermark: 5 minutes
              window: 10 minutes
              groupBy: [user]
              select: { t: sum(amt) }
            outputMode: append
            topic:
              partitions: 2
            sink:
              delta:
                path: agg/
            """;
    /** 2026-01-01T10:00:00Z. */
    private static final long TEN = 1_767_261_600_000L;

    @TempDir
    Path dir;
    private SourceTopics kafka;
    private int id;
    /** The rows produced, as {@code id|user|amt|ts} ({@link InstancesTest#closedWindows}). */
    private final List<String> input = new ArrayList<>();

    @BeforeEach
    void start() {
        kafka = new SourceTopics(dir);
    }

    @AfterEach
    void stop() {
        kafka.close();
    }

    @Test
    void aWindowedAggregationReadsAPartitionAddedToItsTopicWhileItRuns() throws Exception {
        kafka.create("sales", 2);
        ChildProcess run = start("""
                name: sales
                source:
                  kafka:
                    topics: [sales]
                    schema: "id INT, user STRING, amt DOUBLE, ts TIMESTAMP"
                trigger: { processingTime: 1 second }
                """);
        try {
            produce("sales", 0, "ann", 0, 4, 9, 14);
            produce("sales", 1, "bob", 2, 11, 25);
            awaitWindows(run, "the windows the first rows close");

            addPartitions("sales", 3);
            produce("sales", 2, "cat", 26, 31, 44); // written before the run sees the partition: read from its earliest offset
            awaitWindows(run, "[10:20, 10:30), which only the new partition's rows close");

            produce("sales", 0, "ann", 45, 46);
            produce("sales", 2, "cat", 46, 47);
            produce("sales", 1, "bob", 48);
            awaitRead("sales"); // so that no batch reads the next row before these: none of them is late
            produce("sales", 0, "ann", 80); // moves the watermark to 11:15: every window before it closes
            awaitWindows(run, "every window of the input but the last");
            stopAndCheck(run);
        } finally {
            run.kill();
        }
        assertThat(GoldenWindowsScenarioTest.table(dir.resolve("agg").toString())).as("the new partition's rows in their windows")
                .contains("{2026-01-01 10:20:00, 2026-01-01 10:30:00}|cat|" + sum("cat", 26),
                        "{2026-01-01 10:40:00, 2026-01-01 10:50:00}|cat|" + sum("cat", 44, 46, 47));
    }

    @Test
    void aWindowedAggregationReadsATopicCreatedToMatchItsPatternWhileItRuns() throws Exception {
        kafka.create("sales-eu", 2);
        ChildProcess run = start("""
                name: sales
                source:
                  kafka:
                    topicPattern: "sales-.*"
                    schema: "id INT, user STRING, amt DOUBLE, ts TIMESTAMP"
                """); // continuous: each batch as soon as the last ended
        try {
            produce("sales-eu", 0, "ann", 0, 4, 9, 14);
            produce("sales-eu", 1, "bob", 2, 11, 25);
            awaitWindows(run, "the windows the first rows close");

            kafka.create("sales-us", 3); // more partitions than sales-eu: a source task of its own for the third
            kafka.create("other", 1);
            produce("other", 0, "zed", 27);
            produce("sales-us", 0, "cat", 26);
            produce("sales-us", 1, "dan", 29, 33);
            produce("sales-us", 2, "eve", 31, 44);
            awaitWindows(run, "[10:20, 10:30), which only the new topic's rows close");

            produce("sales-eu", 0, "ann", 45, 46);
            produce("sales-us", 2, "eve", 46, 47);
            produce("sales-us", 0, "cat", 48);
            awaitRead("sales-eu", "sales-us");
            produce("sales-eu", 1, "bob", 80);
            awaitWindows(run, "every window of the input but the last");
            stopAndCheck(run);
        } finally {
            run.kill();
        }
        assertThat(GoldenWindowsScenarioTest.table(dir.resolve("agg").toString())).as("the new topic's rows in their windows")
                .contains("{2026-01-01 10:20:00, 2026-01-01 10:30:00}|cat|" + sum("cat", 26),
                        "{2026-01-01 10:40:00, 2026-01-01 10:50:00}|eve|" + sum("eve", 44, 46, 47))
                .noneMatch(r -> r.contains("|zed|"));
    }

    @Test
    void dropDuplicatesKeepsTheFirstRowOfAKeyAcrossAPartitionAddedWhileItRuns() throws Exception {
        kafka.create("orders", 2);
        Workspace ws = new Workspace(dir, kafka.spec("    topics: [orders]\n") + "transform:\n  dropDuplicates: { keys: [id] }\n");
        ChildProcess run = ChildProcess.start(dir, Map.of(), "run", ws.spec.toString());
        try {
            kafka.produce("orders", 0, SourceTopics.ids(IntStream.rangeClosed(1, 10).toArray()));
            kafka.produce("orders", 1, SourceTopics.ids(IntStream.rangeClosed(6, 15).toArray()));
            awaitIds(run, 15);

            addPartitions("orders", 3);
            kafka.produce("orders", 2, SourceTopics.ids(IntStream.rangeClosed(12, 25).toArray()));
            kafka.produce("orders", 0, SourceTopics.ids(3, 26, 20));
            awaitIds(run, 26);
            assertThat(run.stop(90)).as("exit code after SIGTERM; stderr:\n%s", run.err()).isZero();
        } finally {
            run.kill();
        }
        assertThat(SourceTopics.tableIds(dir)).as("each id once, the new partition's among them")
                .isEqualTo(new TreeSet<>(IntStream.rangeClosed(1, 26).boxed().toList()));
    }

    private ChildProcess start(String source) throws Exception {
        String kafkaBlock = "kafka:\n  bootstrap.servers: \"" + kafka.broker.bootstrapServers() + "\"\n";
        Workspace ws = new Workspace(dir, source + AGGREGATE + kafkaBlock);
        return ChildProcess.start(dir, Map.of(), "run", ws.spec.toString());
    }

    /** One row per minute past 10:00 given, for {@code user}, to {@code topic}'s {@code partition}; amt is the row's id. */
    private void produce(String topic, int partition, String user, int... minutes) throws Exception {
        List<String> values = new ArrayList<>();
        for (int m : minutes) {
            id++;
            String ts = Timestamps.formatMicros((TEN + m * 60_000L) * 1000);
            values.add("{\"id\": " + id + ", \"user\": \"" + user + "\", \"amt\": " + id + ", \"ts\": \"" + ts + "\"}");
            if (!topic.equals("other")) {
                input.add(id + "|" + user + "|" + (double) id + "|" + ts);
            }
        }
        kafka.produce(topic, partition, values.toArray(String[]::new));
    }

    /** The sum of the amts (ids) of {@code user}'s rows produced at these minutes. */
    private double sum(String user, int... minutes) {
        double sum = 0;
        for (int m : minutes) {
            String ts = Timestamps.formatMicros((TEN + m * 60_000L) * 1000);
            for (String row : input) {
                String[] f = row.split("\\|");
                if (f[1].equals(user) && f[3].equals(ts)) {
                    sum += Double.parseDouble(f[2]);
                }
            }
        }
        return sum;
    }

    private void addPartitions(String topic, int total) throws Exception {
        try (Admin admin = Admin.create(kafka.client())) {
            admin.createPartitions(Map.of(topic, NewPartitions.increaseTo(total))).all().get();
        }
    }

    /** Waits until the table holds Spark's closed windows of the input so far (the largest event time minus 5 minutes). */
    private void awaitWindows(ChildProcess run, String what) {
        List<String> want = InstancesTest.closedWindows(input);
        String table = dir.resolve("agg").toString();
        run.awaitWhileAlive(what + ": " + want, Duration.ofMinutes(3), Duration.ofMillis(300),
                () -> new TreeSet<>(GoldenWindowsScenarioTest.table(table)).equals(new TreeSet<>(want)));
    }

    /** Waits until the aggregation committed its reading of every partition of {@code topics} up to its end. */
    private void awaitRead(String... topics) {
        await("the aggregation read " + List.of(topics) + " to the end").atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(300))
                .until(() -> {
                    try (Admin admin = Admin.create(kafka.client())) {
                        Map<TopicPartition, OffsetSpec> ask = new HashMap<>();
                        admin.describeTopics(List.of(topics)).allTopicNames().get().forEach((t, d) -> d.partitions().forEach(p ->
                                ask.put(new TopicPartition(t, p.partition()), OffsetSpec.latest())));
                        Map<TopicPartition, OffsetAndMetadata> read = admin.listConsumerGroupOffsets("tributary-sales-aggregate")
                                .partitionsToOffsetAndMetadata().get();
                        return admin.listOffsets(ask).all().get().entrySet().stream().allMatch(e -> e.getValue().offset() == 0
                                || read.get(e.getKey()) != null && read.get(e.getKey()).offset() >= e.getValue().offset());
                    }
                });
    }

    private void awaitIds(ChildProcess run, int ids) {
        run.awaitWhileAlive(ids + " ids in the table", Duration.ofMinutes(3), Duration.ofMillis(300),
                () -> io.tributary.sink.DeltaTables.exists(dir.resolve("out").toString()) && SourceTopics.tableIds(dir).size() >= ids);
    }

    /** Stops the run and checks that the table holds each closed window once, with Spark's sums. */
    private void stopAndCheck(ChildProcess run) throws Exception {
        assertThat(run.stop(90)).as("exit code after SIGTERM; stderr:\n%s", run.err()).isZero();
        assertThat(GoldenWindowsScenarioTest.table(dir.resolve("agg").toString())).as("each closed window once")
                .containsExactlyInAnyOrderElementsOf(InstancesTest.closedWindows(input));
    }
}
