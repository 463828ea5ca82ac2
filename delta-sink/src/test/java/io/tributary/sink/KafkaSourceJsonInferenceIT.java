package io.tributary.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.kafka.JsonSchemaInference;
import io.tributary.kafka.KafkaSourceSettings;
import io.tributary.kafka.KafkaSubscription;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import io.tributary.settings.Values;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * JSON values on a Kafka source without a schema: the columns inferred from the records as the file
 * source infers JSON (sorted by name, numbers BIGINT or DOUBLE, arrays and structs), a value that is
 * no JSON object dead-lettered naming topic, partition and offset; records that bring new fields
 * after the run started grow the table under addNewColumns and stop the run under failOnNewColumns;
 * a later run reads by the table's columns. Under rescue, fields the schema lacks and values their
 * column cannot take go to {@code _rescued_data} as the file source writes it, with topic, partition
 * and offset.
 */
@Tag("integration")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class KafkaSourceJsonInferenceIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    static final TestKafka KAFKA = new TestKafka();

    @TempDir
    Path dir;

    private void publish(String topic, int partition, String... values) {
        KAFKA.inTransaction(p -> {
            for (String v : values) {
                p.send(new ProducerRecord<>(topic, partition, null, v.getBytes(StandardCharsets.UTF_8)));
            }
        });
    }

    private static KafkaSubscription subscription(String topic, Map<String, String> more) {
        Map<String, String> settings = new HashMap<>(more);
        settings.put("topics", topic);
        return KafkaSubscription.of(Values.of(KafkaSourceSettings.ALL, settings));
    }

    private DeltaSink sink(KafkaSubscription subscription, String topic) {
        Values sink = Values.localized(SinkSettings.ALL, s -> s.under("sink.delta"),
                Map.of("sink.delta.mergeSchema", "true")::get, (s, text, e) -> e);
        SinkConfig config = SinkConfig.builder(table(), subscription.rowSchema(), subscription.description(), "json-sink", "json/sink")
                .settings(sink).badRecords(SinkBadRecords.forName("deadLetter", topic + ".deadletter")).build();
        return DeltaSink.builder(config, KAFKA.client()).subscription(subscription).availableNow(false).build();
    }

    private String table() {
        return dir.resolve("t").toString();
    }

    /** The subscription as a run starts it: the schema inferred from the records, and the table's columns once it exists. */
    private KafkaSubscription started(String topic, Map<String, String> more) {
        KafkaSubscription s = subscription(topic, more);
        return s.withValueSchema(JsonSchemaInference.infer(s, KAFKA.client(), DeltaTables.schema(table()).orElse(null)));
    }

    private List<String> rows() {
        List<String> out = new ArrayList<>();
        for (Object[] r : DeltaTables.readRows(table())) {
            out.add(Arrays.deepToString(r));
        }
        out.sort(null);
        return out;
    }

    @Test
    void columnsInferredThenNewFieldsAddedToTheTable() throws Exception {
        String topic = KAFKA.newTopic("json-infer", 2);
        publish(topic, 0, "{\"id\":1,\"user\":\"ann\",\"amt\":1.5}", "{\"id\":2,\"user\":\"bob\",\"amt\":2,\"tags\":[\"x\",\"y\"]}");
        publish(topic, 1, "{\"id\":3,\"user\":\"cy\",\"amt\":3,\"addr\":{\"zip\":\"75001\"}}\n{\"id\":4,\"user\":null}", "not json");
        KafkaSubscription first = started(topic, Map.of("schemaEvolution", "addNewColumns"));
        // Spark's JSON inference: sorted by name, an integer and a fraction merge to DOUBLE, a struct, an array
        assertThat(first.valueSchema().toDdl())
                .isEqualTo(Schema.parse("addr STRUCT<zip: STRING>, amt DOUBLE, id BIGINT, tags ARRAY<STRING>, user STRING").toDdl());
        try (DeltaSink s = sink(first, topic)) {
            s.runBatch().orElseThrow();
            assertThat(rows()).containsExactly("[[75001], 3.0, 3, null, cy]", "[null, 1.5, 1, null, ann]",
                    "[null, 2.0, 2, [x, y], bob]", "[null, null, 4, null, null]");
            List<ConsumerRecord<byte[], byte[]>> letters = TopicTail.records(KAFKA.client(), topic + ".deadletter", Map.of());
            assertThat(letters).hasSize(1);
            JsonNode letter = JSON.readTree(letters.get(0).value());
            assertThat(letter.path("topic").asText()).isEqualTo(topic);
            assertThat(letter.path("partition").asInt()).isEqualTo(1);
            assertThat(letter.path("offset").asLong()).isEqualTo(1);
            assertThat(letter.path("text").asText()).isEqualTo("not json");

            // records with fields the schema lacks come while the sink runs: the table grows by them, in the order met
            publish(topic, 0, "{\"id\":5,\"user\":\"dee\",\"amt\":5.5,\"vip\":true,\"zip\":\"10115\"}", "{\"id\":6,\"user\":\"eve\"}");
            s.runBatch().orElseThrow();
        }
        String grown = "addr STRUCT<zip: STRING>, amt DOUBLE, id BIGINT, tags ARRAY<STRING>, user STRING, vip BOOLEAN, zip STRING";
        assertThat(DeltaTables.schema(table()).orElseThrow().toDdl()).isEqualTo(Schema.parse(grown).toDdl());
        assertThat(rows()).contains("[null, 5.5, 5, null, dee, true, 10115]", "[null, null, 6, null, eve, null, null]",
                "[null, 1.5, 1, null, ann, null, null]").hasSize(6);

        // a later run reads by the table's columns, in the table's order, whatever the records sampled
        KafkaSubscription second = started(topic, Map.of("schemaEvolution", "addNewColumns", "schemaInference.sampleSize.numRecords", "1"));
        assertThat(second.valueSchema().toDdl()).isEqualTo(Schema.parse(grown).toDdl());
        publish(topic, 1, "{\"id\":7,\"zip\":\"20095\"}");
        try (DeltaSink s = sink(second, topic)) {
            s.runBatch().orElseThrow();
        }
        assertThat(rows()).contains("[null, null, 7, null, null, null, 20095]").hasSize(7);
    }

    @Test
    void sampleSizeBoundsTheRecordsInferredFrom() throws Exception {
        String topic = KAFKA.newTopic("json-sample", 1);
        publish(topic, 0, "{\"b\":1}", "{\"a\":\"x\"}");
        KafkaSubscription s = subscription(topic, Map.of("schemaInference.sampleSize.numRecords", "1"));
        assertThat(JsonSchemaInference.infer(s, KAFKA.client()).toDdl()).isEqualTo(Schema.parse("b BIGINT").toDdl());
        String empty = KAFKA.newTopic("json-empty", 1);
        assertThatThrownBy(() -> JsonSchemaInference.infer(subscription(empty, Map.of()), KAFKA.client()))
                .isInstanceOf(TributaryException.class).hasMessageContaining("source.kafka.schema is not given")
                .hasMessageContaining(empty);
    }

    @Test
    void failOnNewColumnsStopsNamingTheRecordAndTheFields() throws Exception {
        String topic = KAFKA.newTopic("json-fail", 1);
        publish(topic, 0, "{\"id\":1,\"user\":\"ann\"}", "{\"id\":2,\"user\":\"bob\",\"vip\":true,\"zip\":\"1\"}");
        KafkaSubscription s = subscription(topic, Map.of("schema", "id BIGINT, user STRING", "schemaEvolution", "failOnNewColumns"));
        try (DeltaSink sink = sink(s, topic)) {
            assertThatThrownBy(sink::runBatch).isInstanceOf(TributaryException.class)
                    .hasMessageContaining("topic " + topic + " partition 0 offset 1").hasMessageContaining("[vip, zip]")
                    .hasMessageContaining("failOnNewColumns");
        }
        assertThat(DeltaTables.readRows(table()).size()).as("nothing of the batch is written").isZero();
    }

    @Test
    void rescueKeepsUnknownFieldsAndWrongTypesWithTopicPartitionAndOffset() throws Exception {
        String topic = KAFKA.newTopic("json-rescue", 2);
        publish(topic, 0, "{\"id\":1,\"user\":\"ann\"}", "{\"id\":\"two\",\"user\":\"bob\",\"extra\":{\"k\":[1, 2]}}");
        publish(topic, 1, "{\"id\":3,\"USER\":\"cy\",\"vip\":true}\n{\"id\":4,\"user\":\"dee\"}", "not json");
        KafkaSubscription s = subscription(topic, Map.of("schema", "id INT, user STRING", "schemaEvolution", "rescue"));
        assertThat(s.rowSchema().toDdl()).isEqualTo("id INT, user STRING, _rescued_data STRING");
        try (DeltaSink sink = sink(s, topic)) {
            sink.runBatch().orElseThrow();
        }
        assertThat(DeltaTables.schema(table()).orElseThrow().toDdl()).isEqualTo("id INT, user STRING, _rescued_data STRING");
        Map<Long, JsonNode> rescued = new java.util.TreeMap<>();
        List<String> plain = new ArrayList<>();
        for (Object[] r : DeltaTables.readRows(table())) {
            plain.add(r[0] + " " + r[1]);
            if (r[2] != null) {
                JsonNode j = JSON.readTree((String) r[2]);
                rescued.put(j.path("_partition").asLong() * 100 + j.path("_offset").asLong(), j);
            }
        }
        plain.sort(null);
        // the value "two" does not fit INT: its column is null and the text is rescued; USER is no column of that case
        assertThat(plain).containsExactly("1 ann", "3 null", "4 dee", "null bob");
        assertThat(rescued.values().stream().map(JsonNode::toString).toList()).containsExactly(
                "{\"id\":\"two\",\"extra\":{\"k\":[1,2]},\"_topic\":\"" + topic + "\",\"_partition\":0,\"_offset\":1}",
                "{\"USER\":\"cy\",\"vip\":true,\"_topic\":\"" + topic + "\",\"_partition\":1,\"_offset\":0}");
        // the exact JSON text of each field, as the file source keeps it
        assertThat(DeltaTables.readRows(table()).stream().map(r -> (String) r[2]).filter(java.util.Objects::nonNull))
                .anyMatch(t -> t.startsWith("{\"id\":\"two\",\"extra\":{\"k\":[1, 2]},"));
        // a value that is no JSON object is still a bad record
        List<ConsumerRecord<byte[], byte[]>> letters = TopicTail.records(KAFKA.client(), topic + ".deadletter", Map.of());
        assertThat(letters).hasSize(1);
        assertThat(JSON.readTree(letters.get(0).value()).path("text").asText()).isEqualTo("not json");
    }

    @Test
    void rescueIsRefusedForAvroNamingTheKey() {
        assertThatThrownBy(() -> subscription("t", Map.of("format", "avro", "avroSchema", "{\"type\":\"string\"}",
                "schemaEvolution", "rescue"))).isInstanceOf(TributaryException.class).hasMessageContaining("schemaEvolution")
                .hasMessageContaining("rescue applies to format json");
    }
}
