package io.tributary.tests;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.schema.Field;
import io.tributary.sink.DeltaTables;
import io.tributary.testing.CommittedRecords;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A topic of Avro values landed by {@code bin/tributary} with {@code format: avro} and the schema
 * in a file beside the spec (Spark's {@code from_avro}); the settings of the binary formats that
 * contradict one another refused in one line naming the keys.
 */
@Tag("integration")
@Tag("scenarios")
@Timeout(300)
class KafkaSourceAvroScenarioTest {
    private static final String SCHEMA = "{\"type\": \"record\", \"name\": \"Order\", \"fields\": ["
            + "{\"name\": \"id\", \"type\": \"int\"}, {\"name\": \"user\", \"type\": [\"null\", \"string\"], \"default\": null},"
            + " {\"name\": \"ts\", \"type\": {\"type\": \"long\", \"logicalType\": \"timestamp-millis\"}}]}";
    @TempDir
    Path dir;
    private SourceTopics kafka;

    @BeforeEach
    void start() throws Exception {
        kafka = new SourceTopics(dir);
        kafka.create("orders", 1);
    }

    @AfterEach
    void stop() {
        kafka.close();
    }

    private String spec(String source) {
        return "name: orders\nsource:\n  kafka:\n    topics: [orders]\n" + source + "sink:\n  delta:\n    path: out/\n"
                + "kafka:\n  bootstrap.servers: \"" + kafka.broker.bootstrapServers() + "\"\n";
    }

    private static byte[] order(Schema schema, int id, String user, long ts) throws Exception {
        GenericRecord r = new GenericData.Record(schema);
        r.put("id", id);
        r.put("user", user);
        r.put("ts", ts);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder e = EncoderFactory.get().binaryEncoder(out, null);
        new GenericDatumWriter<GenericRecord>(schema).write(r, e);
        e.flush();
        return out.toByteArray();
    }

    @Test
    void avroValuesWithTheSchemaInAFileLandAsTheirFieldsColumns() throws Exception {
        Schema schema = new Schema.Parser().parse(SCHEMA);
        Files.createDirectories(dir.resolve("schemas"));
        Files.writeString(dir.resolve("schemas/order.avsc"), SCHEMA);
        kafka.produceBytes("orders", 0, order(schema, 1, "a", 1_700_000_000_000L), "garbage".getBytes(StandardCharsets.UTF_8),
                order(schema, 2, null, 1_700_000_001_000L));

        Workspace.Result r = new Workspace(dir, spec("    format: avro\n    avroSchemaFile: schemas/order.avsc\n"))
                .tributary("run", "--trigger", "availableNow");

        r.assertOk();
        assertThat(DeltaTables.schema(dir.resolve("out").toString()).orElseThrow().fields()).extracting(Field::name)
                .containsExactly("id", "user", "ts");
        List<Object[]> rows = DeltaTables.readRows(dir.resolve("out").toString()).stream()
                .sorted(Comparator.comparing(row -> (Integer) row[0])).toList();
        assertThat(rows).hasSize(2);
        assertThat(rows.get(0)).containsExactly(1, "a", 1_700_000_000_000_000L);
        assertThat(rows.get(1)).containsExactly(2, null, 1_700_000_001_000_000L);
        List<String> dead = CommittedRecords.read(kafka.client(), "tributary.orders.deadletter").stream()
                .map(d -> new String(d.value(), StandardCharsets.UTF_8)).toList();
        assertThat(dead).hasSize(1);
        assertThat(dead.get(0)).contains("\"topic\":\"orders\",\"partition\":0,\"offset\":1,")
                .contains("the value does not decode as Avro");
    }

    @Test
    void avroWithoutItsSchemaIsRefusedNamingTheKeysThatGiveIt() {
        Workspace.Result r = new Workspace(dir, spec("    format: avro\n")).tributary("run", "--trigger", "availableNow");
        assertThat(r.exitCode()).isNotZero();
        assertThat(r.err()).contains("format avro needs source.kafka.avroSchema, source.kafka.avroSchemaFile or"
                + " source.kafka.schemaRegistry.url");
    }

    @Test
    void anAvroSchemaWithFormatJsonIsRefusedNamingBothKeys() {
        Workspace.Result r = new Workspace(dir, spec("    schema: \"id INT\"\n    avroSchema: '" + SCHEMA + "'\n"))
                .tributary("run", "--trigger", "availableNow");
        assertThat(r.exitCode()).isNotZero();
        assertThat(r.err()).contains("keys 'source.kafka.format' and 'source.kafka.avroSchema' are both given; format json does"
                + " not read Avro values");
    }

    @Test
    void protobufWithoutItsMessageIsRefused() throws Exception {
        Files.write(dir.resolve("orders.desc"), new byte[0]);
        Workspace.Result r = new Workspace(dir, spec("    format: protobuf\n    protobufDescriptorFile: orders.desc\n"))
                .tributary("run", "--trigger", "availableNow");
        assertThat(r.exitCode()).isNotZero();
        assertThat(r.err()).contains("format protobuf needs source.kafka.protobufMessage");
    }
}
