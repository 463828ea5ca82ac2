package io.tributary.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.kafka.KafkaSourceSettings;
import io.tributary.kafka.KafkaSubscription;
import io.tributary.schema.StageShare;
import io.tributary.settings.Values;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Instances of one sink of a Kafka source of several topics (a {@code topicPattern}) share the
 * topics' partitions through the sink's group and commit to one table: the topic-partitions carry
 * the same numbers in every instance (the table's, new ones in the order of topic, then
 * partition), a topic created while they run is shared too, an instance that stops and starts
 * again resumes at the table's offsets, and every row lands once.
 */
@Tag("integration")
@Tag("scenarios")
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class SharedKafkaSourceSinkIT {
    private static final String APP = "tributary-shared-topics-sink";

    @RegisterExtension
    static final TestKafka KAFKA = new TestKafka();

    @TempDir
    Path dir;

    private int nextId;
    private final List<Integer> published = new ArrayList<>();

    @Test
    void instancesShareThePartitionsOfAPatternsTopicsOneCreatedWhileTheyRunAndEveryRowLandsOnce() throws Exception {
        String prefix = "shared-" + UUID.randomUUID().toString().substring(0, 8);
        String a = prefix + "-a";
        String b = prefix + "-b";
        String c = prefix + "-c";
        createTopic(b, 3); // created before a: the numbers follow the names, not the order of creation
        createTopic(a, 2);
        KafkaSubscription subscription = KafkaSubscription.of(Values.of(KafkaSourceSettings.ALL,
                Map.of("topicPattern", prefix + "-.*", "schema", "id INT, user STRING")));
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            publish(Map.of(a, 2, b, 3), 10);
            Running x = run(threads, subscription, "x");
            Running y = run(threads, subscription, "y");
            await("the group gives both instances some of the five partitions").atMost(Duration.ofMinutes(1))
                    .until(() -> x.failIfEnded() && y.failIfEnded() && owners().values().stream().distinct().count() == 2);
            publish(Map.of(a, 2, b, 3), 10);
            await("x and y take every row").atMost(Duration.ofMinutes(1))
                    .until(() -> x.failIfEnded() && y.failIfEnded() && ids().size() == published.size());

            createTopic(c, 2); // matches the pattern: the group assigns its partitions, read from their earliest offset
            publish(Map.of(c, 2), 10);
            await("the new topic's rows").atMost(Duration.ofMinutes(1))
                    .until(() -> x.failIfEnded() && y.failIfEnded() && ids().size() == published.size());
            await("x's and y's shares name every topic-partition once, by topic").atMost(Duration.ofMinutes(1)).untilAsserted(() -> {
                Map<String, List<Integer>> union = new TreeMap<>();
                for (Running r : List.of(x, y)) {
                    StageShare share = r.sink.workShare().orElseThrow();
                    assertThat(share.partitions()).as("no numbers of the sink's own").isEmpty();
                    share.topics().forEach((t, ps) -> union.computeIfAbsent(t, k -> new ArrayList<>()).addAll(ps));
                }
                union.values().forEach(ps -> ps.sort(null));
                assertThat(union).isEqualTo(Map.of(a, List.of(0, 1), b, List.of(0, 1, 2), c, List.of(0, 1)));
            });

            x.stop(); // leaves the group: y takes x's partitions at the table's offsets
            publish(Map.of(a, 2, b, 3, c, 2), 5);
            await("y alone takes every row").atMost(Duration.ofMinutes(1)).until(() -> y.failIfEnded() && ids().size() == published.size());
            Running x2 = run(threads, subscription, "x"); // x again: its share resumes at the table's offsets
            await("the group gives x some partitions again").atMost(Duration.ofMinutes(1))
                    .until(() -> x2.failIfEnded() && y.failIfEnded() && owners().values().stream().distinct().count() == 2);
            publish(Map.of(a, 2, b, 3, c, 2), 5);
            await("x and y take every row").atMost(Duration.ofMinutes(1))
                    .until(() -> x2.failIfEnded() && y.failIfEnded() && ids().size() == published.size());
            x2.stop();
            y.stop();
        } finally {
            threads.shutdownNow();
        }

        assertThat(ids()).as("every row once").containsExactlyElementsOf(published.stream().sorted().toList());
        assertThat(txnAppIds()).as("both instances committed").contains(APP + "@x", APP + "@y");
        SinkOffsets offsets = DeltaTables.sinkOffsets(table()).orElseThrow();
        assertThat(offsets.sources()).as("the topic-partitions' numbers: topic, then partition, the new topic's after")
                .isEqualTo(Map.of(0, new TopicPartition(a, 0), 1, new TopicPartition(a, 1), 2, new TopicPartition(b, 0),
                        3, new TopicPartition(b, 1), 4, new TopicPartition(b, 2), 5, new TopicPartition(c, 0), 6, new TopicPartition(c, 1)));
        Map<String, Map<String, Long>> ends = new TreeMap<>();
        endOffsets(a, b, c).forEach((tp, o) -> ends.computeIfAbsent(tp.topic(), t -> new TreeMap<>()).put(String.valueOf(tp.partition()), o));
        assertThat(offsets.sparkJson()).as("the table's offsets: every partition's end, as Spark prints them").isEqualTo(ends);
    }

    @Test
    void instancesOverANewTableStartAtLatestResolvedOnceAndTakeEveryLaterRowOnce() throws Exception {
        String prefix = "latest-" + UUID.randomUUID().toString().substring(0, 8);
        String a = prefix + "-a";
        String b = prefix + "-b";
        createTopic(a, 2);
        createTopic(b, 3);
        publish(Map.of(a, 2, b, 3), 10); // before the table: not in it (startingOffsets latest)
        published.clear();
        KafkaSubscription subscription = KafkaSubscription.of(Values.of(KafkaSourceSettings.ALL,
                Map.of("topics", a + "," + b, "startingOffsets", "latest", "schema", "id INT, user STRING")));
        runTwoFromTheRecordedStart(subscription, () -> publish(Map.of(a, 2, b, 3), 10), 50);

        assertThat(ids()).as("the rows published after the start, each once").containsExactlyElementsOf(published);
        assertThat(txnAppIds()).as("both instances committed").contains(APP + "@x", APP + "@y");
        assertThat(DeltaTables.sinkOffsets(table()).orElseThrow().sparkJson()).as("every partition's end").isEqualTo(sparkEnds(a, b));
    }

    @Test
    void instancesOverANewTableStartAtTheOffsetsGivenAsJson() throws Exception {
        String topic = "json-" + UUID.randomUUID().toString().substring(0, 8);
        createTopic(topic, 3);
        publish(Map.of(topic, 3), 10); // ids 0-9 in partition 0, 10-19 in 1, 20-29 in 2
        KafkaSubscription subscription = KafkaSubscription.of(Values.of(KafkaSourceSettings.ALL, Map.of("topics", topic,
                "startingOffsets", "{\"" + topic + "\":{\"0\":4,\"1\":-2,\"2\":-1}}", "schema", "id INT, user STRING")));
        runTwoFromTheRecordedStart(subscription, () -> publish(Map.of(topic, 3), 5), 6 + 10 + 15); // ids 30-34, 35-39, 40-44

        List<Integer> expected = new ArrayList<>();
        for (int id = 0; id < 45; id++) {
            boolean before = id < 30;
            int partition = before ? id / 10 : (id - 30) / 5;
            if (!before || partition == 0 && id % 10 >= 4 || partition == 1) {
                expected.add(id);
            }
        }
        assertThat(ids()).as("partition 0 from offset 4, partition 1 from its earliest, partition 2 from its end").isEqualTo(expected);
        assertThat(DeltaTables.sinkOffsets(table()).orElseThrow().sparkJson()).as("every partition's end").isEqualTo(sparkEnds(topic));
    }

    /**
     * Instances x and y of a sink of {@code subscription} over a new table: once the table's first
     * commit recorded where every partition starts and both own partitions, {@code publish} runs;
     * returns when the table holds {@code rows} rows.
     */
    private void runTwoFromTheRecordedStart(KafkaSubscription subscription, Runnable publish, int rows) throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            Running x = run(threads, subscription, "x");
            Running y = run(threads, subscription, "y");
            await("the table records the start, and the group gives both instances partitions").atMost(Duration.ofMinutes(1))
                    .until(() -> x.failIfEnded() && y.failIfEnded() && DeltaTables.exists(table())
                            && DeltaTables.sinkOffsets(table()).isPresent() && owners().values().stream().distinct().count() == 2);
            publish.run();
            await("x and y take every row").atMost(Duration.ofMinutes(1))
                    .until(() -> x.failIfEnded() && y.failIfEnded() && ids().size() >= rows);
            x.stop();
            y.stop();
        } finally {
            threads.shutdownNow();
        }
    }

    private static Map<String, Map<String, Long>> sparkEnds(String... topics) {
        Map<String, Map<String, Long>> ends = new TreeMap<>();
        endOffsets(topics).forEach((tp, o) -> ends.computeIfAbsent(tp.topic(), t -> new TreeMap<>()).put(String.valueOf(tp.partition()), o));
        return ends;
    }

    /** An instance of a running sink, running batches on a thread of the test until {@link #stop()}. */
    private static final class Running {
        final AtomicBoolean stop = new AtomicBoolean();
        Future<?> loop;
        volatile DeltaSink sink;

        boolean failIfEnded() throws Exception {
            if (loop.isDone()) {
                loop.get();
                throw new AssertionError("an instance ended");
            }
            return true;
        }

        void stop() throws Exception {
            stop.set(true);
            loop.get(1, TimeUnit.MINUTES);
        }
    }

    private Running run(ExecutorService threads, KafkaSubscription subscription, String instance) {
        Running r = new Running();
        SinkConfig config = SinkConfig.of(table(), subscription.rowSchema(), subscription.description(), APP, "shared/sink");
        r.loop = threads.submit(() -> {
            try (DeltaSink sink = DeltaSink.builder(config, KAFKA.client()).storage(io.tributary.storage.Storage.NONE)
                    .subscription(subscription).instanceId(instance).continuous(true).build()) {
                r.sink = sink;
                while (!r.stop.get()) {
                    if (sink.runBatch().isEmpty()) {
                        Thread.sleep(50); // the service's idle poll
                    }
                }
            }
            return null;
        });
        return r;
    }

    private static void createTopic(String topic, int partitions) throws Exception {
        try (Admin admin = Admin.create(KAFKA.client())) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get();
        }
    }

    /** {@code perPartition} rows into each partition of each topic (topic to its partitions), one transaction a topic. */
    private void publish(Map<String, Integer> topics, int perPartition) {
        new TreeMap<>(topics).forEach((topic, partitions) -> {
            int first = nextId;
            int count = partitions * perPartition;
            KAFKA.inTransaction(producer -> { // a transaction the coordinator refused is sent again, with the same ids
                int id = first;
                for (int p = 0; p < partitions; p++) {
                    for (int i = 0; i < perPartition; i++, id++) {
                        String json = "{\"id\":" + id + ",\"user\":\"u" + id + "\"}";
                        producer.send(new ProducerRecord<>(topic, p, null, json.getBytes(StandardCharsets.UTF_8)));
                    }
                }
            });
            for (int id = first; id < first + count; id++) {
                published.add(id);
            }
            nextId = first + count;
        });
    }

    /** The sink group's assignment: topic-partition to the member's instance id. */
    private static Map<TopicPartition, String> owners() throws Exception {
        Map<TopicPartition, String> out = new java.util.HashMap<>();
        try (Admin admin = Admin.create(KAFKA.client())) {
            ConsumerGroupDescription d;
            try {
                d = admin.describeConsumerGroups(List.of(APP)).all().get().get(APP);
            } catch (java.util.concurrent.ExecutionException e) {
                if (e.getCause() instanceof org.apache.kafka.common.errors.GroupIdNotFoundException) {
                    return out; // no instance joined yet
                }
                throw e;
            }
            d.members().forEach(m -> m.assignment().topicPartitions().forEach(tp -> out.put(tp, m.groupInstanceId().orElse("?"))));
        }
        return out;
    }

    private static Map<TopicPartition, Long> endOffsets(String... topics) {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of("bootstrap.servers", KAFKA.broker().bootstrapServers(),
                "isolation.level", "read_committed", "key.deserializer", ByteArrayDeserializer.class.getName(),
                "value.deserializer", ByteArrayDeserializer.class.getName()))) {
            List<TopicPartition> tps = new ArrayList<>();
            for (String t : topics) {
                consumer.partitionsFor(t).forEach(p -> tps.add(new TopicPartition(t, p.partition())));
            }
            return consumer.endOffsets(tps);
        }
    }

    private Set<String> txnAppIds() {
        Set<String> out = new java.util.TreeSet<>();
        for (TableCommit commit : DeltaTables.history(table())) {
            if (commit.txnAppId() != null) {
                out.add(commit.txnAppId());
            }
        }
        return out;
    }

    private String table() {
        return dir.resolve("out").toString();
    }

    private List<Integer> ids() {
        if (!DeltaTables.exists(table())) {
            return List.of();
        }
        List<Integer> ids = new ArrayList<>();
        for (Object[] r : DeltaTables.readRows(table())) {
            ids.add((Integer) r[0]);
        }
        ids.sort(Comparator.naturalOrder());
        return ids;
    }
}
