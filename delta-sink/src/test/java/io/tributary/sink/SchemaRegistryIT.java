package io.tributary.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
import io.tributary.testing.ChildProcess;
import java.io.ByteArrayOutputStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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
 * started here as a child process. The schemas are registered as a producer's serializer registers
 * them; the values are Apache Avro's and protobuf-java's own encodings behind the 5-byte header.
 * Runs with {@code -Pregistry} (delta-sink's profile unpacks the registry; it needs Java 21 or
 * later, {@code -Dapicurio.java}); skipped, saying so, without it.
 */
@Tag("integration")
@Tag("registry")
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class SchemaRegistryIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final String V1 = "{\"type\": \"record\", \"name\": \"Order\", \"fields\": [{\"name\": \"id\", \"type\": \"int\"},"
            + " {\"name\": \"name\", \"type\": \"string\"}]}";
    /** V1 and a field with a default: Avro's resolution reads V2's values as V1. */
    private static final String V2 = "{\"type\": \"record\", \"name\": \"Order\", \"fields\": [{\"name\": \"id\", \"type\": \"int\"},"
            + " {\"name\": \"name\", \"type\": \"string\"}, {\"name\": \"email\", \"type\": [\"null\", \"string\"], \"default\": null}]}";
    /** id a string: no resolution reads it as V1. */
    private static final String V3 = "{\"type\": \"record\", \"name\": \"Order\", \"fields\": [{\"name\": \"id\", \"type\": \"string\"},"
            + " {\"name\": \"name\", \"type\": \"string\"}]}";

    @RegisterExtension
    static final TestKafka KAFKA = new TestKafka();
    private static ChildProcess registry;
    private static String url;

    @TempDir
    Path dir;

    @BeforeAll
    static void startRegistry(@TempDir Path logs) throws Exception {
        String home = System.getProperty("apicurio.home");
        assumeTrue(home != null && Files.exists(Path.of(home, "quarkus-run.jar")),
                "no Apicurio Registry unpacked: run with -Pregistry (delta-sink's profile)");
        String java = System.getProperty("apicurio.java", "");
        assumeTrue(Files.isExecutable(Path.of(java)), "Apicurio Registry needs Java 21 or later: -Dapicurio.java=PATH (now '" + java + "')");
        int port = freePort();
        registry = ChildProcess.command(java, "-Dquarkus.http.host=127.0.0.1", "-Dquarkus.http.port=" + port,
                "-Dquarkus.management.host=127.0.0.1", "-Dquarkus.management.port=" + freePort(), "-jar", "quarkus-run.jar")
                .directory(Path.of(home))
                .log(logs.resolve("apicurio.log")).start();
        url = "http://127.0.0.1:" + port + "/apis/ccompat/v7";
        registry.awaitWhileAlive("Apicurio Registry answering " + url, Duration.ofMinutes(5), Duration.ofMillis(500),
                () -> get("/subjects") == 200);
    }

    private static int freePort() throws java.io.IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    @AfterAll
    static void stopRegistry() throws Exception {
        if (registry != null) {
            registry.close();
        }
    }

    private static int get(String path) {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create(url + path)).GET().build(), HttpResponse.BodyHandlers.discarding())
                    .statusCode();
        } catch (Exception e) {
            return -1;
        }
    }

    /** Registers {@code schema} under {@code subject}, as a serializer with auto.register.schemas does; its id. */
    private static int register(String subject, String type, String schema) throws Exception {
        ObjectNode body = JSON.createObjectNode().put("schema", schema);
        if (type != null) {
            body.put("schemaType", type);
        }
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(url + "/subjects/" + subject + "/versions"))
                .header("Content-Type", "application/vnd.schemaregistry.v1+json")
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body))).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return JSON.readTree(r.body()).path("id").asInt();
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
        KafkaSubscription subscription = KafkaSubscription.of(Values.of(KafkaSourceSettings.ALL, all));
        SinkConfig config = SinkConfig.builder(table(), subscription.rowSchema(), subscription.description(), "reg-sink", "reg/sink")
                .badRecords(SinkBadRecords.forName("deadLetter", topic + ".deadletter")).build();
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
