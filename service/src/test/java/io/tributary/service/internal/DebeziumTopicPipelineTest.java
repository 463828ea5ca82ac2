package io.tributary.service.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.service.spec.PipelineSpec;
import io.tributary.sink.DeltaTables;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A pipeline spec reading a topic of Debezium's PostgreSQL change events ({@code source.kafka.format:
 * debezium-json}) into an upsert table, run as a user runs it (availableNow, twice, on the embedded
 * broker): creates, an update, a delete with its tombstone, then changes older than the table's.
 */
@Tag("integration")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class DebeziumTopicPipelineTest {
    private static final String TOPIC = "PostgreSQL_server.public.customers";

    @TempDir
    Path dir;

    private static String event(String op, String before, String after, long lsn) {
        return "{\"before\":" + before + ",\"after\":" + after + ",\"source\":{\"version\":\"2.7.3.Final\",\"connector\":\"postgresql\","
                + "\"name\":\"PostgreSQL_server\",\"ts_ms\":1559033904863,\"snapshot\":\"false\",\"db\":\"postgres\",\"schema\":\"public\","
                + "\"table\":\"customers\",\"txId\":556,\"lsn\":" + lsn + ",\"xmin\":null},\"op\":\"" + op + "\",\"ts_ms\":1559033904863}";
    }

    private static String customer(int id, String first) {
        return "{\"id\":" + id + ",\"first_name\":\"" + first + "\"}";
    }

    private void run(PipelineSpec spec, String... values) throws Exception {
        try (Pipeline pipeline = Pipeline.open(spec, RunOptions.DEFAULT)) {
            TopicAdmin.ensure(pipeline.clientProps(), 1, java.util.Optional.empty(), TOPIC);
            Map<String, Object> props = new HashMap<>(pipeline.clientProps());
            props.keySet().removeIf(k -> k.startsWith("group.") || k.startsWith("isolation.") || k.startsWith("auto.")
                    || k.startsWith("enable.auto"));
            try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
                for (String v : values) {
                    producer.send(new ProducerRecord<>(TOPIC, 0, "{\"id\":2}".getBytes(StandardCharsets.UTF_8),
                            v == null ? null : v.getBytes(StandardCharsets.UTF_8))).get();
                }
            }
            pipeline.run(spec.trigger(), p -> { });
        }
    }

    private Map<Integer, String> table() {
        Map<Integer, String> out = new TreeMap<>();
        for (Object[] r : DeltaTables.readRows(dir.resolve("silver").toString())) {
            out.put((Integer) r[0], r[1] + "@" + r[2]);
        }
        return out;
    }

    @Test
    void aDebeziumTopicKeepsTheTableAtTheLatestChangeOfEachKey() throws Exception {
        Path f = dir.resolve("pipeline.yaml");
        Files.writeString(f, """
                name: customers
                source:
                  kafka:
                    topics: [PostgreSQL_server.public.customers]
                    format: debezium-json
                    schema: "id INT, first_name STRING"
                sink:
                  delta:
                    path: silver/
                    mode: upsert
                    keys: [id]
                    sequenceBy: lsn
                    deleteWhen: "op = 'd'"
                    exceptColumns: [op]
                trigger: availableNow
                """);
        PipelineSpec spec = PipelineSpec.load(f, Map.of(), Map.of());

        run(spec, event("r", "null", customer(1, "Anne"), 100), event("c", "null", customer(2, "Sally"), 200),
                event("u", "null", customer(1, "Anne Marie"), 300), event("d", "{\"id\":2}", "null", 400), null);
        assertThat(table()).containsExactly(Map.entry(1, "Anne Marie@300"));
        assertThat(DeltaTables.schema(dir.resolve("silver").toString()).orElseThrow().toDdl())
                .isEqualTo("id INT, first_name STRING, lsn BIGINT");

        run(spec, event("u", "null", customer(1, "Anne old"), 250), event("u", "null", customer(2, "Sally ghost"), 350),
                event("c", "null", customer(3, "Edward"), 500));
        assertThat(table()).containsExactly(Map.entry(1, "Anne Marie@300"), Map.entry(3, "Edward@500"));
    }
}
