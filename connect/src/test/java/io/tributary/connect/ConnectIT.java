package io.tributary.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.schema.RowJson;
import io.tributary.schema.Topics;
import io.tributary.sink.DeltaTables;
import io.tributary.sink.PartitionSink;
import io.tributary.sink.SparkCreatedTables;
import io.tributary.testing.Specs;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Both connectors on a real Connect cluster ({@link ConnectCluster}): the documentation's
 * quickstart, bad values, plain JSON, tasks.max changed mid-stream, upserts.
 */
@Tag("integration")
@Tag("scenarios")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConnectIT extends ConnectCluster {
    @Test
    @Order(1)
    void quickstartFilesLandInTheTableThroughBothConnectors() throws Exception {
        Path in = Files.createDirectories(dir.resolve("data/in"));
        Path table = dir.resolve("data/tables/orders");
        Files.copy(Specs.QUICKSTART_EXAMPLE.resolve("in").resolve("part-0001.json"), in.resolve("part-0001.json"));
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
     * A table Spark made with a CHECK constraint: the sink checks each row against it, the record whose row
     * breaks it goes to Connect's dead letter queue, and the others are committed (Delta Kernel alone refuses
     * to write such a table).
     */
    @Test
    @Order(4)
    void aRecordBreakingTheTablesCheckConstraintGoesToTheDeadLetterQueue() throws Exception {
        Path table = SparkCreatedTables.create(dir.resolve("checked/table"), List.of("id integer", "user string", "amt double", "ts timestamp"),
                List.of(SparkCreatedTables.CHECK_CONSTRAINTS), Map.of("delta.constraints.amt_positive", "amt > 0"));
        createTopics(Map.of("checked", 1, "checked.dlq", 1));
        String row = "{\"id\": %d, \"user\": \"p\", \"amt\": %s, \"ts\": \"2026-01-01T10:00:00Z\"}";
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(new HashMap<>(KAFKA.client()), new StringSerializer(),
                new StringSerializer())) {
            producer.send(new ProducerRecord<>("checked", row.formatted(1, "1.5")));
            producer.send(new ProducerRecord<>("checked", row.formatted(2, "-1.0")));
            producer.send(new ProducerRecord<>("checked", row.formatted(3, "2.5")));
        }
        put("checked-delta", "{\"connector.class\": \"io.tributary.connect.DeltaSinkConnector\", \"topics\": \"checked\", "
                + "\"delta.path\": \"" + table + "\", \"errors.tolerance\": \"all\", \"errors.deadletterqueue.topic.name\": \"checked.dlq\", "
                + "\"errors.deadletterqueue.topic.replication.factor\": \"1\"}");
        await("the table holds the 2 rows that hold the constraint", Duration.ofSeconds(120), () -> addedRows(table) >= 2);
        assertThat(DeltaTables.readRows(table.toString())).extracting(r -> r[0]).containsExactlyInAnyOrder(1, 3);
        assertThat(values("checked.dlq", 1)).containsExactly(row.formatted(2, "-1.0"));
        delete("checked-delta");
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

    /**
     * Change data over three tasks (sequenceBy, deleteWhen, exceptColumns, as {@code tributary run}'s
     * sink): 200 keys, each with a create, updates and sometimes a delete, produced keyed [id] out
     * of sequence order with duplicates, in two rounds the table takes one after the other. The
     * table ends with each key's change of the greatest lsn, a key whose greatest is a delete absent.
     */
    @Test
    @Order(9)
    void changeDataOutOfOrderAcrossThreeTasksEndsAsTheSource() throws Exception {
        String topic = "changes";
        Path table = dir.resolve("changes/table");
        createTopics(Map.of(topic, 3));
        put(topic + "-delta", "{\"connector.class\": \"io.tributary.connect.DeltaSinkConnector\", \"topics\": \"" + topic
                + "\", \"delta.path\": \"" + table + "\", \"tasks.max\": \"3\", \"mode\": \"upsert\", \"keys\": \"id\","
                + " \"schema\": \"op STRING, id INT, v STRING, lsn BIGINT\", \"sequenceBy\": \"lsn\", \"deleteWhen\": \"op = 'd'\","
                + " \"exceptColumns\": \"op\", \"allowedLatency\": \"1 seconds\", \"rowsPerFile\": \"50\"}");
        java.util.Random random = new java.util.Random(39);
        List<List<String>> rounds = List.of(new ArrayList<>(), new ArrayList<>());
        Map<Integer, String> latest = new java.util.TreeMap<>(); // id -> "op|id|v|lsn" of the greatest lsn
        long lsn = 0;
        for (int id = 0; id < 200; id++) {
            List<String> changes = new ArrayList<>();
            int n = 2 + random.nextInt(4);
            for (int i = 0; i < n; i++) {
                lsn += 1 + random.nextInt(5);
                String op = i == 0 ? "c" : i == n - 1 && random.nextInt(3) == 0 ? "d" : "u";
                changes.add(op + "|" + id + "|v" + lsn + "|" + lsn);
            }
            latest.put(id, changes.get(changes.size() - 1));
            changes.add(changes.get(random.nextInt(changes.size()))); // a duplicate
            java.util.Collections.shuffle(changes, random);
            for (String c : changes) {
                rounds.get(random.nextInt(2)).add(c);
            }
        }
        for (List<String> round : rounds) {
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(new HashMap<>(KAFKA.client()), new StringSerializer(),
                    new StringSerializer())) {
                for (String c : round) {
                    String[] f = c.split("\\|");
                    producer.send(new ProducerRecord<>(topic, "[" + f[1] + "]", "{\"op\": \"" + f[0] + "\", \"id\": " + f[1]
                            + ", \"v\": \"" + f[2] + "\", \"lsn\": " + f[3] + "}"));
                }
            }
            Map<TopicPartition, Long> end = endOffsets(topic);
            await(topic + ": the table holds every partition's end offset " + end, Duration.ofSeconds(180),
                    () -> PartitionSink.allOffsets(table.toString()).equals(end));
        }
        List<String> want = sorted(latest.values().stream().filter(c -> !c.startsWith("d|")).map(c -> c.substring(2)).toList());
        List<String> rows = DeltaTables.readRows(table.toString()).stream().map(r -> r[0] + "|" + r[1] + "|" + r[2]).toList();
        assertThat(sorted(rows)).as("each key's change of the greatest lsn; deleted keys absent").isEqualTo(want);
        assertThat(DeltaTables.schema(table.toString()).orElseThrow().toDdl()).isEqualTo("id INT, v STRING, lsn BIGINT");
        delete(topic + "-delta");
    }

    /** A PostgreSQL connector's change event, as the JSON converter writes it without schemas. */
    static String pgEvent(String op, String before, String after, long lsn) {
        return "{\"before\":" + before + ",\"after\":" + after + ",\"source\":{\"connector\":\"postgresql\",\"db\":\"shop\","
                + "\"table\":\"customers\",\"txId\":" + (500 + lsn) + ",\"lsn\":" + lsn + "},\"op\":\"" + op + "\",\"ts_ms\":" + lsn
                + "}\n";
    }

    /**
     * Debezium's change events through both connectors: files of events read by the file connector
     * (format debezium-json, records keyed by id) and applied by the Delta connector's change data
     * (sequenceBy lsn, deleteWhen op = 'd', exceptColumns op), out of order, duplicated, with a
     * tombstone and a truncate; the table ends as the source table.
     */
    @Test
    @Order(10)
    void debeziumFilesThroughBothConnectorsEndAsTheSource() throws Exception {
        String topic = "dbz";
        Path in = Files.createDirectories(dir.resolve("dbz/in"));
        Path table = dir.resolve("dbz/table");
        createTopics(Map.of(topic, 3, topic + ".deadletter", 1));
        put(topic + "-files", "{\"connector.class\": \"io.tributary.connect.FileSourceConnector\", \"path\": \"" + in + "\","
                + " \"schema\": \"id INT, name STRING\", \"format\": \"debezium-json\", \"keys\": \"id\", \"topic\": \"" + topic
                + "\", \"tasks.max\": \"1\"}");
        put(topic + "-delta", "{\"connector.class\": \"io.tributary.connect.DeltaSinkConnector\", \"topics\": \"" + topic + "\","
                + " \"delta.path\": \"" + table + "\", \"tasks.max\": \"3\", \"mode\": \"upsert\", \"keys\": \"id\", \"schema\":"
                + " \"id INT, name STRING, op STRING, lsn BIGINT\", \"sequenceBy\": \"lsn\", \"deleteWhen\": \"op = 'd'\","
                + " \"exceptColumns\": \"op\", \"allowedLatency\": \"1 seconds\"}");
        String[] files = {
            pgEvent("c", "null", "{\"id\":1,\"name\":\"ann\"}", 10) + pgEvent("c", "null", "{\"id\":2,\"name\":\"bob\"}", 11)
                    + pgEvent("u", "null", "{\"id\":1,\"name\":\"anne\"}", 13) + pgEvent("u", "null", "{\"id\":1,\"name\":\"an\"}", 12)
                    + pgEvent("d", "{\"id\":2}", "null", 14) + "null\n",
            pgEvent("u", "null", "{\"id\":2,\"name\":\"bob-late\"}", 12) + pgEvent("c", "null", "{\"id\":3,\"name\":\"cy\"}", 15)
                    + pgEvent("u", "null", "{\"id\":3,\"name\":\"cyrus\"}", 16) + pgEvent("u", "null", "{\"id\":3,\"name\":\"cyrus\"}", 16)
                    + pgEvent("t", "null", "null", 17)};
        int published = 0;
        for (int f = 0; f < files.length; f++) {
            Path tmp = in.resolve(".events-" + f + ".json");
            Files.writeString(tmp, files[f]);
            Files.move(tmp, in.resolve("events-" + f + ".json"));
            published += f == 0 ? 5 : 4;
            int want = published;
            await(topic + ": " + want + " records published", Duration.ofSeconds(120), () -> values(topic, 0).size() >= want);
            Map<TopicPartition, Long> pastLast = pastLastRecords(topic);
            await(topic + ": the table holds the offsets past each partition's last record " + pastLast, Duration.ofSeconds(180),
                    () -> PartitionSink.allOffsets(table.toString()).equals(pastLast));
        }
        List<String> rows = DeltaTables.readRows(table.toString()).stream().map(r -> r[0] + "|" + r[1] + "|" + r[2]).toList();
        assertThat(sorted(rows)).as("the last change of each key by lsn; key 2 deleted").containsExactly("1|anne|13", "3|cyrus|16");
        assertThat(values(topic + ".deadletter", 0)).isEmpty();
        delete(topic + "-files");
        delete(topic + "-delta");
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

}
