package io.tributary.sink;

import io.tributary.kafka.KafkaSubscription;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.kafka.KafkaSourceSettings;
import io.tributary.schema.Field;
import io.tributary.schema.TributaryException;
import io.tributary.settings.Values;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.avro.Conversions;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A topic of Avro values (Apache Avro's own encoder) landed in a Delta table as Spark's
 * {@code from_avro(value, jsonFormatSchema)} reads them: every Avro type in its Spark column type,
 * nullable unions, logical types, a value that is not Avro sent to the dead-letter topic naming its
 * topic, partition and offset; the schema given in the spec or in a file.
 */
@Tag("integration")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class KafkaSourceAvroIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Every Avro type the table's columns hold, each as Spark's SchemaConverters types it. */
    static final String SCHEMA = """
            {"type": "record", "name": "Order", "namespace": "shop", "fields": [
              {"name": "flag", "type": "boolean"},
              {"name": "i", "type": "int"},
              {"name": "l", "type": "long"},
              {"name": "f", "type": "float"},
              {"name": "d", "type": "double"},
              {"name": "s", "type": "string"},
              {"name": "b", "type": "bytes"},
              {"name": "color", "type": {"type": "enum", "name": "Color", "symbols": ["RED", "GREEN"]}},
              {"name": "fx", "type": {"type": "fixed", "name": "Four", "size": 4}},
              {"name": "day", "type": {"type": "int", "logicalType": "date"}},
              {"name": "tsMillis", "type": {"type": "long", "logicalType": "timestamp-millis"}},
              {"name": "tsMicros", "type": {"type": "long", "logicalType": "timestamp-micros"}},
              {"name": "local", "type": {"type": "long", "logicalType": "local-timestamp-micros"}},
              {"name": "amount", "type": {"type": "bytes", "logicalType": "decimal", "precision": 10, "scale": 2}},
              {"name": "big", "type": {"type": "fixed", "name": "Dec", "size": 8, "logicalType": "decimal", "precision": 18, "scale": 3}},
              {"name": "maybe", "type": ["null", "string"], "default": null},
              {"name": "wide", "type": ["int", "long"]},
              {"name": "either", "type": ["null", "string", "int"], "default": null},
              {"name": "address", "type": {"type": "record", "name": "Address", "fields": [
                {"name": "city", "type": "string"}, {"name": "zip", "type": ["null", "int"], "default": null}]}},
              {"name": "tags", "type": {"type": "array", "items": "string"}},
              {"name": "counts", "type": {"type": "map", "values": "long"}},
              {"name": "lines", "type": {"type": "array", "items": {"type": "record", "name": "Line", "fields": [
                {"name": "sku", "type": "string"}, {"name": "qty", "type": "int"}]}}}
            ]}""";
    static final String DDL = "flag BOOLEAN, i INT, l BIGINT, f FLOAT, d DOUBLE, s STRING, b BINARY, color STRING, fx BINARY,"
            + " day DATE, tsMillis TIMESTAMP, tsMicros TIMESTAMP, local TIMESTAMP_NTZ, amount DECIMAL(10,2), big DECIMAL(18,3),"
            + " maybe STRING, wide BIGINT, either STRUCT<member0: STRING, member1: INT>, address STRUCT<city: STRING, zip: INT>,"
            + " tags ARRAY<STRING>, counts MAP<STRING, BIGINT>, lines ARRAY<STRUCT<sku: STRING, qty: INT>>";
    static final long MILLIS = 1_700_000_000_123L;
    static final long MICROS = 1_700_000_000_123_456L;

    @RegisterExtension
    static final TestKafka KAFKA = new TestKafka();

    @TempDir
    Path dir;

    static GenericRecord full(Schema schema) {
        GenericRecord r = new GenericData.Record(schema);
        r.put("flag", true);
        r.put("i", 7);
        r.put("l", 8_000_000_000L);
        r.put("f", 1.5f);
        r.put("d", 2.25);
        r.put("s", "héllo");
        r.put("b", ByteBuffer.wrap(new byte[] {1, 2, 3}));
        r.put("color", new GenericData.EnumSymbol(schema.getField("color").schema(), "GREEN"));
        r.put("fx", new GenericData.Fixed(schema.getField("fx").schema(), new byte[] {9, 8, 7, 6}));
        r.put("day", (int) LocalDate.of(2024, 2, 29).toEpochDay());
        r.put("tsMillis", MILLIS);
        r.put("tsMicros", MICROS);
        r.put("local", MICROS);
        Conversions.DecimalConversion decimals = new Conversions.DecimalConversion();
        Schema amount = schema.getField("amount").schema();
        r.put("amount", decimals.toBytes(new BigDecimal("12345.67"), amount, LogicalTypes.decimal(10, 2)));
        Schema big = schema.getField("big").schema();
        r.put("big", decimals.toFixed(new BigDecimal("-123456789012.345"), big, LogicalTypes.decimal(18, 3)));
        r.put("maybe", "here");
        r.put("wide", 5); // the int branch, read as BIGINT
        r.put("either", 42); // the int branch: member1
        GenericRecord address = new GenericData.Record(schema.getField("address").schema());
        address.put("city", "Oslo");
        address.put("zip", 150);
        r.put("address", address);
        r.put("tags", List.of("a", "b"));
        Map<String, Long> counts = new LinkedHashMap<>();
        counts.put("x", 1L);
        counts.put("y", 2L);
        r.put("counts", counts);
        Schema line = schema.getField("lines").schema().getElementType();
        GenericRecord l1 = new GenericData.Record(line);
        l1.put("sku", "s1");
        l1.put("qty", 3);
        r.put("lines", List.of(l1));
        return r;
    }

    /** {@link #full} with every nullable field null and empty collections. */
    static GenericRecord sparse(Schema schema) {
        GenericRecord r = full(schema);
        r.put("i", 8);
        r.put("maybe", null);
        r.put("wide", 9_000_000_000L);
        r.put("either", "text"); // the string branch: member0
        ((GenericRecord) r.get("address")).put("zip", null);
        r.put("tags", List.of());
        r.put("counts", Map.of());
        r.put("lines", List.of());
        return r;
    }

    static byte[] avro(GenericRecord r) {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            BinaryEncoder e = EncoderFactory.get().binaryEncoder(out, null);
            new GenericDatumWriter<GenericRecord>(r.getSchema()).write(r, e);
            e.flush();
            return out.toByteArray();
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private String table() {
        return dir.resolve("t").toString();
    }

    private void land(String topic, Map<String, String> settings) {
        Map<String, String> all = new HashMap<>(settings);
        all.put("topics", topic);
        all.put("format", "avro");
        KafkaSubscription subscription = KafkaSubscription.of(Values.of(KafkaSourceSettings.ALL, all));
        SinkConfig config = SinkConfig.builder(table(), subscription.rowSchema(), subscription.description(), "avro-sink", "avro/sink")
                .badRecords(SinkBadRecords.forName("deadLetter", topic + ".deadletter")).build();
        try (DeltaSink sink = DeltaSink.builder(config, KAFKA.client()).subscription(subscription).availableNow(true).build()) {
            assertThat(sink.runBatch()).isPresent();
        }
    }

    private List<Object[]> rowsByI() {
        List<Object[]> rows = new ArrayList<>(DeltaTables.readRows(table()));
        rows.sort(Comparator.comparing(r -> r[1] == null ? -1 : (Integer) r[1]));
        return rows;
    }

    @Test
    void everyAvroTypeLandsInItsSparkColumnTypeAndABadValueIsDeadLettered() throws Exception {
        Schema schema = new Schema.Parser().parse(SCHEMA);
        String topic = KAFKA.newTopic("avro", 1);
        KAFKA.inTransaction(p -> {
            p.send(new ProducerRecord<>(topic, 0, null, avro(full(schema))));
            p.send(new ProducerRecord<>(topic, 0, null, "not avro at all".getBytes(StandardCharsets.UTF_8)));
            p.send(new ProducerRecord<>(topic, 0, null, avro(sparse(schema))));
        });

        land(topic, Map.of("avroSchema", SCHEMA));

        assertThat(DeltaTables.schema(table()).orElseThrow().toDdl()).isEqualTo(io.tributary.schema.Schema.parse(DDL).toDdl());
        assertThat(DeltaTables.schema(table()).orElseThrow().fields()).allMatch(Field::nullable);
        List<Object[]> rows = rowsByI();
        assertThat(rows).hasSize(2);
        Object[] a = rows.get(0);
        assertThat(a[0]).isEqualTo(true);
        assertThat(a[1]).isEqualTo(7);
        assertThat(a[2]).isEqualTo(8_000_000_000L);
        assertThat(a[3]).isEqualTo(1.5f);
        assertThat(a[4]).isEqualTo(2.25);
        assertThat(a[5]).isEqualTo("héllo");
        assertThat((byte[]) a[6]).containsExactly(1, 2, 3);
        assertThat(a[7]).as("enum: its symbol").isEqualTo("GREEN");
        assertThat((byte[]) a[8]).as("fixed: binary").containsExactly(9, 8, 7, 6);
        assertThat(a[9]).as("date: days").isEqualTo((int) LocalDate.of(2024, 2, 29).toEpochDay());
        assertThat(a[10]).as("timestamp-millis, in microseconds").isEqualTo(MILLIS * 1000);
        assertThat(a[11]).isEqualTo(MICROS);
        assertThat(a[12]).as("local-timestamp-micros: TIMESTAMP_NTZ").isEqualTo(MICROS);
        assertThat(a[13]).isEqualTo(new BigDecimal("12345.67"));
        assertThat(a[14]).isEqualTo(new BigDecimal("-123456789012.345"));
        assertThat(a[15]).isEqualTo("here");
        assertThat(a[16]).as("the int branch of [int, long]").isEqualTo(5L);
        assertThat((Object[]) a[17]).as("[null, string, int]: member1 holds the int").containsExactly(null, 42);
        assertThat((Object[]) a[18]).containsExactly("Oslo", 150);
        assertThat(a[19]).isEqualTo(List.of("a", "b"));
        assertThat(a[20]).isEqualTo(Map.of("x", 1L, "y", 2L));
        assertThat((List<?>) a[21]).hasSize(1);
        assertThat((Object[]) ((List<?>) a[21]).get(0)).containsExactly("s1", 3);

        Object[] b = rows.get(1);
        assertThat(b[15]).as("a null in [null, string]").isNull();
        assertThat(b[16]).isEqualTo(9_000_000_000L);
        assertThat((Object[]) b[17]).containsExactly("text", null);
        assertThat((Object[]) b[18]).containsExactly("Oslo", null);
        assertThat((List<?>) b[19]).isEmpty();

        List<ConsumerRecord<byte[], byte[]>> letters = TopicTail.records(KAFKA.client(), topic + ".deadletter", Map.of());
        assertThat(letters).hasSize(1);
        JsonNode letter = JSON.readTree(letters.get(0).value());
        assertThat(letter.path("topic").asText()).isEqualTo(topic);
        assertThat(letter.path("partition").asInt()).isZero();
        assertThat(letter.path("offset").asLong()).isEqualTo(1);
        assertThat(letter.path("reason").asText()).startsWith("the value does not decode as Avro of the source's schema");
        assertThat(new String(java.util.Base64.getDecoder().decode(letter.path("valueBase64").asText()), StandardCharsets.UTF_8))
                .isEqualTo("not avro at all");
    }

    @Test
    void theSchemaFromAFileAndANullValueAsARowOfNulls() throws Exception {
        Schema schema = new Schema.Parser().parse(SCHEMA);
        Path file = dir.resolve("order.avsc");
        Files.writeString(file, SCHEMA);
        String topic = KAFKA.newTopic("avrofile", 1);
        KAFKA.inTransaction(p -> {
            p.send(new ProducerRecord<>(topic, 0, null, avro(full(schema))));
            p.send(new ProducerRecord<>(topic, 0, "k".getBytes(StandardCharsets.UTF_8), null));
        });

        land(topic, Map.of("avroSchemaFile", file.toString()));

        List<Object[]> rows = rowsByI();
        assertThat(rows).hasSize(2);
        assertThat(rows.get(0)).as("Spark's from_avro of a null value: null").containsOnlyNulls();
        assertThat(rows.get(1)[5]).isEqualTo("héllo");
    }

    @Test
    void aSchemaThatIsNotAvroOrThatHidesAKafkaColumnIsRefused() {
        assertThatThrownBy(() -> land("t", Map.of("avroSchema", "{\"type\": \"record\", \"name\": \"R\"}")))
                .isInstanceOf(TributaryException.class).hasMessageContaining("not an Avro schema");
        assertThatThrownBy(() -> land("t", Map.of("avroSchema", "{\"type\": \"record\", \"name\": \"R\", \"fields\": [{\"name\": \"n\","
                + " \"type\": \"null\"}]}"))).isInstanceOf(TributaryException.class).hasMessageContaining("field n is type null");
        assertThatThrownBy(() -> land("t", Map.of("includeMetadata", "true", "avroSchema", "{\"type\": \"record\", \"name\": \"R\","
                + " \"fields\": [{\"name\": \"offset\", \"type\": \"long\"}]}"))).isInstanceOf(TributaryException.class)
                .hasMessageContaining("the values' column offset is also one of the Kafka columns");
    }
}
