package io.tributary.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.sink.DeltaTables;
import io.tributary.sink.SinkOffsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Future;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tributary run} processes of one pipeline over a Kafka source of several topics
 * ({@code topics: [a, b]}) or a {@code topicPattern}: they share the topics' partitions as one set
 * (the sink's group), an instance SIGKILLed and started again resumes from the table's offsets, a
 * topic created to match the pattern while they run is shared too, every record lands in the table
 * once, and {@code checkpoint show} prints each topic-partition's offset and lag.
 */
@Tag("integration")
@Tag("scenarios")
@Timeout(900)
class KafkaSourceTopicsInstancesTest {
    private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();
    private static final String SCHEMA = "    schema: \"id INT, topic STRING\"\ntopic:\n  partitions: 3\nsink:\n  delta:\n    path: out/\n";

    @TempDir
    Path dir;
    @RegisterExtension
    final PipelineBroker kafka = new PipelineBroker();

    private int id;
    private final List<String> expected = new ArrayList<>();

    @Test
    void twoInstancesShareTwoTopicsAndOneKilledResumesFromTheTable() throws Exception {
        createTopics(Map.of("orders", 3, "refunds", 2));
        Workspace ws = kafka.workspace(dir, "name: sales\nsource:\n  kafka:\n    topics: [orders, refunds]\n" + SCHEMA);
        String table = dir.resolve("out").toString();
        try (PipelineInstances instances = new PipelineInstances(dir, ws, "sales", kafka.bootstrapServers())) {
            instances.start("x");
            instances.start("y");
            produce(List.of("orders", "refunds"), 100);
            awaitShared(instances, "sales", 5);
            awaitTable(instances, table);

            instances.kill("y");
            produce(List.of("orders", "refunds"), 100);
            instances.start("y"); // back under its instance id: its share resumes at the table's offsets
            produce(List.of("orders", "refunds"), 100);
            awaitShared(instances, "sales", 5);
            awaitTable(instances, table);
            instances.stopAll();
        }
        assertThat(rows(table)).as("every record once").containsExactlyInAnyOrderElementsOf(expected);
        assertThat(DeltaTables.sinkOffsets(table).map(SinkOffsets::sparkJson).orElseThrow())
                .as("the table's offsets: every partition's end").isEqualTo(ends("orders", "refunds"));
        assertThat(ws.tributary("checkpoint show").assertOk().out()).as("each topic-partition's offset and lag")
                .containsPattern("  orders  0: table \\d+, end \\d+, lag 0; 1: table \\d+, end \\d+, lag 0; 2: table \\d+, end \\d+, lag 0\n")
                .containsPattern("  refunds  0: table \\d+, end \\d+, lag 0; 1: table \\d+, end \\d+, lag 0\n");
    }

    @Test
    void threeInstancesShareAPatternsTopicsAndOneCreatedWhileTheyRun() throws Exception {
        createTopics(Map.of("ev-b", 2, "ev-a", 2));
        Workspace ws = kafka.workspace(dir, "name: ev\nsource:\n  kafka:\n    topicPattern: \"ev-.*\"\n" + SCHEMA);
        String table = dir.resolve("out").toString();
        try (PipelineInstances instances = new PipelineInstances(dir, ws, "ev", kafka.bootstrapServers())) {
            for (String i : List.of("x", "y", "z")) {
                instances.start(i);
            }
            produce(List.of("ev-a", "ev-b"), 120);
            awaitShared(instances, "ev", 4);
            awaitTable(instances, table);

            createTopics(Map.of("ev-c", 2)); // matches the pattern: read from its earliest offset by the instances the group gives it
            produce(List.of("ev-a", "ev-b", "ev-c"), 120);
            awaitShared(instances, "ev", 6);
            awaitTable(instances, table);
            instances.stopAll();
        }
        assertThat(rows(table)).as("every record once").containsExactlyInAnyOrderElementsOf(expected);
        assertThat(DeltaTables.sinkOffsets(table).map(SinkOffsets::sparkJson).orElseThrow())
                .as("the table's offsets: every partition's end").isEqualTo(ends("ev-a", "ev-b", "ev-c"));
        assertThat(ws.tributary("checkpoint show").assertOk().out()).as("each topic-partition's offset and lag, the new topic's too")
                .containsPattern("  ev-a  0: table \\d+, end \\d+, lag 0; 1: table \\d+, end \\d+, lag 0\n")
                .containsPattern("  ev-c  0: table \\d+, end \\d+, lag 0; 1: table \\d+, end \\d+, lag 0\n");
    }

    @Test
    void twoSinkInstancesOverAPatternOwnEachTopicPartitionOnce() throws Exception {
        createTopics(Map.of("ev-a", 3, "ev-b", 2));
        Workspace ws = kafka.workspace(dir, "name: ev\nsource:\n  kafka:\n    topicPattern: \"ev-.*\"\n" + SCHEMA);
        String table = dir.resolve("out").toString();
        try (PipelineInstances instances = new PipelineInstances(dir, ws, "ev", kafka.bootstrapServers())) {
            instances.start("x");
            instances.start("y");
            produce(List.of("ev-a", "ev-b"), 100);
            awaitShared(instances, "ev", 5);
            awaitTable(instances, table);
            // the sink's share on each instance names the matched topics' partitions: together all, each once, each instance some
            Map<String, List<Integer>> all = Map.of("ev-a", List.of(0, 1, 2), "ev-b", List.of(0, 1));
            await("the sink's shares on /instance and /metrics").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(500))
                    .untilAsserted(() -> {
                        assertThat(shares(instances, "ev/sink", "/instance")).as("/instance").isEqualTo(all);
                        assertThat(shares(instances, "ev/sink", "/metrics")).as("/metrics").isEqualTo(all);
                        for (String i : instances.ids()) {
                            assertThat(JSON.readTree(instances.http(i, "/instance")).path("stages").path("ev/sink").path("topics").size())
                                    .as("instance %s's share of the sink", i).isPositive();
                        }
                    });
            instances.stopAll();
        }
        assertThat(rows(table)).as("every record once").containsExactlyInAnyOrderElementsOf(expected);
        assertThat(DeltaTables.sinkOffsets(table).map(SinkOffsets::sparkJson).orElseThrow())
                .as("the table's offsets: every partition's end").isEqualTo(ends("ev-a", "ev-b"));
    }

    @Test
    void twoInstancesOfAnAggregationOverTwoTopicsWriteEachWindowOnce() throws Exception {
        createTopics(Map.of("shop", 3, "web", 3));
        Workspace ws = kafka.workspace(dir, windowedSpec("topics: [shop, web]"));
        String table = dir.resolve("out").toString();
        List<String> input = new ArrayList<>();
        try (PipelineInstances instances = new PipelineInstances(dir, ws, "sales", kafka.bootstrapServers())) {
            instances.start("x");
            instances.start("y");
            produceSales(List.of("shop", "web"), 150, input);
            List<String> want = InstancesTest.closedWindows(input);
            await("the windows of " + input.size() + " rows in the table").atMost(Duration.ofMinutes(4)).pollInterval(Duration.ofMillis(500))
                    .until(() -> {
                        instances.assertAlive();
                        return DeltaTables.exists(table) && new java.util.TreeSet<>(GoldenWindowsScenarioTest.table(table))
                                .equals(new java.util.TreeSet<>(want));
                    });
            assertThat(instances.owners("aggregate").keySet().stream().map(m -> m.replaceAll("-\\d+$", "")).distinct())
                    .as("both instances run tasks of the aggregation").containsExactlyInAnyOrder("x", "y");
            instances.awaitCaughtUp(table, io.tributary.schema.Topics.results("sales"), Duration.ofMinutes(2));
            instances.stopAll();
        }
        assertThat(GoldenWindowsScenarioTest.table(table)).as("each closed window once")
                .containsExactlyInAnyOrderElementsOf(InstancesTest.closedWindows(input));
    }

    @Test
    void twoInstancesOfAnAggregationOverAPatternWriteEachWindowOnceAndProbeItsTopics() throws Exception {
        createTopics(Map.of("sales-shop", 3, "sales-web", 2));
        Workspace ws = kafka.workspace(dir, windowedSpec("topicPattern: \"sales-.*\""));
        String table = dir.resolve("out").toString();
        List<String> input = new ArrayList<>();
        try (PipelineInstances instances = new PipelineInstances(dir, ws, "sales", kafka.bootstrapServers())) {
            Map<String, ChildProcess> both = Map.of("x", instances.start("x"), "y", instances.start("y"));
            // the tasks shared before any row
            await("both instances run tasks of the aggregation").atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(500))
                    .untilAsserted(() -> {
                        instances.assertAlive();
                        assertThat(instances.owners("aggregate").keySet().stream().map(m -> m.replaceAll("-\\d+$", "")).distinct())
                                .containsExactlyInAnyOrder("x", "y");
                    });
            Map<String, List<Long>> batches = new TreeMap<>();
            for (int round = 1; round <= 6; round++) { // rows in rounds, each taken in by a batch before the next comes
                produceSales(List.of("sales-shop", "sales-web"), 25, input);
                int rounds = round;
                await("round " + round + " read by a batch").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(250)).until(() -> {
                    instances.assertAlive();
                    for (Map.Entry<String, ChildProcess> e : both.entrySet()) {
                        batches.put(e.getKey(), aggregateBatches(e.getValue().out()));
                    }
                    return batches.values().stream().mapToInt(List::size).sum() >= rounds;
                });
            }
            List<String> want = InstancesTest.closedWindows(input);
            await("the windows of " + input.size() + " rows in the table").atMost(Duration.ofMinutes(4)).pollInterval(Duration.ofMillis(500))
                    .until(() -> {
                        instances.assertAlive();
                        return DeltaTables.exists(table) && new java.util.TreeSet<>(GoldenWindowsScenarioTest.table(table))
                                .equals(new java.util.TreeSet<>(want));
                    });
            // one instance cuts the batches at a time; a rebalance under load may hand the task over, and its new owner
            // goes on from the last batch committed (running an uncommitted one again under its id): no id skipped
            List<Long> ids = batches.values().stream().flatMap(List::stream).distinct().sorted().toList();
            assertThat(ids).as("the aggregation's batch ids by instance: %s", batches)
                    .isEqualTo(java.util.stream.LongStream.rangeClosed(ids.get(0), ids.get(ids.size() - 1)).boxed().toList());
            // the lag probe asks Kafka about the topics the pattern matched, each caught up
            await("the aggregation's lag on each matched topic, 0").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(500))
                    .untilAsserted(() -> assertThat(aggregateLag(instances)).containsOnlyKeys("sales-shop", "sales-web")
                            .allSatisfy((topic, lags) -> assertThat(lags).isNotEmpty().containsOnly(0.0)));
            // each instance's share of the aggregation names the matched topics' partitions: together all, each once
            Map<String, List<Integer>> all = Map.of("sales-shop", List.of(0, 1, 2), "sales-web", List.of(0, 1));
            await("the aggregation's shares on /instance and /metrics").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(500))
                    .untilAsserted(() -> {
                        assertThat(shares(instances, "sales/aggregate", "/instance")).as("/instance").isEqualTo(all);
                        assertThat(shares(instances, "sales/aggregate", "/metrics")).as("/metrics").isEqualTo(all);
                    });
            for (Map.Entry<String, ChildProcess> e : both.entrySet()) {
                assertThat(aggregateProgressShares(e.getValue().out())).as("instance %s's progress: its share by topic", e.getKey())
                        .allSatisfy(topics -> assertThat(topics).isNotEmpty().isSubsetOf("sales-shop", "sales-web"));
            }
            instances.awaitCaughtUp(table, io.tributary.schema.Topics.results("sales"), Duration.ofMinutes(2));
            for (String i : instances.ids()) {
                assertThat(instances.http(i, "/metrics")).as("instance %s's metrics", i).doesNotContain("topic=\"sales-.*\"");
            }
            for (Map.Entry<String, ChildProcess> e : both.entrySet()) {
                assertThat(e.getValue().err()).as("instance %s's log: no probe asks Kafka about the pattern as a topic", e.getKey())
                        .doesNotContain("invalid topic error");
            }
            instances.stopAll();
        }
        assertThat(GoldenWindowsScenarioTest.table(table)).as("each closed window once")
                .containsExactlyInAnyOrderElementsOf(InstancesTest.closedWindows(input));
    }

    /** A windowed aggregation of sales rows over the Kafka source {@code source} (e.g. {@code topics: [a, b]}), in append mode. */
    private static String windowedSpec(String source) {
        return """
                name: sales
                source:
                  kafka:
                    %s
                    schema: "id INT, user STRING, amt DOUBLE, ts TIMESTAMP"
                topic:
                  partitions: 3
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
                """.formatted(source);
    }

    /** How many of the aggregation's progress lines (one a batch it ran) {@code stdout} holds. */
    private static List<Long> aggregateBatches(String stdout) throws Exception {
        List<Long> ids = new ArrayList<>();
        for (String line : stdout.split("\n")) {
            if (line.startsWith("{")) {
                com.fasterxml.jackson.databind.JsonNode p = JSON.readTree(line);
                if ("sales/aggregate".equals(p.path("name").asText())) {
                    ids.add(p.path("batchId").asLong());
                }
            }
        }
        return ids;
    }

    /**
     * The partitions of {@code stage} (e.g. {@code sales/aggregate}) each instance owns, by topic, over all instances
     * (sorted, a partition twice if two say they own it): from {@code /instance}'s {@code stages[stage].topics}, or the
     * {@code /metrics} gauges of the source's topic-partitions that read 1.
     */
    private static Map<String, List<Integer>> shares(PipelineInstances instances, String stage, String endpoint) throws Exception {
        String pipeline = stage.substring(0, stage.indexOf('/'));
        java.util.regex.Pattern gauge = java.util.regex.Pattern.compile("tributary_instance_topic_partition_owned\\{partition=\"(\\d+)\","
                + "pipeline=\"" + pipeline + "\",stage=\"" + stage + "\",topic=\"([^\"]+)\"} 1\\.0");
        Map<String, List<Integer>> out = new TreeMap<>();
        for (String i : instances.ids()) {
            String body = instances.http(i, endpoint);
            if (endpoint.equals("/instance")) {
                JSON.readTree(body).path("stages").path(stage).path("topics").fields().forEachRemaining(t ->
                        t.getValue().forEach(p -> out.computeIfAbsent(t.getKey(), x -> new ArrayList<>()).add(p.asInt())));
            } else {
                java.util.regex.Matcher m = gauge.matcher(body);
                while (m.find()) {
                    out.computeIfAbsent(m.group(2), x -> new ArrayList<>()).add(Integer.parseInt(m.group(1)));
                }
            }
        }
        out.values().forEach(ps -> ps.sort(null));
        return out;
    }

    /** The topics each of the aggregation's progress lines in {@code stdout} names in {@code sources[0].metrics.partitions}. */
    private static List<List<String>> aggregateProgressShares(String stdout) throws Exception {
        List<List<String>> out = new ArrayList<>();
        for (String line : stdout.split("\n")) {
            if (line.startsWith("{")) {
                com.fasterxml.jackson.databind.JsonNode p = JSON.readTree(line);
                if ("sales/aggregate".equals(p.path("name").asText())) {
                    com.fasterxml.jackson.databind.JsonNode partitions = p.path("sources").path(0).path("metrics").path("partitions");
                    assertThat(partitions.isObject()).as("partitions by topic: %s", partitions).isTrue();
                    List<String> topics = new ArrayList<>();
                    partitions.fieldNames().forEachRemaining(topics::add);
                    out.add(topics);
                }
            }
        }
        return out;
    }

    /** The aggregation's lag by topic, one figure per partition, from the /metrics of whichever instances report it. */
    private static Map<String, List<Double>> aggregateLag(PipelineInstances instances) throws Exception {
        java.util.regex.Pattern line = java.util.regex.Pattern.compile(
                "tributary_stage_lag_records\\{partition=\"(\\d+)\",pipeline=\"sales\",stage=\"sales/aggregate\",topic=\"([^\"]+)\"} (\\S+)");
        Map<String, List<Double>> out = new TreeMap<>();
        for (String i : instances.ids()) {
            java.util.regex.Matcher m = line.matcher(instances.http(i, "/metrics"));
            while (m.find()) {
                out.computeIfAbsent(m.group(2), t -> new ArrayList<>()).add(Double.parseDouble(m.group(3)));
            }
        }
        return out;
    }

    /** {@code n} sales rows to each of {@code topics}, event times moving forward; their expected form to {@code input}. */
    private void produceSales(List<String> topics, int n, List<String> input) throws Exception {
        long base = 1_767_261_600_000L; // 2026-01-01T10:00:00Z
        try (KafkaProducer<String, String> p = new KafkaProducer<>(kafka.client(), new StringSerializer(), new StringSerializer())) {
            List<Future<?>> sent = new ArrayList<>();
            for (int r = 0; r < n; r++) {
                for (String topic : topics) {
                    id++;
                    String user = "u" + (id % 5);
                    double amt = id % 17;
                    String ts = io.tributary.schema.Timestamps.formatMicros((base + id * 7_000L) * 1000);
                    sent.add(p.send(new ProducerRecord<>(topic, String.valueOf(id),
                            "{\"id\": " + id + ", \"user\": \"" + user + "\", \"amt\": " + amt + ", \"ts\": \"" + ts + "\"}")));
                    input.add(id + "|" + user + "|" + amt + "|" + ts);
                }
            }
            for (Future<?> f : sent) {
                f.get();
            }
        }
    }

    private void createTopics(Map<String, Integer> topics) throws Exception {
        try (Admin admin = Admin.create(kafka.client())) {
            List<NewTopic> all = new ArrayList<>();
            topics.forEach((t, p) -> all.add(new NewTopic(t, p, (short) 1)));
            admin.createTopics(all).all().get();
        }
    }

    /** {@code n} records to each of {@code topics}, keyed by their id (spread over the partitions). */
    private void produce(List<String> topics, int n) throws Exception {
        try (KafkaProducer<String, String> p = new KafkaProducer<>(kafka.client(), new StringSerializer(), new StringSerializer())) {
            List<Future<?>> sent = new ArrayList<>();
            for (String topic : topics) {
                for (int r = 0; r < n; r++) {
                    id++;
                    sent.add(p.send(new ProducerRecord<>(topic, String.valueOf(id), "{\"id\": " + id + ", \"topic\": \"" + topic + "\"}")));
                    expected.add(id + "|" + topic);
                }
            }
            for (Future<?> f : sent) {
                f.get();
            }
        }
    }

    /** The sink group's members (their instance ids) and the topic-partitions each owns. */
    private static Map<String, Set<TopicPartition>> owners(PipelineInstances instances, String pipeline) throws Exception {
        String group = "tributary-" + pipeline + "-sink";
        Map<String, Set<TopicPartition>> out = new TreeMap<>();
        try (Admin admin = Admin.create(instances.client())) {
            ConsumerGroupDescription d;
            try {
                d = admin.describeConsumerGroups(List.of(group)).all().get().get(group);
            } catch (java.util.concurrent.ExecutionException e) {
                if (e.getCause() instanceof org.apache.kafka.common.errors.GroupIdNotFoundException) {
                    return out;
                }
                throw e;
            }
            d.members().forEach(m -> out.put(m.groupInstanceId().orElse(m.consumerId()).replace(group + "-", ""),
                    m.assignment().topicPartitions()));
        }
        return out;
    }

    /** Waits until the instances that run (and only they) own all {@code partitions} topic-partitions, each some. */
    private static void awaitShared(PipelineInstances instances, String pipeline, int partitions) {
        await("the topics' " + partitions + " partitions shared by " + instances.ids()).atMost(Duration.ofMinutes(3))
                .pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
                    instances.assertAlive();
                    Map<String, Set<TopicPartition>> owners = owners(instances, pipeline);
                    assertThat(owners.keySet()).containsExactlyInAnyOrderElementsOf(instances.ids());
                    assertThat(owners.values()).allSatisfy(p -> assertThat(p).isNotEmpty());
                    Set<TopicPartition> all = new HashSet<>();
                    owners.values().forEach(all::addAll);
                    assertThat(all).hasSize(partitions);
                });
    }

    /** Waits until the table holds as many rows as were produced (its contents are judged once the processes stopped). */
    private void awaitTable(PipelineInstances instances, String table) {
        instances.ids().forEach(i -> instances.awaitJoined(i, Duration.ofMinutes(3))); // an instance started again serves and is in the group
        await("the table holds " + expected.size() + " rows").atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(500)).until(() -> {
            instances.assertAlive();
            return DeltaTables.exists(table) && DeltaTables.readRows(table).size() >= expected.size();
        });
    }

    private static List<String> rows(String table) {
        List<String> out = new ArrayList<>();
        for (Object[] r : DeltaTables.readRows(table)) {
            out.add(r[0] + "|" + r[1]);
        }
        return out;
    }

    /** Each partition's read_committed end, as Spark prints offsets. */
    private Map<String, Map<String, Long>> ends(String... topics) throws Exception {
        Map<String, Map<String, Long>> out = new TreeMap<>();
        try (Admin admin = Admin.create(kafka.client())) {
            Map<TopicPartition, OffsetSpec> ask = new java.util.HashMap<>();
            admin.describeTopics(List.of(topics)).allTopicNames().get().forEach((t, d) -> d.partitions().forEach(p ->
                    ask.put(new TopicPartition(t, p.partition()), OffsetSpec.latest())));
            admin.listOffsets(ask, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED)).all().get().forEach((tp, o) ->
                    out.computeIfAbsent(tp.topic(), t -> new TreeMap<>()).put(String.valueOf(tp.partition()), o.offset()));
        }
        return out;
    }
}
