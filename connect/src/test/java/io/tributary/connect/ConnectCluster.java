package io.tributary.connect;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.broker.BrokerExtension;
import io.tributary.schema.RowJson;
import io.tributary.schema.Schema;
import io.tributary.sink.DeltaTables;
import io.tributary.sink.PartitionSink;
import io.tributary.sink.TableCommit;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real Connect cluster for the connectors' tests: three distributed workers (child JVMs started
 * by Connect's own main) against the embedded broker, configs PUT over REST as a user does, and
 * the Delta table checked row by row. Each test class of it starts a cluster of its own, so that
 * {@link ConnectIT} and {@link ConnectRestartsIT} run side by side.
 */
abstract class ConnectCluster {
    @RegisterExtension
    static final BrokerExtension KAFKA = new BrokerExtension();
    static final Schema SCHEMA = Schema.parse("id INT, user STRING, amt DOUBLE, ts TIMESTAMP");

    /** The two request bodies of the connectors' documentation, as written there. */
    static final String SOURCE_BODY = """
            {
              "connector.class": "io.tributary.connect.FileSourceConnector",
              "path": "/data/in", "schema": "id INT, user STRING, amt DOUBLE, ts TIMESTAMP",
              "topic": "orders", "tasks.max": "3", "onBadRecord": "deadLetter" }""";
    static final String SINK_BODY = """
            {
              "connector.class": "io.tributary.connect.DeltaSinkConnector",
              "topics": "orders", "delta.path": "/data/tables/orders", "tasks.max": "3" }""";

    @TempDir
    static Path dir;
    static ConnectWorkers workers;

    @BeforeAll
    static void startWorkers() throws IOException {
        long t0 = System.nanoTime();
        workers = new ConnectWorkers(dir.resolve("connect"), KAFKA.broker().bootstrapServers(), ConnectWorkers.pluginZip(), 3);
        System.out.printf("3 Connect workers answering after %.1f s%n", (System.nanoTime() - t0) / 1e9);
    }

    @AfterAll
    static void stopWorkers() {
        if (workers != null) {
            workers.close();
        }
    }

    /** Both connectors on a topic of their own, files written round by round, the table checked against them. */
    static final class Scenario {
        final String topic;
        final Path in;
        final Path table;
        int rows;
        int seen;

        Scenario(String topic, int tasks) throws Exception {
            this.topic = topic;
            this.in = Files.createDirectories(dir.resolve(topic).resolve("in"));
            this.table = dir.resolve(topic).resolve("table");
            createTopics(Map.of(topic, 3, topic + ".deadletter", 1));
            tasks(tasks);
        }

        void tasks(int n) throws IOException, InterruptedException {
            put(topic + "-files", SOURCE_BODY.replace("/data/in", in.toString()).replace("\"orders\"", "\"" + topic + "\"")
                    .replace("\"3\"", "\"" + n + "\""));
            put(topic + "-delta", SINK_BODY.replace("/data/tables/orders", table.toString()).replace("\"orders\"", "\"" + topic + "\"")
                    .replace("\"3\"", "\"" + n + "\""));
        }

        /** {@code files} new files of {@code perFile} rows, each written aside and renamed into the folder whole. */
        void writeFiles(int round, int files, int perFile) throws IOException {
            for (int f = 0; f < files; f++) {
                StringBuilder b = new StringBuilder();
                for (int r = 0; r < perFile; r++) {
                    int id = round * 100_000 + f * 1000 + r;
                    b.append("{\"id\": ").append(id).append(", \"user\": \"u").append(id % 7).append("\", \"amt\": ")
                            .append(id % 100).append(".5, \"ts\": \"2026-01-01T10:").append(String.format("%02d", r % 60)).append(":00Z\"}\n");
                }
                Path tmp = in.resolve(".part-" + round + "-" + f + ".json");
                Files.writeString(tmp, b);
                Files.move(tmp, in.resolve("part-" + round + "-" + f + ".json"));
                rows += perFile;
            }
        }

        /** One file of {@code n} rows with ids from {@code firstId}, written aside and renamed into the folder whole. */
        void writeFile(String name, int firstId, int n) throws IOException {
            StringBuilder b = new StringBuilder();
            for (int id = firstId; id < firstId + n; id++) {
                b.append("{\"id\": ").append(id).append(", \"user\": \"u").append(id % 7).append("\", \"amt\": 0.5, \"ts\": \"2026-01-02T00:00:00Z\"}\n");
            }
            Path tmp = in.resolve("." + name);
            Files.writeString(tmp, b);
            Files.move(tmp, in.resolve(name));
            rows += n;
        }

        /** Some of the newest files' rows have reached the table. */
        void awaitProgress() {
            int before = seen;
            await(topic + ": the table grows past " + before + " rows", Duration.ofSeconds(180), () -> (seen = (int) addedRows(table)) > before);
        }

        /** Every row of the files once in the topic and once in the table. */
        void awaitExact() throws IOException {
            await(topic + ": the table holds " + rows + " rows", Duration.ofSeconds(300), () -> {
                seen = (int) addedRows(table);
                if (seen < rows) {
                    System.out.printf("%s: %d of %d rows in the table; its offsets %s; the topic's end %s%n", topic, seen, rows,
                            PartitionSink.allOffsets(table.toString()), endOffsets(topic));
                }
                return seen >= rows;
            });
            List<String> expected = inputRows(in);
            assertThat(expected).hasSize(rows);
            // sorted lists compared, not AssertJ's any-order match, which is quadratic in the rows (minutes for 100,000s)
            assertThat(sorted(tableRows(table))).as("the table's rows against the files'").isEqualTo(sorted(expected));
            List<String> published = values(topic, rows);
            assertThat(published).hasSize(rows);
            assertThat(new java.util.HashSet<>(published)).as("distinct records published").hasSize(rows);
        }
    }

    static void put(String name, String body) throws IOException, InterruptedException {
        HttpResponse<String> r = workers.call("PUT", "/connectors/" + name + "/config", body);
        assertThat(r.statusCode()).as("PUT %s: %s", name, r.body()).isIn(200, 201);
    }

    static void delete(String name) throws IOException, InterruptedException {
        workers.call("DELETE", "/connectors/" + name, null);
    }

    static void createTopics(Map<String, Integer> topics) throws Exception {
        try (Admin admin = Admin.create(KAFKA.client())) {
            List<NewTopic> create = new ArrayList<>();
            topics.forEach((t, p) -> create.add(new NewTopic(t, p, (short) 1)));
            admin.createTopics(create).all().get();
        }
    }

    /** The rows of the input files' good lines, as the table must hold them. */
    static List<String> inputRows(Path in) throws IOException {
        RowJson json = new RowJson(SCHEMA);
        List<String> rows = new ArrayList<>();
        try (var files = Files.list(in)) {
            for (Path f : files.toList()) {
                for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
                    try {
                        rows.add(Arrays.deepToString(json.parse(line)));
                    } catch (RuntimeException bad) {
                        // a bad line: the dead-letter topic's, never the table's
                    }
                }
            }
        }
        return rows;
    }

    /** The rows the table's commits added, from the log's statistics (cheap to poll; appends only). */
    static long addedRows(Path table) {
        return DeltaTables.history(table.toString()).stream().mapToLong(TableCommit::addedRows).sum();
    }

    static List<String> sorted(List<String> rows) {
        return rows.stream().sorted().toList();
    }

    static List<String> tableRows(Path table) {
        return DeltaTables.readRows(table.toString()).stream().map(Arrays::deepToString).toList();
    }

    /** The read_committed end offset of every partition of {@code topic}. */
    static Map<TopicPartition, Long> endOffsets(String topic) {
        try (KafkaConsumer<String, String> c = consumer()) {
            List<TopicPartition> tps = c.partitionsFor(topic).stream().map(p -> new TopicPartition(topic, p.partition())).toList();
            return new HashMap<>(c.endOffsets(tps));
        }
    }

    /** Per partition of {@code topic}, the offset after its last committed record (commit markers follow it). */
    static Map<TopicPartition, Long> pastLastRecords(String topic) {
        Map<TopicPartition, Long> out = new HashMap<>();
        try (KafkaConsumer<String, String> c = consumer()) {
            List<TopicPartition> tps = c.partitionsFor(topic).stream().map(p -> new TopicPartition(topic, p.partition())).toList();
            c.assign(tps);
            c.seekToBeginning(tps);
            Map<TopicPartition, Long> end = c.endOffsets(tps);
            while (tps.stream().anyMatch(tp -> c.position(tp) < end.get(tp))) {
                for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(200))) {
                    out.merge(new TopicPartition(r.topic(), r.partition()), r.offset() + 1, Math::max);
                }
            }
        }
        return out;
    }

    /** Every committed value of {@code topic}, reading until {@code atLeast} are there (or 30 s). */
    static List<String> values(String topic, int atLeast) {
        List<String> out = new ArrayList<>();
        try (KafkaConsumer<String, String> c = consumer()) {
            List<TopicPartition> tps = c.partitionsFor(topic).stream().map(p -> new TopicPartition(topic, p.partition())).toList();
            c.assign(tps);
            c.seekToBeginning(tps);
            Map<TopicPartition, Long> end = c.endOffsets(tps);
            try {
                Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ZERO).pollDelay(Duration.ZERO).pollInSameThread().until(() -> {
                    if (out.size() >= atLeast && tps.stream().allMatch(tp -> c.position(tp) >= end.get(tp))) {
                        return true;
                    }
                    for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(200))) {
                        out.add(r.value());
                    }
                    if (out.size() < atLeast) {
                        end.putAll(c.endOffsets(tps));
                    }
                    return false;
                });
            } catch (ConditionTimeoutException e) {
                // what is there after 30 s: the caller's assertion says what is missing
            }
        }
        return out;
    }

    static KafkaConsumer<String, String> consumer() {
        Map<String, Object> p = new HashMap<>(KAFKA.client());
        p.put("isolation.level", "read_committed");
        return new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer());
    }

    /**
     * Connect does not restart a failed task by itself. An exactly-once source task that starts
     * while the leader worker is down fails: its request to fence the previous generation's
     * producers cannot reach the leader. An operator restarts it (Strimzi's autoRestart does);
     * so does this test, for that failure only, so that any other failure still fails the test. The same for a task that a
     * worker started between a lower {@code tasks.max} and the connector's new task configurations: Connect's runtime
     * refuses it with {@code TooManyTasksException} (the stored configurations still number the old count) and leaves it
     * failed after the new ones are stored.
     */
    static void restartTasksFailedByFencing() {
        try {
            JsonNode all = new ObjectMapper().readTree(workers.call("GET", "/connectors?expand=status", null).body());
            for (JsonNode c : all) {
                JsonNode st = c.path("status");
                for (JsonNode t : st.path("tasks")) {
                    if ("FAILED".equals(t.path("state").asText()) && (t.path("trace").asText().contains("fenceZombieSourceTasks")
                            || t.path("trace").asText().contains("TooManyTasksException"))) {
                        System.out.printf("restarting task %d of %s, failed while fencing zombies or at a lower tasks.max%n",
                                t.path("id").asInt(), st.path("name").asText());
                        workers.call("POST", "/connectors/" + st.path("name").asText() + "/tasks/" + t.path("id").asInt() + "/restart", null);
                    }
                }
            }
        } catch (IOException | InterruptedException e) {
            // the REST API is down while a worker restarts: next time
        }
    }

    /** The connectors' and tasks' states as the REST API gives them. */
    static String status() {
        try {
            return "status: " + workers.call("GET", "/connectors?expand=status", null).body();
        } catch (IOException | InterruptedException e) {
            return "status: " + e;
        }
    }

    /** Polls {@code condition} until it holds; fails with the workers' logs after {@code max}. */
    static void await(String what, Duration max, Supplier<Boolean> condition) {
        try {
            Awaitility.await().atMost(max).pollInterval(Duration.ofSeconds(1)).pollDelay(Duration.ZERO).pollInSameThread().until(() -> {
                if (condition.get()) {
                    return true;
                }
                restartTasksFailedByFencing();
                return false;
            });
        } catch (ConditionTimeoutException e) {
            throw new AssertionError("not in " + max.toSeconds() + " s: " + what + "\n" + status() + "\n" + workers.logs(), e);
        }
    }
}
