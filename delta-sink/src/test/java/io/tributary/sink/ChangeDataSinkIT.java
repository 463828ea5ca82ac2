package io.tributary.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.schema.Progress;
import io.tributary.schema.RowJson;
import io.tributary.schema.Schema;
import io.tributary.settings.Values;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Change data (sequenceBy, deleteWhen, exceptColumns) through the sink: a real broker, real tables, sinks restarted. */
@Tag("integration")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class ChangeDataSinkIT {
    private static final Schema SCHEMA = Schema.parse("op STRING, id INT, name STRING, lsn BIGINT");
    private static final RowJson ROWS = new RowJson(SCHEMA);

    @RegisterExtension
    static final TestKafka KAFKA = new TestKafka();

    @TempDir
    Path dir;

    private void publish(String topic, int partitions, Object[]... changes) {
        KAFKA.inTransaction(producer -> {
            for (Object[] change : changes) {
                int id = (Integer) change[1];
                producer.send(new ProducerRecord<>(topic, Math.floorMod(id, partitions), ("[" + id + "]").getBytes(StandardCharsets.UTF_8),
                        ROWS.write(change)));
            }
        });
    }

    private static Object[] c(String op, int id, String name, long lsn) {
        return new Object[] {op, id, name, lsn};
    }

    private SinkConfig config(String topic) {
        Map<String, String> spec = new HashMap<>(Map.of("mode", "upsert", "keys", "id", "sequenceBy", "lsn",
                "deleteWhen", "op = 'd'", "exceptColumns", "op"));
        Map<String, String> keyed = new HashMap<>();
        spec.forEach((k, v) -> keyed.put("sink.delta." + k, v));
        Values values = Values.localized(SinkSettings.ALL, s -> s.under("sink.delta"), keyed::get, (s, text, e) -> e);
        return SinkConfig.builder(dir.resolve("t").toString(), SCHEMA, topic, "tributary-cdc-sink", "cdc/sink").settings(values).build();
    }

    private Map<Integer, String> rows() {
        Map<Integer, String> out = new TreeMap<>();
        for (Object[] r : DeltaTables.readRows(dir.resolve("t").toString())) {
            assertThat(r).hasSize(3); // id, name, lsn: op is not stored
            out.put((Integer) r[0], r[1] + "@" + r[2]);
        }
        return out;
    }

    /** One partition: the batch collapses while it is read; two: the whole batch, in record-time order. */
    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void deletesAndLateChangesFollowTheSequenceAcrossBatchesAndRestarts(int partitions) throws Exception {
        String topic = KAFKA.newTopic("cdc", partitions);
        publish(topic, partitions, c("i", 1, "a", 10), c("i", 2, "b", 11), c("u", 1, "a2", 13), c("i", 3, "c", 12),
                c("u", 1, "a1", 12), c("d", 4, null, 20));
        try (DeltaSink sink = new DeltaSink(config(topic), KAFKA.client())) {
            Progress p = sink.runBatch().orElseThrow();
            assertThat(p.sink().metrics()).containsEntry("numTargetRowsInserted", 3L).containsEntry("numDeleteMarkers", 1L);
        }
        assertThat(rows()).containsExactly(Map.entry(1, "a2@13"), Map.entry(2, "b@11"), Map.entry(3, "c@12"));

        publish(topic, partitions, c("d", 2, null, 15), c("u", 1, "a-late", 11), c("i", 4, "d-late", 19), c("u", 3, "c2", 14));
        try (DeltaSink sink = new DeltaSink(config(topic), KAFKA.client())) { // a new sink reads the markers from the table
            Progress p = sink.runBatch().orElseThrow();
            assertThat(p.sink().metrics()).containsEntry("numSourceKeysSkippedOutOfOrder", 2L).containsEntry("numTargetRowsDeleted", 1L)
                    .containsEntry("numTargetRowsUpdated", 1L).containsEntry("numDeleteMarkers", 2L);
            publish(topic, partitions, c("u", 2, "b-late", 14), c("i", 2, "b-again", 16), c("i", 4, "d-again", 21));
            p = sink.runBatch().orElseThrow();
            assertThat(p.sink().metrics()).containsEntry("numTargetRowsInserted", 2L).containsEntry("numDeleteMarkers", 0L);
        }
        assertThat(rows()).containsExactly(Map.entry(1, "a2@13"), Map.entry(2, "b-again@16"), Map.entry(3, "c2@14"),
                Map.entry(4, "d-again@21"));
    }
}
