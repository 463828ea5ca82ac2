package io.tributary.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.kafka.KafkaSourceSettings;
import io.tributary.kafka.KafkaSubscription;
import io.tributary.schema.Progress;
import io.tributary.settings.Values;
import io.tributary.testing.SchemaRegistryServer;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Debezium's PostgreSQL change events as Confluent's Avro converter writes them (the envelope
 * {@code <server>.<schema>.<table>.Envelope} of Debezium's documented Avro schema: {@code before} and
 * {@code after} nullable {@code Value} records, the connector's {@code source} record, {@code op},
 * {@code ts_ms}; Confluent's wire format), their schemas in a real Apicurio Registry, landed in an
 * upsert table by key ordered by {@code source.lsn}, deletes applied, tombstones skipped, bad values
 * dead-lettered naming topic, partition and offset; a second run reads a newer envelope with a new
 * column, and its late, older change neither overwrites a newer row nor brings a deleted one back.
 * Runs with {@code -Pregistry}, as {@link SchemaRegistryIT}.
 */
@Tag("integration")
@Tag("registry")
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class DebeziumAvroRegistryIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String USER_INFO = "tributary:s3cret";

    @RegisterExtension
    static final TestKafka KAFKA = new TestKafka();
    private static SchemaRegistryServer registry;
    private static String url;

    @TempDir
    Path dir;

    @BeforeAll
    static void startRegistry(@TempDir Path logs) throws Exception {
        String unavailable = SchemaRegistryServer.unavailable();
        assumeTrue(unavailable == null, unavailable);
        registry = SchemaRegistryServer.start(logs, USER_INFO);
        url = registry.url();
    }

    @AfterAll
    static void stopRegistry() throws Exception {
        if (registry != null) {
            registry.close();
        }
    }

    /** Debezium's PostgreSQL connector's Avro envelope for dbserver1.inventory.customers, with {@code extra} columns in its Value. */
    private static String envelope(String extra) {
        return """
                {"type":"record","name":"Envelope","namespace":"dbserver1.inventory.customers","fields":[
                  {"name":"before","type":["null",{"type":"record","name":"Value","fields":[
                    {"name":"id","type":"int"},{"name":"first_name","type":"string"},{"name":"last_name","type":"string"},
                    {"name":"email","type":"string"}%s],"connect.name":"dbserver1.inventory.customers.Value"}],"default":null},
                  {"name":"after","type":["null","Value"],"default":null},
                  {"name":"source","type":{"type":"record","name":"Source","namespace":"io.debezium.connector.postgresql","fields":[
                    {"name":"version","type":"string"},{"name":"connector","type":"string"},{"name":"name","type":"string"},
                    {"name":"ts_ms","type":"long"},
                    {"name":"snapshot","type":[{"type":"string","connect.version":1,"connect.parameters":{"allowed":"true,last,false,incremental"},
                      "connect.default":"false","connect.name":"io.debezium.data.Enum"},"null"],"default":"false"},
                    {"name":"db","type":"string"},{"name":"sequence","type":["null","string"],"default":null},
                    {"name":"schema","type":"string"},{"name":"table","type":"string"},
                    {"name":"txId","type":["null","long"],"default":null},{"name":"lsn","type":["null","long"],"default":null},
                    {"name":"xmin","type":["null","long"],"default":null}],"connect.name":"io.debezium.connector.postgresql.Source"}},
                  {"name":"op","type":"string"},
                  {"name":"ts_ms","type":["null","long"],"default":null},
                  {"name":"transaction","type":["null",{"type":"record","name":"block","namespace":"event","fields":[
                    {"name":"id","type":"string"},{"name":"total_order","type":"long"},{"name":"data_collection_order","type":"long"}],
                    "connect.version":1,"connect.name":"event.block"}],"default":null}],
                 "connect.version":1,"connect.name":"dbserver1.inventory.customers.Envelope"}""".formatted(extra);
    }

    private static final String V1 = envelope("");
    private static final String V2 = envelope(",{\"name\":\"phone\",\"type\":[\"null\",\"string\"],\"default\":null}");

    /** One event of envelope {@code text}, in the wire format of schema id {@code id}; a customer is {id, first, last, email[, phone]}. */
    private static byte[] event(String text, int id, String op, Object[] before, Object[] after, long lsn) throws Exception {
        Schema envelope = new Schema.Parser().parse(text);
        Schema value = envelope.getField("before").schema().getTypes().get(1);
        GenericRecord source = new GenericData.Record(envelope.getField("source").schema());
        source.put("version", "2.7.3.Final");
        source.put("connector", "postgresql");
        source.put("name", "dbserver1");
        source.put("ts_ms", 1559033904863L);
        source.put("snapshot", "false");
        source.put("db", "postgres");
        source.put("schema", "inventory");
        source.put("table", "customers");
        source.put("txId", 556L);
        source.put("lsn", lsn);
        GenericRecord e = new GenericData.Record(envelope);
        e.put("before", customer(value, before));
        e.put("after", customer(value, after));
        e.put("source", source);
        e.put("op", op);
        e.put("ts_ms", 1559033904863L);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder enc = EncoderFactory.get().binaryEncoder(out, null);
        new GenericDatumWriter<GenericRecord>(envelope).write(e, enc);
        enc.flush();
        byte[] avro = out.toByteArray();
        return ByteBuffer.allocate(5 + avro.length).put((byte) 0).putInt(id).put(avro).array();
    }

    private static GenericRecord customer(Schema value, Object[] fields) {
        if (fields == null) {
            return null;
        }
        GenericRecord r = new GenericData.Record(value);
        for (int i = 0; i < fields.length; i++) {
            r.put(i, fields[i]);
        }
        return r;
    }

    private static Object[] c(Object... fields) {
        return fields;
    }

    private void publish(String topic, byte[]... values) {
        KAFKA.inTransaction(p -> {
            for (byte[] v : values) {
                p.send(new ProducerRecord<>(topic, 0, "{\"id\":0}".getBytes(StandardCharsets.UTF_8), v));
            }
        });
    }

    private Progress land(String topic) {
        KafkaSubscription subscription = KafkaSubscription.of(Values.of(KafkaSourceSettings.ALL, Map.of("topics", topic,
                "format", "debezium-avro", "schemaRegistry.url", url, "schemaRegistry.basic.auth.user.info", USER_INFO)));
        Map<String, String> keyed = new HashMap<>();
        Map.of("mode", "upsert", "keys", "id", "sequenceBy", "lsn", "deleteWhen", "op = 'd'", "exceptColumns", "op",
                "mergeSchema", "true").forEach((k, v) -> keyed.put("sink.delta." + k, v));
        Values sink = Values.localized(SinkSettings.ALL, s -> s.under("sink.delta"), keyed::get, (s, text, e) -> e);
        SinkConfig config = SinkConfig.builder(dir.resolve("t").toString(), subscription.rowSchema(), subscription.description(),
                "dbz-avro-sink", "dbz-avro/sink").settings(sink).badRecords(SinkBadRecords.forName("deadLetter", topic + ".deadletter"))
                .build();
        try (DeltaSink s = DeltaSink.builder(config, KAFKA.client()).subscription(subscription).availableNow(true).build()) {
            return s.runBatch().orElseThrow();
        }
    }

    private Map<Integer, String> rows() {
        Map<Integer, String> out = new TreeMap<>();
        for (Object[] r : DeltaTables.readRows(dir.resolve("t").toString())) {
            List<String> rest = new ArrayList<>();
            for (int i = 1; i < r.length; i++) {
                rest.add(String.valueOf(r[i]));
            }
            out.put((Integer) r[0], String.join(" ", rest));
        }
        return out;
    }

    @Test
    void avroChangeEventsUpsertAndDeleteByLsnAcrossTwoRuns() throws Exception {
        String topic = KAFKA.newTopic("dbserver1.inventory.customers", 1);
        int v1 = registry.register(topic + "-value", null, V1);
        byte[] notWire = "junk value".getBytes(StandardCharsets.UTF_8);
        publish(topic,
                event(V1, v1, "r", null, c(1, "Anne", "Kretchmar", "annek@noanswer.org"), 24023128),
                event(V1, v1, "c", null, c(2, "Sally", "Thomas", "sally.thomas@acme.com"), 24023200),
                event(V1, v1, "u", c(1, "Anne", "Kretchmar", "annek@noanswer.org"), c(1, "Anne Marie", "Kretchmar", "annek@noanswer.org"),
                        24023300),
                event(V1, v1, "d", c(2, "Sally", "Thomas", "sally.thomas@acme.com"), null, 46523128),
                null, // the tombstone Debezium writes after a delete
                notWire, // offset 5
                event(V1, 99_999, "c", null, c(9, "No", "Body", "x"), 46523140)); // offset 6: an id the registry lacks
        Progress first = land(topic);

        // id, first_name, last_name, email, then lsn: op is not stored
        assertThat(rows()).containsExactly(Map.entry(1, "Anne Marie Kretchmar annek@noanswer.org 24023300"));
        assertThat(first.sink().metrics()).containsEntry("numDeleteMarkers", 1L);
        List<String> letters = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : TopicTail.records(KAFKA.client(), topic + ".deadletter", Map.of())) {
            JsonNode letter = JSON.readTree(r.value());
            letters.add(letter.path("topic").asText() + " " + letter.path("partition").asInt() + " " + letter.path("offset").asLong()
                    + ": " + letter.path("reason").asText());
        }
        assertThat(letters).containsExactly(
                topic + " 0 5: not in a schema registry's wire format (a 0 byte, a 4-byte schema id): magic byte 0x6a, not 0x00",
                topic + " 0 6: schema id 99999 is not in the schema registry " + url);

        // the table gains Debezium's new column; an older change is skipped, a late one for the deleted key does not bring it back
        int v2 = registry.register(topic + "-value", null, V2);
        publish(topic,
                event(V1, v1, "u", null, c(1, "Anne", "Old", "annek@noanswer.org"), 24023250),
                event(V2, v2, "u", null, c(2, "Sally", "Ghost", "sally.thomas@acme.com", null), 46523000),
                event(V2, v2, "c", null, c(3, "Edward", "Walker", "ed@walker.com", "+1 555 0100"), 46523300));
        Progress second = land(topic);

        assertThat(DeltaTables.schema(dir.resolve("t").toString()).orElseThrow().toDdl()).isEqualTo(io.tributary.schema.Schema.parse(
                "id INT, first_name STRING, last_name STRING, email STRING, lsn BIGINT, phone STRING").toDdl());
        assertThat(rows()).containsExactly(Map.entry(1, "Anne Marie Kretchmar annek@noanswer.org 24023300 null"),
                Map.entry(3, "Edward Walker ed@walker.com 46523300 +1 555 0100"));
        assertThat(second.sink().metrics()).containsEntry("numSourceKeysSkippedOutOfOrder", 2L);
    }
}
