package io.tributary.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.sink.DeltaTables;
import io.tributary.sink.PartitionSink;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
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
 * A Spark job's logic on a real Connect cluster ({@link ConnectCluster}): the file connector's join with a Delta table, both
 * connectors' sql, the Delta connector's join keys, its history (SCD type 2) and its dropDuplicates, each checked row by row
 * in the table; the file connector's singleVariantColumn to a table of one VARIANT column.
 */
@Tag("integration")
@Tag("scenarios")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConnectTransformIT extends ConnectCluster {
    /**
     * The file connector's join: each row joined (left) with a Delta table of segments before select, through both
     * connectors to the table; the segments table changed between two files, and the second file's rows get its new rows.
     */
    @Test
    @Order(1)
    void filesJoinedWithADeltaTableLandWithTheTablesRowsAsOfTheirPoll() throws Exception {
        String topic = "joined";
        Path in = Files.createDirectories(dir.resolve("joined/in"));
        Path dims = dir.resolve("joined/users");
        Path table = dir.resolve("joined/table");
        FileSourceTransformTest.dims(dims, new Object[] {"ann", "gold"}, new Object[] {"bob", "silver"});
        createTopics(Map.of(topic, 3, topic + ".deadletter", 1));
        put(topic + "-files", "{\"connector.class\": \"io.tributary.connect.FileSourceConnector\", \"path\": \"" + in + "\","
                + " \"schema\": \"id INT, user STRING, amt DOUBLE\", \"topic\": \"" + topic + "\", \"tasks.max\": \"1\","
                + " \"join.table\": \"" + dims + "\", \"join.as\": \"u\", \"join.on\": \"lower(user) = u.user\", \"join.type\": \"left\","
                + " \"where\": \"amt > 0\", \"select\": \"id, lower(user) AS user, u.segment\"}");
        put(topic + "-delta", "{\"connector.class\": \"io.tributary.connect.DeltaSinkConnector\", \"topics\": \"" + topic + "\","
                + " \"delta.path\": \"" + table + "\", \"tasks.max\": \"3\", \"allowedLatency\": \"1 seconds\"}");
        Files.writeString(in.resolve(".a.json"), "{\"id\": 1, \"user\": \"Ann\", \"amt\": 5}\n{\"id\": 2, \"user\": \"BOB\", \"amt\": 1}\n"
                + "{\"id\": 3, \"user\": \"cy\", \"amt\": 2}\n{\"id\": 4, \"user\": \"ann\", \"amt\": -1}\n");
        Files.move(in.resolve(".a.json"), in.resolve("a.json"));
        await(topic + ": the first file's 3 rows in the table", Duration.ofSeconds(180), () -> addedRows(table) >= 3);
        FileSourceTransformTest.dims(dims, new Object[] {"cy", "bronze"});
        Files.writeString(in.resolve(".b.json"), "{\"id\": 5, \"user\": \"Cy\", \"amt\": 3}\n");
        Files.move(in.resolve(".b.json"), in.resolve("b.json"));
        await(topic + ": the second file's row in the table", Duration.ofSeconds(180), () -> addedRows(table) >= 4);
        List<String> rows = DeltaTables.readRows(table.toString()).stream().map(r -> r[0] + "|" + r[1] + "|" + r[2]).toList();
        assertThat(sorted(rows)).as("rows joined with the segments as of their poll, amt > 0 only")
                .containsExactly("1|ann|gold", "2|bob|silver", "3|cy|null", "5|cy|bronze");
        assertThat(DeltaTables.schema(table.toString()).orElseThrow().toDdl()).isEqualTo("id INT, user STRING, segment STRING");
        delete(topic + "-files");
        delete(topic + "-delta");
    }

    /**
     * The Delta connector's history (SCD type 2) over three tasks: every key's changes, out of order, duplicated, some ending
     * in a delete, in two rounds; the table ends with each key's versions, each from its change's lsn to the next change's.
     */
    @Test
    @Order(2)
    void historyAcrossThreeTasksKeepsEachKeysVersionsByLsn() throws Exception {
        String topic = "history";
        Path table = dir.resolve("history/table");
        createTopics(Map.of(topic, 3));
        put(topic + "-delta", "{\"connector.class\": \"io.tributary.connect.DeltaSinkConnector\", \"topics\": \"" + topic
                + "\", \"delta.path\": \"" + table + "\", \"tasks.max\": \"3\", \"mode\": \"upsert\", \"keys\": \"id\","
                + " \"schema\": \"op STRING, id INT, v STRING, lsn BIGINT\", \"sequenceBy\": \"lsn\", \"deleteWhen\": \"op = 'd'\","
                + " \"exceptColumns\": \"op\", \"history\": \"true\", \"allowedLatency\": \"1 seconds\", \"rowsPerFile\": \"50\"}");
        java.util.Random random = new java.util.Random(37);
        List<List<String>> rounds = List.of(new ArrayList<>(), new ArrayList<>());
        List<String> want = new ArrayList<>(); // id|v|lsn|start|end of every version
        long lsn = 0;
        for (int id = 0; id < 100; id++) {
            List<String> changes = new ArrayList<>();
            int n = 2 + random.nextInt(4);
            for (int i = 0; i < n; i++) {
                lsn += 1 + random.nextInt(5);
                String op = i == 0 ? "c" : i == n - 1 && random.nextInt(3) == 0 ? "d" : "u";
                changes.add(op + "|" + id + "|v" + lsn + "|" + lsn);
            }
            for (int i = 0; i < n; i++) {
                String[] f = changes.get(i).split("\\|");
                if (!f[0].equals("d")) {
                    want.add(f[1] + "|" + f[2] + "|" + f[3] + "|" + f[3] + "|" + (i + 1 < n ? changes.get(i + 1).split("\\|")[3] : "null"));
                }
            }
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
        List<String> rows = DeltaTables.readRows(table.toString()).stream()
                .map(r -> r[0] + "|" + r[1] + "|" + r[2] + "|" + r[3] + "|" + r[4]).toList();
        assertThat(sorted(rows)).as("each key's versions from its change's lsn to the next change's").isEqualTo(sorted(want));
        assertThat(DeltaTables.schema(table.toString()).orElseThrow().toDdl())
                .isEqualTo("id INT, v STRING, lsn BIGINT, __START_AT BIGINT, __END_AT BIGINT");
        delete(topic + "-delta");
    }

    /**
     * The Delta connector's dropDuplicates over three tasks: records of 300 keys, each key's records several times over, in two
     * rounds with every task restarted between them; the table holds each key's first row once.
     */
    @Test
    @Order(3)
    void dropDuplicatesKeepsEachKeysFirstRowOnceAcrossTasksAndRestarts() throws Exception {
        String topic = "dedup";
        Path table = dir.resolve("dedup/table");
        createTopics(Map.of(topic, 3));
        put(topic + "-delta", "{\"connector.class\": \"io.tributary.connect.DeltaSinkConnector\", \"topics\": \"" + topic
                + "\", \"delta.path\": \"" + table + "\", \"tasks.max\": \"3\", \"schema\": \"id INT, v STRING\","
                + " \"dropDuplicates.keys\": \"id\", \"allowedLatency\": \"1 seconds\"}");
        Map<Integer, String> first = new java.util.TreeMap<>();
        for (int round = 0; round < 2; round++) {
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(new HashMap<>(KAFKA.client()), new StringSerializer(),
                    new StringSerializer())) {
                for (int seq = 0; seq < 1000; seq++) {
                    int id = (seq * 7919 + round * 31) % (200 + 100 * round); // round 1 repeats round 0's keys and adds 100
                    String v = "r" + round + "-" + seq;
                    first.putIfAbsent(id, id + "|" + v);
                    producer.send(new ProducerRecord<>(topic, "[" + id + "]", "{\"id\": " + id + ", \"v\": \"" + v + "\"}"));
                }
            }
            Map<TopicPartition, Long> end = endOffsets(topic);
            await(topic + ": the table holds every partition's end offset " + end, Duration.ofSeconds(180),
                    () -> PartitionSink.allOffsets(table.toString()).equals(end));
            if (round == 0) {
                workers.call("POST", "/connectors/" + topic + "-delta/restart?includeTasks=true", null);
            }
        }
        List<String> rows = DeltaTables.readRows(table.toString()).stream().map(r -> r[0] + "|" + r[1]).toList();
        assertThat(sorted(rows)).as("each key's first row, once").isEqualTo(sorted(new ArrayList<>(first.values())));
        delete(topic + "-delta");
    }

    /**
     * {@code sql} in both connectors: the file connector's query filters and selects each file's rows, the Delta connector's
     * (three tasks, the rows' schema from the file connector's header) joins them with a Delta table of segments and filters
     * again; the segments table changed between two files, and the second file's rows get its new row. A record the sink's
     * WHERE fails on (Spark's ANSI DIVIDE_BY_ZERO) goes to Connect's dead letter queue, the others on.
     */
    @Test
    @Order(4)
    void queriesInBothConnectorsFilterSelectAndJoinTheRowsTheTableGets() throws Exception {
        String topic = "queried";
        Path in = Files.createDirectories(dir.resolve("queried/in"));
        Path dims = dir.resolve("queried/users");
        Path table = dir.resolve("queried/table");
        FileSourceTransformTest.dims(dims, new Object[] {"ann", "gold"}, new Object[] {"bob", "silver"});
        createTopics(Map.of(topic, 3, topic + ".deadletter", 1, topic + ".dlq", 1));
        put(topic + "-files", "{\"connector.class\": \"io.tributary.connect.FileSourceConnector\", \"path\": \"" + in + "\","
                + " \"schema\": \"id INT, user STRING, amt DOUBLE\", \"topic\": \"" + topic + "\", \"tasks.max\": \"1\","
                + " \"sql\": \"SELECT id, lower(trim(user)) AS user, amt FROM source WHERE amt > 0\"}");
        put(topic + "-delta", "{\"connector.class\": \"io.tributary.connect.DeltaSinkConnector\", \"topics\": \"" + topic + "\","
                + " \"delta.path\": \"" + table + "\", \"tasks.max\": \"3\", \"allowedLatency\": \"1 seconds\","
                + " \"sql\": \"SELECT s.id, s.user, s.amt * 2 AS amt2, u.segment\\nFROM source s LEFT JOIN delta.`" + dims
                + "` u ON s.user = u.user\\nWHERE s.id <> 99 AND 10 / (s.id - 7) <> 0\", \"errors.tolerance\": \"all\","
                + " \"errors.deadletterqueue.topic.name\": \"" + topic + ".dlq\", \"errors.deadletterqueue.topic.replication.factor\": \"1\"}");
        Files.writeString(in.resolve(".a.json"), "{\"id\": 1, \"user\": \" Ann \", \"amt\": 5}\n{\"id\": 2, \"user\": \"BOB\", \"amt\": 1}\n"
                + "{\"id\": 3, \"user\": \"cy\", \"amt\": 2}\n{\"id\": 4, \"user\": \"ann\", \"amt\": -1}\n"
                + "{\"id\": 7, \"user\": \"Bob\", \"amt\": 1}\n{\"id\": 99, \"user\": \"ann\", \"amt\": 3}\n");
        Files.move(in.resolve(".a.json"), in.resolve("a.json"));
        await(topic + ": the first file's 3 rows in the table", Duration.ofSeconds(180), () -> addedRows(table) >= 3);
        FileSourceTransformTest.dims(dims, new Object[] {"cy", "bronze"});
        Files.writeString(in.resolve(".b.json"), "{\"id\": 5, \"user\": \"Cy\", \"amt\": 3}\n");
        Files.move(in.resolve(".b.json"), in.resolve("b.json"));
        await(topic + ": the second file's row in the table", Duration.ofSeconds(180), () -> addedRows(table) >= 4);
        List<String> rows = DeltaTables.readRows(table.toString()).stream().map(r -> r[0] + "|" + r[1] + "|" + r[2] + "|" + r[3]).toList();
        assertThat(sorted(rows)).as("amt > 0, id <> 99 and not 7, joined with the segments as of their batch")
                .containsExactly("1|ann|10.0|gold", "2|bob|2.0|silver", "3|cy|4.0|null", "5|cy|6.0|bronze");
        assertThat(DeltaTables.schema(table.toString()).orElseThrow().toDdl()).isEqualTo("id INT, user STRING, amt2 DOUBLE, segment STRING");
        assertThat(values(topic + ".dlq", 1)).as("the record the WHERE fails on (DIVIDE_BY_ZERO), set aside")
                .containsExactly("{\"id\":7,\"user\":\"bob\",\"amt\":1.0}");
        delete(topic + "-files");
        delete(topic + "-delta");
    }

    /**
     * The Delta connector's {@code join.*} keys (two joins, numbered), {@code where} and {@code select}: each record's rows
     * joined (left) with a Delta table of segments and (left anti) with one of blocked users, filtered and selected. The
     * segments table gains a row between two files; the second file's rows get it. One partition, so a file's rows reach the
     * table in their order: once a file's last row is there, the rows before it (a blocked one) were taken or dropped.
     */
    @Test
    @Order(5)
    void joinKeysOfTheDeltaConnectorJoinEachBatchWithTheTablesAsOfItsStart() throws Exception {
        String topic = "joinkeys";
        Path in = Files.createDirectories(dir.resolve("joinkeys/in"));
        Path users = dir.resolve("joinkeys/users");
        Path blocked = dir.resolve("joinkeys/blocked");
        Path table = dir.resolve("joinkeys/table");
        FileSourceTransformTest.dims(users, new Object[] {"ann", "gold"}, new Object[] {"bob", "silver"});
        FileSourceTransformTest.dims(blocked, new Object[] {"dan", "chargebacks"});
        createTopics(Map.of(topic, 1, topic + ".deadletter", 1));
        put(topic + "-files", "{\"connector.class\": \"io.tributary.connect.FileSourceConnector\", \"path\": \"" + in + "\","
                + " \"schema\": \"id INT, user STRING, amt DOUBLE\", \"topic\": \"" + topic + "\", \"tasks.max\": \"1\"}");
        put(topic + "-delta", "{\"connector.class\": \"io.tributary.connect.DeltaSinkConnector\", \"topics\": \"" + topic + "\","
                + " \"delta.path\": \"" + table + "\", \"tasks.max\": \"3\", \"allowedLatency\": \"1 seconds\","
                + " \"join.0.table\": \"" + users + "\", \"join.0.as\": \"u\", \"join.0.on\": \"lower(user) = u.user\","
                + " \"join.0.type\": \"left\", \"join.1.table\": \"" + blocked + "\", \"join.1.as\": \"b\","
                + " \"join.1.on\": \"lower(user) = b.user\", \"join.1.type\": \"left_anti\","
                + " \"where\": \"amt > 0\", \"select\": \"id, lower(user) AS user, amt, u.segment\"}");
        Files.writeString(in.resolve(".a.json"), "{\"id\": 1, \"user\": \"Ann\", \"amt\": 5}\n{\"id\": 2, \"user\": \"BOB\", \"amt\": 1}\n"
                + "{\"id\": 4, \"user\": \"ann\", \"amt\": -1}\n{\"id\": 6, \"user\": \"Dan\", \"amt\": 4}\n"
                + "{\"id\": 3, \"user\": \"cy\", \"amt\": 2}\n");
        Files.move(in.resolve(".a.json"), in.resolve("a.json"));
        await(topic + ": the first file's 3 rows in the table", Duration.ofSeconds(180), () -> addedRows(table) >= 3);
        FileSourceTransformTest.dims(users, new Object[] {"cy", "bronze"});
        Files.writeString(in.resolve(".b.json"), "{\"id\": 7, \"user\": \"dan\", \"amt\": 1}\n{\"id\": 5, \"user\": \"Cy\", \"amt\": 3}\n");
        Files.move(in.resolve(".b.json"), in.resolve("b.json"));
        await(topic + ": the second file's row in the table", Duration.ofSeconds(180), () -> addedRows(table) >= 4);
        List<String> rows = DeltaTables.readRows(table.toString()).stream().map(r -> r[0] + "|" + r[1] + "|" + r[2] + "|" + r[3]).toList();
        assertThat(sorted(rows)).as("amt > 0, dan (blocked) left out, the segments as of each batch's start")
                .containsExactly("1|ann|5.0|gold", "2|bob|1.0|silver", "3|cy|2.0|null", "5|cy|3.0|bronze");
        assertThat(DeltaTables.schema(table.toString()).orElseThrow().toDdl()).isEqualTo("id INT, user STRING, amt DOUBLE, segment STRING");
        delete(topic + "-files");
        delete(topic + "-delta");
    }

    /**
     * The Delta connector's {@code lateralView.*} keys, Spark's LATERAL VIEW over each record's rows: the golden generator
     * rows' JSON arrays (null, empty, holding a null) exploded, filtered on the view's qualified column and selected; the table
     * holds Spark 4.2's rows of the same query ({@code golden/generators}, case 56).
     */
    @Test
    @Order(6)
    void aLateralViewOfTheDeltaConnectorExplodesEachRecordsArrayIntoSparksRows() throws Exception {
        String topic = "exploded";
        Path in = Files.createDirectories(dir.resolve("exploded/in"));
        Path table = dir.resolve("exploded/table");
        List<String> cases = golden("cases.txt").stream().filter(l -> !l.startsWith("#")).toList();
        assertThat(cases.get(56)).isEqualTo("sql\tSELECT s.id, t.tag FROM source s LATERAL VIEW explode(s.tags) t AS tag WHERE t.tag <> 'a'");
        List<String> spark = golden("spark.tsv").stream().filter(l -> l.startsWith("56\t")).map(l -> l.substring(3).replace('\t', '|')).toList();
        createTopics(Map.of(topic, 1, topic + ".deadletter", 1));
        put(topic + "-files", "{\"connector.class\": \"io.tributary.connect.FileSourceConnector\", \"path\": \"" + in + "\","
                + " \"schema\": \"id INT, tags ARRAY<STRING>\", \"topic\": \"" + topic + "\", \"tasks.max\": \"1\"}");
        put(topic + "-delta", "{\"connector.class\": \"io.tributary.connect.DeltaSinkConnector\", \"topics\": \"" + topic + "\","
                + " \"delta.path\": \"" + table + "\", \"tasks.max\": \"1\", \"allowedLatency\": \"1 seconds\","
                + " \"lateralView.generator\": \"explode(tags)\", \"lateralView.as\": \"t\", \"lateralView.columns\": \"tag\","
                + " \"where\": \"t.tag <> 'a'\", \"select\": \"id, t.tag\"}");
        Files.write(in.resolve(".rows.json"), golden("rows.jsonl"));
        Files.move(in.resolve(".rows.json"), in.resolve("rows.json"));
        await(topic + ": Spark's " + spark.size() + " rows in the table", Duration.ofSeconds(180), () -> addedRows(table) >= spark.size());
        List<String> rows = DeltaTables.readRows(table.toString()).stream().map(r -> r[0] + "|" + (r[1] == null ? "\\N" : r[1])).toList();
        assertThat(rows).as("Spark's rows of the query").containsExactlyInAnyOrderElementsOf(spark);
        assertThat(DeltaTables.schema(table.toString()).orElseThrow().toDdl()).isEqualTo("id INT, tag STRING");
        delete(topic + "-files");
        delete(topic + "-delta");
    }

    /**
     * The file connector's {@code options.singleVariantColumn}: each whole line one VARIANT column, without a schema, through
     * the Delta connector to a table of that one VARIANT column; a line that is no JSON goes to the dead-letter topic.
     */
    @Test
    @Order(7)
    void eachWholeLineLandsAsOneVariantColumnWithSingleVariantColumn() throws Exception {
        String topic = "variants";
        Path in = Files.createDirectories(dir.resolve("variants/in"));
        Path table = dir.resolve("variants/table");
        createTopics(Map.of(topic, 1, topic + ".deadletter", 1));
        put(topic + "-files", "{\"connector.class\": \"io.tributary.connect.FileSourceConnector\", \"path\": \"" + in + "\","
                + " \"options.singleVariantColumn\": \"v\", \"topic\": \"" + topic + "\", \"tasks.max\": \"1\"}");
        put(topic + "-delta", "{\"connector.class\": \"io.tributary.connect.DeltaSinkConnector\", \"topics\": \"" + topic + "\","
                + " \"delta.path\": \"" + table + "\", \"tasks.max\": \"1\", \"allowedLatency\": \"1 seconds\"}");
        Files.writeString(in.resolve(".a.json"), "{\"id\": 1, \"tags\": [\"x\"]}\n[1, \"two\"]\n{\"id\": \n42\n");
        Files.move(in.resolve(".a.json"), in.resolve("a.json"));
        await(topic + ": the file's 3 variants in the table", Duration.ofSeconds(180), () -> addedRows(table) >= 3);
        String ddl = DeltaTables.schema(table.toString()).orElseThrow().toDdl();
        assertThat(ddl).isEqualTo("v VARIANT");
        io.tributary.expressions.Transform json = io.tributary.expressions.Transform.compile(
                io.tributary.schema.Schema.parseWithVariant(ddl), null, List.of("to_json(v)"));
        List<String> rows = DeltaTables.readRows(table.toString()).stream().map(r -> String.valueOf(json.apply(r)[0])).toList();
        assertThat(rows).containsExactlyInAnyOrder("{\"id\":1,\"tags\":[\"x\"]}", "[1,\"two\"]", "42");
        delete(topic + "-files");
        delete(topic + "-delta");
    }

    private static List<String> golden(String name) throws java.io.IOException {
        try (java.io.InputStream s = ConnectTransformIT.class.getClassLoader().getResourceAsStream("golden/generators/" + name)) {
            return new String(s.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).lines().filter(l -> !l.isBlank()).toList();
        }
    }
}
