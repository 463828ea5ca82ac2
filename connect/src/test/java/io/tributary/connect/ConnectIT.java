package io.tributary.connect;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.broker.BrokerExtension;
import io.tributary.schema.RowJson;
import io.tributary.schema.Schema;
import io.tributary.schema.Topics;
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
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.ListTransactionsOptions;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Both connectors on a real Connect cluster: three distributed workers (child JVMs started by
 * Connect's own main) against the embedded broker, configs PUT over REST as a user does, and the
 * Delta table checked row by row.
 */
@Tag("integration")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConnectIT {
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

    @Test
    @Order(1)
    void quickstartFilesLandInTheTableThroughBothConnectors() throws Exception {
        Path in = Files.createDirectories(dir.resolve("data/in"));
        Path table = dir.resolve("data/tables/orders");
        Files.copy(Path.of("..", "examples", "quickstart", "in", "part-0001.json"), in.resolve("part-0001.json"));
        Files.writeString(in.resolve("part-0002.json"), """
                {"id": 3, "user": "c", "amt": 1.0, "ts": "2026-01-01T10:20:00Z"}
                {"id": "four", "user": "d", "amt": 2.0, "ts": "2026-01-01T10:21:00Z"}
                """);
        createTopics(Map.of("orders", 3, "orders.deadletter", 1));

        put("orders-files", SOURCE_BODY.replace("/data/in", in.toString()));
        put("orders-delta", SINK_BODY.replace("/data/tables/orders", table.toString()));

        List<String> expected = inputRows(in);
        assertThat(expected).hasSize(3);
        await("the table holds the 3 good rows", Duration.ofSeconds(120), () -> addedRows(table) >= 3);
        assertThat(tableRows(table)).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(DeltaTables.schema(table.toString())).contains(SCHEMA);
        List<String> deadLetters = values("orders.deadletter", 1);
        assertThat(deadLetters).singleElement().asString().contains("\"file\":\"part-0002.json\"").contains("\"line\":2")
                .contains("\"field\":\"id\"");
        assertThat(PartitionSink.allOffsets(table.toString())).isNotEmpty();
        delete("orders-files");
        delete("orders-delta");
        keepForSpark("append", table, List.of("--count", "3", "--schema", SCHEMA.toDdl(),
                "--row", "{\"id\":1,\"user\":\"a\",\"amt\":5.0,\"ts\":\"2026-01-01T10:01:00.000Z\"}",
                "--row", "{\"id\":2,\"user\":\"b\",\"amt\":7.0,\"ts\":\"2026-01-01T10:05:00.000Z\"}",
                "--row", "{\"id\":3,\"user\":\"c\",\"amt\":1.0,\"ts\":\"2026-01-01T10:20:00.000Z\"}"));
    }

    @Test
    @Order(2)
    void aBadValueIsRefusedWithItsKeyNamed() throws Exception {
        HttpResponse<String> r = workers.call("PUT", "/connectors/bad-files/config",
                SOURCE_BODY.replace("\"deadLetter\"", "\"sometimes\""));
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.body()).contains("onBadRecord").contains("sometimes").contains("use deadLetter");

        HttpResponse<String> s = workers.call("PUT", "/connectors/bad-delta/config",
                SINK_BODY.replace("\"tasks.max\"", "\"allowedLatency\": \"soon\", \"tasks.max\""));
        assertThat(s.statusCode()).isEqualTo(400);
        assertThat(s.body()).contains("allowedLatency").contains("soon");

        HttpResponse<String> u = workers.call("PUT", "/connectors/bad-upsert/config",
                SINK_BODY.replace("\"tasks.max\"", "\"mode\": \"upsert\", \"tasks.max\""));
        assertThat(u.statusCode()).isEqualTo(400);
        assertThat(u.body()).contains("keys is empty, but mode is upsert");
    }

    /**
     * Records no file connector wrote: plain JSON text from any producer and tributary run's events
     * (packed rows and a watermark marker) through the worker's StringConverter, and JSON objects
     * through JsonConverter without schemas; the sink is given the schema.
     */
    @Test
    @Order(3)
    void plainJsonAndTributaryRunRecordsLand() throws Exception {
        createTopics(Map.of("plain", 1, "plain-map", 1));
        String row = "{\"id\": %d, \"user\": \"p\", \"amt\": 1.5, \"ts\": \"2026-01-01T10:00:00Z\"}";
        Map<String, Object> p = new HashMap<>(KAFKA.client());
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
            producer.send(new ProducerRecord<>("plain", row.formatted(1)));
            producer.send(new ProducerRecord<>("plain", row.formatted(2) + "\n" + row.formatted(3))); // packed, as tributary run's events
            ProducerRecord<String, String> marker = new ProducerRecord<>("plain", null, "{\"batchId\":0,\"watermarkMs\":0}");
            marker.headers().add(Topics.MARKER_HEADER, Topics.WATERMARK);
            producer.send(marker);
            producer.send(new ProducerRecord<>("plain-map", row.formatted(4)));
        }
        Path text = dir.resolve("plain/text");
        Path maps = dir.resolve("plain/maps");
        put("plain-delta", "{\"connector.class\": \"io.tributary.connect.DeltaSinkConnector\", \"topics\": \"plain\", \"delta.path\": \""
                + text + "\", \"schema\": \"" + SCHEMA.toDdl() + "\"}");
        put("plain-map-delta", "{\"connector.class\": \"io.tributary.connect.DeltaSinkConnector\", \"topics\": \"plain-map\", "
                + "\"delta.path\": \"" + maps + "\", \"schema\": \"" + SCHEMA.toDdl() + "\", "
                + "\"value.converter\": \"org.apache.kafka.connect.json.JsonConverter\", \"value.converter.schemas.enable\": \"false\"}");
        await("both tables hold their rows", Duration.ofSeconds(120), () -> addedRows(text) >= 3 && addedRows(maps) >= 1);
        RowJson json = new RowJson(SCHEMA);
        assertThat(tableRows(text)).containsExactlyInAnyOrder(Arrays.deepToString(json.parse(row.formatted(1))),
                Arrays.deepToString(json.parse(row.formatted(2))), Arrays.deepToString(json.parse(row.formatted(3))));
        assertThat(tableRows(maps)).containsExactly(Arrays.deepToString(json.parse(row.formatted(4))));
        delete("plain-delta");
        delete("plain-map-delta");
    }

    /**
     * Kafka's exactly-once source test shape, short: workers stopped and started again while files
     * keep coming, cleanly (SIGTERM), hard (SIGKILL) and cleanly, then one killed inside its task's
     * open transaction; the topic holds every row once and so does the table.
     */
    @Test
    @Order(4)
    void workerRestartsCleanAndHardKeepTopicAndTableExact() throws Exception {
        restartsKeepTopicAndTableExact("restarts", 3);
    }

    /** The same with twelve restarts, six clean and six hard, as Kafka's own test: {@code -Psoak -Dit.test=ConnectIT}. */
    @Test
    @Tag("soak")
    @Order(6)
    void twelveWorkerRestartsCleanAndHardKeepTopicAndTableExact() throws Exception {
        restartsKeepTopicAndTableExact("restarts12", 12);
    }

    /**
     * {@code restarts} worker restarts, alternately clean and hard, each after some of the newest
     * files reached the table, then a hard kill of the worker whose task has a transaction open.
     */
    static void restartsKeepTopicAndTableExact(String topic, int restarts) throws Exception {
        Scenario s = new Scenario(topic, 3);
        for (int round = 0; round < restarts; round++) {
            s.writeFiles(round, 4, 250);
            s.awaitProgress();
            boolean hard = round % 2 == 1;
            long t0 = System.nanoTime();
            workers.restart(round % workers.size(), hard);
            System.out.printf("%s: restart %d of %d, worker %d (%s) answering again after %.1f s%n", topic, round + 1, restarts,
                    round % workers.size(), hard ? "SIGKILL" : "SIGTERM", (System.nanoTime() - t0) / 1e9);
        }
        s.awaitExact();

        // a worker killed while its task's transaction is open: the file's records written so far are aborted. The worker
        // is frozen and the transaction seen open before the kill; a commit request it sent just before the freeze can
        // still reach the broker after the look (then the file commits whole): another file, until a kill aborts one
        long abortedBefore = count(topic, "read_uncommitted") - s.rows; // a restart above may have aborted a transaction too
        long aborted;
        int attempt = 0;
        do {
            attempt++;
            String name = "part-big-" + attempt + ".json";
            s.writeFile(name, 10_000_000 + attempt * 200_000, 120_000);
            int owner = Utils.toPositive(Utils.murmur2(name.getBytes(StandardCharsets.UTF_8))) % 3;
            boolean frozenOpen = killInsideOpenTransaction(topic, topic + "-files", owner, workerOf(topic + "-files", owner));
            s.awaitExact();
            aborted = count(topic, "read_uncommitted") - s.rows;
            System.out.printf("%s: file %d: %s; %d records aborted%n", topic, attempt,
                    frozenOpen ? "worker killed with the transaction seen open" : "the transaction committed before the freeze",
                    aborted - abortedBefore);
        } while (aborted == abortedBefore && attempt < 5);
        assertThat(aborted).as("records of the killed transaction stay in the log, aborted").isGreaterThan(abortedBefore);
        s.writeFiles(restarts, 4, 250);
        s.awaitExact();
    }

    /**
     * Kills {@code worker} while task {@code task} of {@code connector} has a transaction open with
     * records in {@code topic}: once the broker shows it so (DescribeTransactions: ongoing, on the
     * topic; the topic's end past its last stable offset), the worker is frozen (SIGSTOP), the broker
     * asked again while the worker cannot commit, and only then is it killed (SIGKILL). False (the
     * worker resumed) when the transaction committed between the first look and the freeze.
     */
    static boolean killInsideOpenTransaction(String topic, String connector, int task, int worker) throws Exception {
        try (Admin admin = Admin.create(KAFKA.client())) {
            long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
            while (!openWithRecords(admin, topic, connector, task)) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("no open transaction of task " + task + " of " + connector + " on " + topic + " in 120 s\n" + status());
                }
                ConnectWorkers.pause(10);
            }
            workers.suspend(worker);
            if (openWithRecords(admin, topic, connector, task)) {
                workers.restart(worker, true);
                return true;
            }
            workers.resume(worker);
            return false;
        }
    }

    /** True if the task's transaction is ongoing on {@code topic} and holds records there (the topic's end past its last stable offset). */
    static boolean openWithRecords(Admin admin, String topic, String connector, int task) throws Exception {
        String suffix = "-" + connector + "-" + task; // Connect's transactional id: <group>-<connector>-<task>
        List<String> ids = admin.listTransactions(new ListTransactionsOptions().filterStates(List.of(TransactionState.ONGOING)))
                .all().get().stream().map(TransactionListing::transactionalId).filter(id -> id.endsWith(suffix)).toList();
        for (String id : ids) {
            TransactionDescription d = admin.describeTransactions(List.of(id)).description(id).get();
            List<TopicPartition> mine = d.topicPartitions().stream().filter(tp -> tp.topic().equals(topic)).toList();
            if (d.state() != TransactionState.ONGOING || mine.isEmpty()) {
                continue;
            }
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            mine.forEach(tp -> latest.put(tp, OffsetSpec.latest()));
            Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> written =
                    admin.listOffsets(latest, new ListOffsetsOptions(IsolationLevel.READ_UNCOMMITTED)).all().get();
            Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> stable =
                    admin.listOffsets(latest, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED)).all().get();
            if (mine.stream().anyMatch(tp -> written.get(tp).offset() > stable.get(tp).offset())) {
                return true;
            }
        }
        return false;
    }

    /** The index of the worker that runs task {@code task} of {@code connector}. */
    static int workerOf(String connector, int task) throws Exception {
        JsonNode status = new ObjectMapper().readTree(workers.call("GET", "/connectors/" + connector + "/status", null).body());
        for (JsonNode t : status.path("tasks")) {
            if (t.path("id").asInt() == task) {
                String id = t.path("worker_id").asText();
                for (int i = 0; i < workers.size(); i++) {
                    if (workers.url(i).endsWith(id)) {
                        return i;
                    }
                }
            }
        }
        throw new AssertionError("task " + task + " of " + connector + " runs nowhere: " + status);
    }

    /** The records of {@code topic} a consumer of {@code isolation} reads. */
    static long count(String topic, String isolation) {
        Map<String, Object> p = new HashMap<>(KAFKA.client());
        p.put("isolation.level", isolation);
        try (KafkaConsumer<String, String> c = new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer())) {
            List<TopicPartition> tps = c.partitionsFor(topic).stream().map(x -> new TopicPartition(topic, x.partition())).toList();
            c.assign(tps);
            c.seekToBeginning(tps);
            Map<TopicPartition, Long> end = c.endOffsets(tps);
            long n = 0;
            while (tps.stream().anyMatch(tp -> c.position(tp) < end.get(tp))) {
                n += c.poll(Duration.ofMillis(200)).count();
            }
            return n;
        }
    }

    /** tasks.max of both connectors from 1 to 3 and back to 1 while files keep coming: each row once in the table. */
    @Test
    @Order(5)
    void tasksOneToThreeAndBackMidStreamKeepTheTableExact() throws Exception {
        Scenario s = new Scenario("rebalance", 1);
        s.writeFiles(0, 4, 250);
        s.awaitProgress();
        s.tasks(3);
        s.writeFiles(1, 4, 250);
        s.awaitProgress();
        s.tasks(1);
        s.writeFiles(2, 4, 250);
        s.awaitExact();
    }

    /**
     * Mode upsert over three tasks: records keyed by the upsert key ({@code [id]}, so a key's
     * records share a partition), each of 300 keys updated again and again and some deleted by
     * tombstones, while tasks.max goes from 3 to 1 and back to 3. Files of 50 rows sorted by key
     * hold keys of every partition, so the tasks rewrite the same files: each conflict is detected
     * and the batch applied again. The table ends with the last value of each key, exactly.
     */
    @Test
    @Order(7)
    void upsertsAcrossThreeTasksAndARebalanceKeepTheLastValuePerKey() throws Exception {
        String topic = "upserts";
        Path table = dir.resolve("upserts/table");
        createTopics(Map.of(topic, 3));
        Map<Integer, String> expected = new java.util.TreeMap<>();
        put(topic + "-delta", upsertBody(topic, table, 3));
        produceUpserts(topic, 0, expected);
        await(topic + ": the table takes rows", Duration.ofSeconds(120), () -> !PartitionSink.allOffsets(table.toString()).isEmpty());
        put(topic + "-delta", upsertBody(topic, table, 1));
        produceUpserts(topic, 1, expected);
        put(topic + "-delta", upsertBody(topic, table, 3));
        produceUpserts(topic, 2, expected);
        Map<TopicPartition, Long> end = endOffsets(topic);
        await(topic + ": the table holds every partition's end offset " + end, Duration.ofSeconds(180),
                () -> PartitionSink.allOffsets(table.toString()).equals(end));
        List<String> rows = DeltaTables.readRows(table.toString()).stream().map(r -> r[0] + "|" + r[1] + "|" + r[2]).toList();
        assertThat(sorted(rows)).as("the table against the last value of each key").isEqualTo(sorted(List.copyOf(expected.values())));
        long redone = workers.logLines("planning the batch again");
        System.out.printf("%s: %d keys in the table after 3 x 1000 records; %d versions; %d batches planned again after a "
                + "concurrent rewrite of their files%n", topic, rows.size(), DeltaTables.history(table.toString()).size(), redone);
        delete(topic + "-delta");
        List<String> args = new ArrayList<>(List.of("--count", String.valueOf(expected.size()), "--schema", UPSERT_SCHEMA,
                "--versions", String.valueOf(DeltaTables.history(table.toString()).size()), "--operation", "STREAMING UPDATE"));
        expected.values().forEach(v -> {
            String[] f = v.split("\\|");
            args.add("--row");
            args.add("{\"id\":" + f[0] + ",\"v\":\"" + f[1] + "\",\"n\":" + f[2] + "}");
        });
        keepForSpark("upsert", table, args);
    }

    /**
     * Files through the file connector keyed by id into a topic of 3 partitions, upserted by the
     * Delta connector's 3 tasks: three files each update every one of 200 ids; the table ends with
     * the newest file's row of each id.
     */
    @Test
    @Order(8)
    void filesKeyedByTheUpsertKeyLandAsTheLastRowPerKey() throws Exception {
        String topic = "keyed";
        Path in = Files.createDirectories(dir.resolve("keyed/in"));
        Path table = dir.resolve("keyed/table");
        createTopics(Map.of(topic, 3, topic + ".deadletter", 1));
        put(topic + "-files", SOURCE_BODY.replace("/data/in", in.toString()).replace("\"orders\"", "\"" + topic + "\"")
                .replace("\"3\"", "\"1\"").replace("\"onBadRecord\"", "\"keys\": \"id\", \"onBadRecord\""));
        put(topic + "-delta", SINK_BODY.replace("/data/tables/orders", table.toString()).replace("\"orders\"", "\"" + topic + "\"")
                .replace("\"tasks.max\"", "\"mode\": \"upsert\", \"keys\": \"id\", \"allowedLatency\": \"1 seconds\", \"rowsPerFile\": \"40\", \"tasks.max\""));
        Map<Integer, String> expected = new java.util.TreeMap<>();
        for (int round = 0; round < 3; round++) {
            StringBuilder b = new StringBuilder();
            for (int id = 0; id < 200; id++) {
                String user = "u" + round + "-" + id;
                b.append("{\"id\": ").append(id).append(", \"user\": \"").append(user).append("\", \"amt\": ").append(round)
                        .append(".5, \"ts\": \"2026-01-01T10:00:00Z\"}\n");
                expected.put(id, id + "|" + user + "|" + round + ".5");
            }
            Path tmp = in.resolve(".part-" + round + ".json");
            Files.writeString(tmp, b);
            Files.move(tmp, in.resolve("part-" + round + ".json"));
            // each file published before the next is written: files published in order, whatever their times
            int published = (round + 1) * 200;
            await(topic + ": " + published + " records published", Duration.ofSeconds(120), () -> values(topic, 0).size() >= published);
        }
        assertThat(endOffsets(topic).values()).as("the ids spread over all three partitions").allMatch(o -> o > 0);
        // the topic's end offsets count the transactions' commit markers too: the table must stand past each partition's last record
        Map<TopicPartition, Long> pastLast = pastLastRecords(topic);
        await(topic + ": the table holds the offsets past each partition's last record " + pastLast, Duration.ofSeconds(180),
                () -> PartitionSink.allOffsets(table.toString()).equals(pastLast));
        List<String> want = sorted(List.copyOf(expected.values()));
        List<String> rows = DeltaTables.readRows(table.toString()).stream().map(r -> r[0] + "|" + r[1] + "|" + r[2]).toList();
        assertThat(sorted(rows)).isEqualTo(want);
        delete(topic + "-files");
        delete(topic + "-delta");
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

    static final String UPSERT_SCHEMA = "id INT, v STRING, n BIGINT";

    static String upsertBody(String topic, Path table, int tasks) {
        return "{\"connector.class\": \"io.tributary.connect.DeltaSinkConnector\", \"topics\": \"" + topic + "\", \"delta.path\": \""
                + table + "\", \"tasks.max\": \"" + tasks + "\", \"mode\": \"upsert\", \"keys\": \"id\", \"schema\": \""
                + UPSERT_SCHEMA + "\", \"allowedLatency\": \"1 seconds\", \"rowsPerFile\": \"50\"}";
    }

    /** 1000 records over 300 keys, keyed [id]; every tenth a tombstone; {@code expected} follows: id -> "id|v|n". */
    static void produceUpserts(String topic, int round, Map<Integer, String> expected) {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(new HashMap<>(KAFKA.client()), new StringSerializer(),
                new StringSerializer())) {
            for (int seq = 0; seq < 1000; seq++) {
                int id = (seq * 7919 + round * 31) % 300;
                long n = round * 1000L + seq;
                if (seq % 10 == 9) {
                    producer.send(new ProducerRecord<>(topic, "[" + id + "]", null));
                    expected.remove(id);
                } else {
                    String v = "r" + round + "-" + seq;
                    producer.send(new ProducerRecord<>(topic, "[" + id + "]", "{\"id\": " + id + ", \"v\": \"" + v + "\", \"n\": " + n + "}"));
                    expected.put(id, id + "|" + v + "|" + n);
                }
            }
        }
    }

    /**
     * With {@code -Dconnect.it.keep=FOLDER}: the table is copied to FOLDER/{@code name} and the
     * expectations SparkRead checks it with to FOLDER/{@code name}.args (compat/spark/check.sh reads them).
     */
    static void keepForSpark(String name, Path table, List<String> expectations) throws IOException {
        String keep = System.getProperty("connect.it.keep");
        if (keep == null || keep.isBlank()) {
            return;
        }
        Path target = Path.of(keep).toAbsolutePath().resolve(name);
        if (Files.exists(target)) {
            try (var old = Files.walk(target)) {
                for (Path p : old.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
        try (var files = Files.walk(table)) {
            for (Path p : files.toList()) {
                Path to = target.resolve(table.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(p, to);
                }
            }
        }
        List<String> lines = new ArrayList<>(List.of("--table", target.toString()));
        lines.addAll(expectations);
        Files.write(target.getParent().resolve(name + ".args"), lines);
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

    // ---- helpers shared with the restart and rebalance scenarios

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

    /** Every committed value of {@code topic}, reading until {@code atLeast} are there (or 30 s). */
    static List<String> values(String topic, int atLeast) {
        List<String> out = new ArrayList<>();
        try (KafkaConsumer<String, String> c = consumer()) {
            List<TopicPartition> tps = c.partitionsFor(topic).stream().map(p -> new TopicPartition(topic, p.partition())).toList();
            c.assign(tps);
            c.seekToBeginning(tps);
            Map<TopicPartition, Long> end = c.endOffsets(tps);
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (System.nanoTime() < deadline && (out.size() < atLeast || tps.stream().anyMatch(tp -> c.position(tp) < end.get(tp)))) {
                for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(200))) {
                    out.add(r.value());
                }
                if (out.size() < atLeast) {
                    end.putAll(c.endOffsets(tps));
                }
            }
        }
        return out;
    }

    private static KafkaConsumer<String, String> consumer() {
        Map<String, Object> p = new HashMap<>(KAFKA.client());
        p.put("isolation.level", "read_committed");
        return new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer());
    }

    /**
     * Connect does not restart a failed task by itself. An exactly-once source task that starts
     * while the leader worker is down fails: its request to fence the previous generation's
     * producers cannot reach the leader. An operator restarts it (Strimzi's autoRestart does);
     * so does this test, for that failure only, so that any other failure still fails the test.
     */
    static void restartTasksFailedByFencing() {
        try {
            JsonNode all = new ObjectMapper().readTree(workers.call("GET", "/connectors?expand=status", null).body());
            for (JsonNode c : all) {
                JsonNode st = c.path("status");
                for (JsonNode t : st.path("tasks")) {
                    if ("FAILED".equals(t.path("state").asText()) && t.path("trace").asText().contains("fenceZombieSourceTasks")) {
                        System.out.printf("restarting task %d of %s, failed while fencing zombies%n", t.path("id").asInt(), st.path("name").asText());
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
        long deadline = System.nanoTime() + max.toNanos();
        while (!condition.get()) {
            restartTasksFailedByFencing();
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not in " + max.toSeconds() + " s: " + what + "\n" + status() + "\n" + workers.logs());
            }
            ConnectWorkers.pause(1000);
        }
    }
}
