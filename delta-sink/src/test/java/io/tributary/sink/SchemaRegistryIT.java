package io.tributary.sink;

import io.tributary.kafka.KafkaSubscription;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorSet;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.DynamicMessage;
import io.tributary.kafka.KafkaSourceSettings;
import io.tributary.schema.TributaryException;
import io.tributary.settings.Values;
import io.tributary.testing.SchemaRegistryServer;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
 * Avro and Protobuf values in Confluent's wire format, their schemas in a real schema registry:
 * Apicurio Registry (from Maven Central, in-memory storage) through its Confluent-compatible API,
 * started here as a child process ({@link SchemaRegistryServer}), requiring HTTP basic authentication. The schemas are registered as a producer's serializer registers
 * them; the values are Apache Avro's and protobuf-java's own encodings behind the 5-byte header.
 * Runs with {@code -Pregistry} (delta-sink's profile unpacks the registry; it needs Java 21 or
 * later, {@code -Dapicurio.java}); skipped, saying so, without it.
 */
@Tag("integration")
@Tag("registry")
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class SchemaRegistryIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String V1 = "{\"type\": \"record\", \"name\": \"Order\", \"fields\": [{\"name\": \"id\", \"type\": \"int\"},"
            + " {\"name\": \"name\", \"type\": \"string\"}]}";
    /** V1 and a field with a default: Avro's resolution reads V2's values as V1. */
    private static final String V2 = "{\"type\": \"record\", \"name\": \"Order\", \"fields\": [{\"name\": \"id\", \"type\": \"int\"},"
            + " {\"name\": \"name\", \"type\": \"string\"}, {\"name\": \"email\", \"type\": [\"null\", \"string\"], \"default\": null}]}";
    /** id a string: no resolution reads it as V1. */
    private static final String V3 = "{\"type\": \"record\", \"name\": \"Order\", \"fields\": [{\"name\": \"id\", \"type\": \"string\"},"
            + " {\"name\": \"name\", \"type\": \"string\"}]}";

    /** The registry requires HTTP basic authentication of these credentials (Quarkus' embedded users). */
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

    private static int register(String subject, String type, String schema) throws Exception {
        return registry.register(subject, type, schema);
    }

    /** Confluent's wire format: 0, the id, the message indexes (Protobuf), the value. */
    private static byte[] framed(int id, byte[] indexes, byte[] value) {
        return ByteBuffer.allocate(5 + indexes.length + value.length).put((byte) 0).putInt(id).put(indexes).put(value).array();
    }

    private static byte[] avro(String schemaText, Object... fields) throws Exception {
        Schema schema = new Schema.Parser().parse(schemaText);
        GenericRecord r = new GenericData.Record(schema);
        for (int i = 0; i < fields.length; i++) {
            r.put(i, fields[i]);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder e = EncoderFactory.get().binaryEncoder(out, null);
        new GenericDatumWriter<GenericRecord>(schema).write(r, e);
        e.flush();
        return out.toByteArray();
    }

    private String table() {
        return dir.resolve("t").toString();
    }

    private void land(String topic, Map<String, String> settings) {
        Map<String, String> all = new HashMap<>(settings);
        all.put("topics", topic);
        all.put("schemaRegistry.url", url);
        all.putIfAbsent("schemaRegistry.basic.auth.user.info", USER_INFO);
        KafkaSubscription subscription = KafkaSubscription.of(Values.of(KafkaSourceSettings.ALL, all));
        SinkConfig config = SinkConfig.builder(table(), subscription.rowSchema(), subscription.description(), "reg-sink", "reg/sink")
                .mergeSchema(true).badRecords(SinkBadRecords.forName("deadLetter", topic + ".deadletter")).build();
        try (DeltaSink sink = DeltaSink.builder(config, KAFKA.client()).subscription(subscription).availableNow(true).build()) {
            while (sink.runBatch().isPresent()) {
                // every batch up to the end offsets the first one saw
            }
        }
    }

    private List<Object[]> rows() {
        List<Object[]> rows = new ArrayList<>(DeltaTables.readRows(table()));
        rows.sort(Comparator.comparing(r -> (Integer) r[0]));
        return rows;
    }

    private List<String> deadLetterReasons(String topic) throws Exception {
        List<String> reasons = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : TopicTail.records(KAFKA.client(), topic + ".deadletter", Map.of())) {
            var letter = JSON.readTree(r.value());
            reasons.add(letter.path("offset").asLong() + ": " + letter.path("reason").asText());
        }
        return reasons;
    }

    @Test
    void avroValuesReadByTheirSchemaIdsANewCompatibleSchemaMidStreamAndAnIncompatibleOneRefused() throws Exception {
        String topic = KAFKA.newTopic("registry", 1);
        int v1 = register(topic + "-value", null, V1);
        KAFKA.inTransaction(p -> {
            try {
                p.send(new ProducerRecord<>(topic, 0, null, framed(v1, new byte[0], avro(V1, 1, "a"))));
                p.send(new ProducerRecord<>(topic, 0, null, framed(99_999, new byte[0], avro(V1, 9, "unknown id"))));
                byte[] magic = framed(v1, new byte[0], avro(V1, 9, "magic"));
                magic[0] = 1;
                p.send(new ProducerRecord<>(topic, 0, null, magic));
                p.send(new ProducerRecord<>(topic, 0, null, framed(v1, new byte[0], avro(V1, 2, "b"))));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });

        land(topic, Map.of("format", "avro")); // the columns: the subject's latest version, V1

        assertThat(rows()).extracting(r -> r[1]).containsExactly("a", "b");
        assertThat(deadLetterReasons(topic)).containsExactly("1: schema id 99999 is not in the schema registry " + url,
                "2: not in a schema registry's wire format (a 0 byte, a 4-byte schema id): magic byte 0x01, not 0x00");

        int v2 = register(topic + "-value", null, V2);
        KAFKA.inTransaction(p -> {
            try {
                p.send(new ProducerRecord<>(topic, 0, null, framed(v2, new byte[0], avro(V2, 3, "c", "c@example.com"))));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        land(topic, Map.of("format", "avro", "avroSchema", V1)); // the table's columns, V1: V2's values read as V1

        assertThat(v2).isNotEqualTo(v1);
        assertThat(rows()).extracting(r -> r[0] + ":" + r[1]).containsExactly("1:a", "2:b", "3:c");

        int v3 = register(topic + "-value", null, V3);
        KAFKA.inTransaction(p -> {
            try {
                p.send(new ProducerRecord<>(topic, 0, null, framed(v3, new byte[0], avro(V3, "4", "d"))));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        assertThatThrownBy(() -> land(topic, Map.of("format", "avro", "avroSchema", V1))).isInstanceOf(TributaryException.class)
                .hasMessageContaining("topic " + topic + " partition 0 offset 7: its schema id " + v3 + " in the registry " + url
                        + " cannot be read as the source's schema (TYPE_MISMATCH at /fields/0/type: reader type: INT not compatible with"
                        + " writer type: STRING)") // offsets 4 and 6: the transactions' commit markers
                .hasMessageNotContaining("\n");
        assertThat(rows()).as("nothing of the refused batch").hasSize(3);
    }

    @Test
    void aNewSchemaWithAFieldAddsItsColumnUnderAddNewColumnsAndStopsTheRunUnderFailOnNewColumns() throws Exception {
        String topic = KAFKA.newTopic("evolve", 1);
        int v1 = register(topic + "-value", null, V1);
        int v2 = register(topic + "-value", null, V2);
        KAFKA.inTransaction(p -> {
            try {
                p.send(new ProducerRecord<>(topic, 0, null, framed(v1, new byte[0], avro(V1, 1, "a"))));
                p.send(new ProducerRecord<>(topic, 0, null, framed(v2, new byte[0], avro(V2, 2, "b", "b@example.com"))));
                p.send(new ProducerRecord<>(topic, 0, null, framed(v1, new byte[0], avro(V1, 3, "c"))));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });

        assertThatThrownBy(() -> land(topic, Map.of("format", "avro", "avroSchema", V1, "schemaEvolution", "failOnNewColumns")))
                .isInstanceOf(TributaryException.class)
                .hasMessageContaining("topic " + topic + " partition 0 offset 1: its schema id " + v2 + " in the registry " + url
                        + " has fields the source's schema lacks: email; source.kafka.schemaEvolution is failOnNewColumns");
        assertThat(DeltaTables.schema(table()).isEmpty() || DeltaTables.readRows(table()).isEmpty()).as("nothing of the refused batch")
                .isTrue();

        land(topic, Map.of("format", "avro", "avroSchema", V1, "schemaEvolution", "addNewColumns"));

        assertThat(DeltaTables.schema(table()).orElseThrow().toDdl()).isEqualTo("id INT, name STRING, email STRING");
        assertThat(rows()).extracting(r -> r[0] + ":" + r[1] + ":" + r[2]).containsExactly("1:a:null", "2:b:b@example.com", "3:c:null");
    }

    @Test
    void aRegistryRequiringBasicAuthRefusesAWrongPasswordNamingTheCredentialsSetting() throws Exception {
        String topic = KAFKA.newTopic("auth", 1);
        register(topic + "-value", null, V1);

        assertThatThrownBy(() -> land(topic, Map.of("format", "avro", "schemaRegistry.basic.auth.user.info", "tributary:n0tIt")))
                .isInstanceOf(TributaryException.class)
                .hasMessageStartingWith("the schema registry refused GET " + url + "/subjects/" + topic + "-value/versions/latest: HTTP 401")
                .hasMessageEndingWith("; give its credentials as source.kafka.schemaRegistry.basic.auth.user.info (user:password)")
                .hasMessageNotContaining("n0tIt")
                .hasMessageNotContaining("\n");
    }

    private static final String ORDER_PROTO = """
            syntax = "proto3";
            package shop;

            import "google/protobuf/timestamp.proto";

            message Order {
              int32 id = 1;
              string name = 2;
              google.protobuf.Timestamp ts = 3;
              message Note {
                string text = 1;
              }
            }

            message Line {
              string sku = 1;
            }
            """;

    @Test
    void protobufFromTheRegistryAloneItsMessageIndexesNamingTheMessageOfEachValue() throws Exception {
        String topic = KAFKA.newTopic("protoonly", 1);
        int id = register(topic + "-value", "PROTOBUF", ORDER_PROTO);
        // the same messages, as protoc would describe them, to write the values with protobuf-java
        FileDescriptorProto proto = FileDescriptorProto.newBuilder().setName("shop/order.proto").setPackage("shop").setSyntax("proto3")
                .addDependency("google/protobuf/timestamp.proto")
                .addMessageType(DescriptorProto.newBuilder().setName("Order")
                        .addField(FieldDescriptorProto.newBuilder().setName("id").setNumber(1).setType(FieldDescriptorProto.Type.TYPE_INT32))
                        .addField(FieldDescriptorProto.newBuilder().setName("name").setNumber(2).setType(FieldDescriptorProto.Type.TYPE_STRING))
                        .addField(FieldDescriptorProto.newBuilder().setName("ts").setNumber(3).setType(FieldDescriptorProto.Type.TYPE_MESSAGE)
                                .setTypeName(".google.protobuf.Timestamp")))
                .addMessageType(DescriptorProto.newBuilder().setName("Line")
                        .addField(FieldDescriptorProto.newBuilder().setName("sku").setNumber(1).setType(FieldDescriptorProto.Type.TYPE_STRING)))
                .build();
        FileDescriptor file = FileDescriptor.buildFrom(proto, new FileDescriptor[] {com.google.protobuf.Timestamp.getDescriptor().getFile()});
        Descriptor order = file.findMessageTypeByName("Order");
        Descriptor line = file.findMessageTypeByName("Line");
        byte[] first = DynamicMessage.newBuilder(order).setField(order.findFieldByName("id"), 1).setField(order.findFieldByName("name"), "a")
                .setField(order.findFieldByName("ts"), com.google.protobuf.Timestamp.newBuilder().setSeconds(1_700_000_000L).build())
                .build().toByteArray();
        byte[] second = DynamicMessage.newBuilder(order).setField(order.findFieldByName("id"), 2).setField(order.findFieldByName("name"), "b")
                .build().toByteArray();
        byte[] aLine = DynamicMessage.newBuilder(line).setField(line.findFieldByName("sku"), "x").build().toByteArray();
        KAFKA.inTransaction(p -> {
            p.send(new ProducerRecord<>(topic, 0, null, framed(id, new byte[] {0}, first))); // [0], written as Confluent's 0 count
            p.send(new ProducerRecord<>(topic, 0, null, framed(id, new byte[] {2, 2}, aLine))); // [1]: Line
            p.send(new ProducerRecord<>(topic, 0, null, framed(id, new byte[] {2, 0}, second))); // [0] written out
            p.send(new ProducerRecord<>(topic, 0, null, framed(id, new byte[] {4, 0, 0}, aLine))); // [0, 0]: Order.Note
        });

        land(topic, Map.of("format", "protobuf")); // no descriptor file, no message: the subject's latest, its first message

        assertThat(DeltaTables.schema(table()).orElseThrow().toDdl()).isEqualTo("id INT, name STRING, ts TIMESTAMP");
        assertThat(rows()).extracting(r -> r[0] + ":" + r[1] + ":" + r[2]).containsExactly("1:a:1700000000000000", "2:b:null");
        String where = "schema id " + id + " in the schema registry " + url + " names message ";
        assertThat(deadLetterReasons(topic)).containsExactly(
                "1: " + where + "shop.Line at message indexes [1], not the source's shop.Order",
                "3: " + where + "shop.Order.Note at message indexes [0, 0], not the source's shop.Order");
    }

    /** shop/order.proto as protoc describes it: message Order { int32 id = 1; string name = 2; }. */
    private static FileDescriptorProto orderProto() {
        return FileDescriptorProto.newBuilder().setName("shop/order.proto").setPackage("shop").setSyntax("proto3")
                .addMessageType(DescriptorProto.newBuilder().setName("Order")
                        .addField(FieldDescriptorProto.newBuilder().setName("id").setNumber(1).setType(FieldDescriptorProto.Type.TYPE_INT32))
                        .addField(FieldDescriptorProto.newBuilder().setName("name").setNumber(2)
                                .setType(FieldDescriptorProto.Type.TYPE_STRING))).build();
    }

    @Test
    void protobufValuesThroughTheRegistryAndAnAvroSchemaIdRefusedAsABadRecord() throws Exception {
        String topic = KAFKA.newTopic("protoreg", 1);
        int id = register(topic + "-value", "PROTOBUF", "syntax = \"proto3\";\npackage shop;\n\nmessage Order {\n  int32 id = 1;\n"
                + "  string name = 2;\n}\n");
        int avroId = register(topic + "-other", null, V1);
        Descriptor order = FileDescriptor.buildFrom(orderProto(), new FileDescriptor[0]).findMessageTypeByName("Order");
        Path desc = dir.resolve("order.desc");
        Files.write(desc, FileDescriptorSet.newBuilder().addFile(orderProto()).build().toByteArray());
        byte[] first = DynamicMessage.newBuilder(order).setField(order.findFieldByName("id"), 1)
                .setField(order.findFieldByName("name"), "a").build().toByteArray();
        byte[] second = DynamicMessage.newBuilder(order).setField(order.findFieldByName("id"), 2)
                .setField(order.findFieldByName("name"), "b").build().toByteArray();
        KAFKA.inTransaction(p -> {
            p.send(new ProducerRecord<>(topic, 0, null, framed(id, new byte[] {0}, first)));
            p.send(new ProducerRecord<>(topic, 0, null, framed(avroId, new byte[] {0}, first)));
            p.send(new ProducerRecord<>(topic, 0, null, framed(id, new byte[] {0}, second)));
        });

        land(topic, Map.of("format", "protobuf", "protobufDescriptorFile", desc.toString(), "protobufMessage", "shop.Order"));

        assertThat(rows()).extracting(r -> r[0] + ":" + r[1]).containsExactly("1:a", "2:b");
        assertThat(deadLetterReasons(topic)).containsExactly("1: schema id " + avroId + " in the schema registry " + url
                + " is a AVRO schema, not Protobuf");
    }
}
