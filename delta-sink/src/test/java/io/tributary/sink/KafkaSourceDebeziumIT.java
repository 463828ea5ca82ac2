package io.tributary.sink;

import io.tributary.kafka.KafkaSubscription;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.kafka.KafkaSourceSettings;
import io.tributary.schema.Progress;
import io.tributary.schema.TributaryException;
import io.tributary.settings.Values;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A topic of Debezium's PostgreSQL change events (its documented envelope for the tutorial's
 * {@code customers} table, bare and under the JSON converter's schema wrapper) landed in an upsert
 * table by key, ordered by the events' {@code source.lsn}, deletes applied, tombstones skipped, a
 * value that is no event dead-lettered naming topic, partition and offset; a second run's late,
 * older changes neither overwrite a newer row nor bring a deleted one back.
 */
@Tag("integration")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class KafkaSourceDebeziumIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String DDL = "id INT, first_name STRING, last_name STRING, email STRING";
    /** The JSON converter's schema of the envelope (schemas.enable), as Debezium's PostgreSQL connector writes it. */
    private static final String WRAPPER_SCHEMA = """
            {"type":"struct","fields":[
              {"type":"struct","fields":[{"type":"int32","optional":false,"field":"id"},
                {"type":"string","optional":false,"field":"first_name"},{"type":"string","optional":false,"field":"last_name"},
                {"type":"string","optional":false,"field":"email"}],"optional":true,"name":"PostgreSQL_server.inventory.customers.Value","field":"before"},
              {"type":"struct","fields":[{"type":"int32","optional":false,"field":"id"},
                {"type":"string","optional":false,"field":"first_name"},{"type":"string","optional":false,"field":"last_name"},
                {"type":"string","optional":false,"field":"email"}],"optional":true,"name":"PostgreSQL_server.inventory.customers.Value","field":"after"},
              {"type":"struct","fields":[{"type":"string","optional":false,"field":"connector"},{"type":"int64","optional":true,"field":"lsn"}],
                "optional":false,"name":"io.debezium.connector.postgresql.Source","field":"source"},
              {"type":"string","optional":false,"field":"op"},{"type":"int64","optional":true,"field":"ts_ms"}],
             "optional":false,"name":"PostgreSQL_server.inventory.customers.Envelope"}""";

    @RegisterExtension
    static final TestKafka KAFKA = new TestKafka();

    @TempDir
    Path dir;

    private static String customer(int id, String first, String last, String email) {
        return "{\"id\":" + id + ",\"first_name\":\"" + first + "\",\"last_name\":\"" + last + "\",\"email\":\"" + email + "\"}";
    }

    /** Debezium's PostgreSQL envelope, as its documentation shows it (source trimmed to the fields read here and a few more). */
    private static String event(String op, String before, String after, long lsn) {
        return "{\"before\":" + before + ",\"after\":" + after + ",\"source\":{\"version\":\"2.7.3.Final\",\"connector\":\"postgresql\","
                + "\"name\":\"PostgreSQL_server\",\"ts_ms\":1559033904863,\"snapshot\":\"false\",\"db\":\"postgres\",\"schema\":\"public\","
                + "\"table\":\"customers\",\"txId\":556,\"lsn\":" + lsn + ",\"xmin\":null},\"op\":\"" + op + "\",\"ts_ms\":1559033904863}";
    }

    private static String wrapped(String event) {
        return "{\"schema\":" + WRAPPER_SCHEMA + ",\"payload\":" + event + "}";
    }

    private void publish(String topic, String... values) {
        KAFKA.inTransaction(p -> {
            for (String v : values) {
                p.send(new ProducerRecord<>(topic, 0, "{\"id\":0}".getBytes(StandardCharsets.UTF_8),
                        v == null ? null : v.getBytes(StandardCharsets.UTF_8)));
            }
        });
    }

    private Progress land(String topic) {
        KafkaSubscription subscription = KafkaSubscription.of(Values.of(KafkaSourceSettings.ALL,
                Map.of("topics", topic, "format", "debezium-json", "schema", DDL)));
        Map<String, String> keyed = new HashMap<>();
        Map.of("mode", "upsert", "keys", "id", "sequenceBy", "lsn", "deleteWhen", "op = 'd'", "exceptColumns", "op")
                .forEach((k, v) -> keyed.put("sink.delta." + k, v));
        Values sink = Values.localized(SinkSettings.ALL, s -> s.under("sink.delta"), keyed::get, (s, text, e) -> e);
        SinkConfig config = SinkConfig.builder(dir.resolve("t").toString(), subscription.rowSchema(), subscription.description(),
                "dbz-sink", "dbz/sink").settings(sink).badRecords(SinkBadRecords.forName("deadLetter", topic + ".deadletter")).build();
        try (DeltaSink s = DeltaSink.builder(config, KAFKA.client()).subscription(subscription).availableNow(true).build()) {
            return s.runBatch().orElseThrow();
        }
    }

    private Map<Integer, String> rows() {
        Map<Integer, String> out = new TreeMap<>();
        for (Object[] r : DeltaTables.readRows(dir.resolve("t").toString())) {
            assertThat(r).hasSize(5); // id, first_name, last_name, email, lsn: op is not stored
            out.put((Integer) r[0], r[1] + " " + r[2] + "@" + r[4]);
        }
        return out;
    }

    @Test
    void changeEventsUpsertAndDeleteByLsnAcrossTwoRuns() throws Exception {
        String topic = KAFKA.newTopic("dbserver1.public.customers", 1);
        publish(topic,
                event("r", "null", customer(1, "Anne", "Kretchmar", "annek@noanswer.org"), 24023128),
                wrapped(event("c", "null", customer(2, "Sally", "Thomas", "sally.thomas@acme.com"), 24023200)),
                event("u", customer(1, "Anne", "Kretchmar", "annek@noanswer.org"),
                        customer(1, "Anne Marie", "Kretchmar", "annek@noanswer.org"), 24023300),
                event("d", "{\"id\":2}", "null", 46523128), // REPLICA IDENTITY DEFAULT: the delete's before holds the key only
                null, // the tombstone Debezium writes after a delete
                event("c", "null", "null", 46523150)); // offset 5: a create without after, no event
        Progress first = land(topic);

        assertThat(rows()).containsExactly(Map.entry(1, "Anne Marie Kretchmar@24023300"));
        assertThat(first.sink().metrics()).containsEntry("numDeleteMarkers", 1L);
        List<ConsumerRecord<byte[], byte[]>> letters = TopicTail.records(KAFKA.client(), topic + ".deadletter", Map.of());
        assertThat(letters).hasSize(1);
        JsonNode letter = JSON.readTree(letters.get(0).value());
        assertThat(letter.path("topic").asText()).isEqualTo(topic);
        assertThat(letter.path("partition").asInt()).isZero();
        assertThat(letter.path("offset").asLong()).isEqualTo(5);
        assertThat(letter.path("reason").asText()).contains("after").contains("op is 'c'");

        publish(topic,
                wrapped(event("u", "null", customer(1, "Anne", "Old", "annek@noanswer.org"), 24023250)), // older than the row's 24023300
                event("u", "null", customer(2, "Sally", "Ghost", "sally.thomas@acme.com"), 46523000), // older than the delete
                wrapped(event("c", "null", customer(3, "Edward", "Walker", "ed@walker.com"), 46523300)),
                wrapped(null)); // the JSON converter's tombstone: a null payload
        Progress second = land(topic);

        assertThat(rows()).containsExactly(Map.entry(1, "Anne Marie Kretchmar@24023300"), Map.entry(3, "Edward Walker@46523300"));
        assertThat(second.sink().metrics()).containsEntry("numSourceKeysSkippedOutOfOrder", 2L);
    }

    @Test
    void aSchemaIsNeededAndTheSequenceGoesWithDebeziumOnly() {
        assertThatThrownBy(() -> KafkaSubscription.of(Values.of(KafkaSourceSettings.ALL, Map.of("topics", "t", "format", "debezium-json"))))
                .isInstanceOf(TributaryException.class).hasMessageContaining("schema").hasMessageContaining("debezium-json");
        assertThatThrownBy(() -> KafkaSubscription.of(Values.of(KafkaSourceSettings.ALL, Map.of("topics", "t", "format", "json",
                "schema", DDL, "debezium.sequence", "lsn")))).isInstanceOf(TributaryException.class)
                .hasMessageContaining("debezium.sequence").hasMessageContaining("the format is json");
        assertThat(KafkaSubscription.of(Values.of(KafkaSourceSettings.ALL, Map.of("topics", "t", "format", "debezium-json",
                "schema", DDL, "debezium.sequence", "file,pos,row"))).rowSchema().toDdl())
                .isEqualTo(io.tributary.schema.Schema.parse(DDL + ", op STRING, lsn STRING").toDdl());
    }
}
