package io.tributary.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.schema.Timestamps;
import io.tributary.schema.Topics;
import io.tributary.sink.DeltaTables;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three {@code tributary run} processes of one pipeline over a topic another application writes
 * ({@code source.kafka}): they share the topic's six partitions, an instance SIGKILLed for good has its
 * partitions taken over by the two others, and the table ends with exactly the rows, for an append and
 * for a windowed aggregation (which reads the topic in Kafka Streams).
 */
@Tag("integration")
@Tag("scenarios")
@Timeout(900)
class KafkaSourceInstancesTest {
    static final long BASE_MS = 1_767_261_600_000L; // 2026-01-01T10:00:00Z

    @TempDir
    Path dir;
    @RegisterExtension
    final PipelineBroker kafka = new PipelineBroker();

    int id;

    @BeforeEach
    void createTopic() throws Exception {
        try (Admin admin = Admin.create(kafka.client())) {
            admin.createTopics(List.of(new NewTopic("sales", 6, (short) 1))).all().get();
        }
    }

    private Workspace workspace(String body) {
        return kafka.workspace(dir, "name: sales\nsource:\n  kafka:\n    topics: [sales]\n"
                + "    schema: \"id INT, user STRING, amt DOUBLE, ts TIMESTAMP\"\ntopic:\n  partitions: 6\n" + body);
    }

    /** {@code n} rows keyed by their id (spread over the six partitions), event times moving forward; their expected form to {@code expected}. */
    private void produce(int n, List<String> expected) throws Exception {
        try (KafkaProducer<String, String> p = new KafkaProducer<>(kafka.client(), new StringSerializer(), new StringSerializer())) {
            List<java.util.concurrent.Future<?>> sent = new ArrayList<>();
            for (int r = 0; r < n; r++) {
                id++;
                String user = "u" + (id % 5);
                double amt = id % 17;
                String ts = Timestamps.formatMicros((BASE_MS + id * 7_000L) * 1000);
                sent.add(p.send(new ProducerRecord<>("sales", String.valueOf(id),
                        "{\"id\": " + id + ", \"user\": \"" + user + "\", \"amt\": " + amt + ", \"ts\": \"" + ts + "\"}")));
                expected.add(id + "|" + user + "|" + amt + "|" + ts);
            }
            for (java.util.concurrent.Future<?> f : sent) {
                f.get();
            }
        }
    }

    /**
     * Waits until the instances that run (and only they) hold every partition of {@code role}'s group, each some (a
     * Kafka Streams member is named after its instance and thread, {@code b-1}: counted as its instance).
     */
    private static void awaitShared(PipelineInstances instances, String role) {
        await(role + "'s partitions shared by " + instances.ids()).atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofMillis(500))
                .untilAsserted(() -> {
                    instances.assertAlive();
                    Map<String, List<Integer>> owners = new java.util.TreeMap<>();
                    instances.owners(role).forEach((member, p) -> owners.merge(member.replaceAll("-\\d+$", ""), p,
                            (x, y) -> java.util.stream.Stream.concat(x.stream(), y.stream()).toList()));
                    assertThat(owners.keySet()).containsExactlyInAnyOrderElementsOf(instances.ids());
                    assertThat(owners.values()).allSatisfy(p -> assertThat(p).isNotEmpty());
                    TreeSet<Integer> all = new TreeSet<>();
                    owners.values().forEach(all::addAll);
                    assertThat(all).containsExactly(0, 1, 2, 3, 4, 5);
                });
    }

    @Test
    void threeInstancesShareATopicAndTheSurvivorsTakeOverAKilledOnesPartitionsExactly() throws Exception {
        Workspace ws = workspace("sink:\n  delta:\n    path: out/\n");
        String table = dir.resolve("out").toString();
        List<String> expected = new ArrayList<>();
        try (PipelineInstances instances = new PipelineInstances(dir, ws, "sales", kafka.bootstrapServers())) {
            for (String i : List.of("a", "b", "c")) {
                instances.start(i);
            }
            produce(300, expected);
            awaitShared(instances, "sink");
            assertThat(instances.owners("sink").values()).as("two of the six partitions each").allSatisfy(p -> assertThat(p).hasSize(2));
            instances.awaitCaughtUp(table, "sales", Duration.ofMinutes(5));

            instances.kill("b");
            produce(300, expected);
            awaitShared(instances, "sink"); // a and c, b's partitions among them
            instances.awaitCaughtUp(table, "sales", Duration.ofMinutes(5));
            instances.stopAll();
        }
        List<String> actual = new ArrayList<>();
        for (Object[] r : DeltaTables.readRows(table)) {
            actual.add(r[0] + "|" + r[1] + "|" + r[2] + "|" + Timestamps.formatMicros((Long) r[3]));
        }
        assertThat(actual).containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void threeInstancesOfAnAggregationOverATopicSurviveAKilledOneExactly() throws Exception {
        Workspace ws = workspace("""
                aggregate:
                  eventTime: ts
                  watermark: 5 minutes
                  window: 10 minutes
                  groupBy: [user]
                  select: { t: sum(amt) }
                outputMode: append
                sink:
                  delta:
                    path: out/
                """);
        String table = dir.resolve("out").toString();
        List<String> input = new ArrayList<>();
        try (PipelineInstances instances = new PipelineInstances(dir, ws, "sales", kafka.bootstrapServers())) {
            for (String i : List.of("a", "b", "c")) {
                instances.start(i);
            }
            produce(300, input);
            awaitShared(instances, "aggregate");
            awaitWindows(instances, table, input);

            instances.kill("c");
            produce(300, input);
            awaitShared(instances, "aggregate"); // a and b, c's tasks among them
            awaitWindows(instances, table, input);
            instances.awaitCaughtUp(table, Topics.results("sales"), Duration.ofMinutes(2));
            instances.stopAll();
        }
        assertThat(GoldenWindowsScenarioTest.table(table)).containsExactlyInAnyOrderElementsOf(InstancesTest.closedWindows(input));
    }

    /** Waits until the table holds the windows the rows so far close (the processes are stopped before the table is judged). */
    private static void awaitWindows(PipelineInstances instances, String table, List<String> input) {
        List<String> want = InstancesTest.closedWindows(input);
        await("the windows of " + input.size() + " rows in the table").atMost(Duration.ofMinutes(4)).pollInterval(Duration.ofMillis(500))
                .until(() -> {
                    instances.assertAlive();
                    return DeltaTables.exists(table) && new TreeSet<>(GoldenWindowsScenarioTest.table(table)).equals(new TreeSet<>(want));
                });
    }
}
