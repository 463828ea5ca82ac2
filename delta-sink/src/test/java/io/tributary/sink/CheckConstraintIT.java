package io.tributary.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.schema.RowJson;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table with Spark's CHECK constraints ({@code ALTER TABLE t ADD CONSTRAINT amt_positive CHECK (amt > 0)}):
 * the sink checks each row before it writes the batch; a row that breaks one is set aside as
 * {@code onBadRecord} says, named with the constraint, and the other rows are committed. A
 * constraint added between batches applies from the next batch; one the sink cannot check stops
 * the batch at its start.
 */
@Tag("integration")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class CheckConstraintIT {
    private static final Schema SCHEMA = Schema.parse("id INT, user STRING, amt DOUBLE");
    private static final RowJson ROWS = new RowJson(SCHEMA);
    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    static final TestKafka KAFKA = new TestKafka();

    @TempDir
    Path dir;

    private String table() {
        return dir.resolve("t").toString();
    }

    private Path sparkTable(Map<String, String> constraints) {
        Map<String, String> props = new java.util.HashMap<>();
        constraints.forEach((k, v) -> props.put("delta.constraints." + k, v));
        return SparkCreatedTables.create(dir.resolve("t"), List.of("id integer", "user string", "amt double"),
                List.of(SparkCreatedTables.CHECK_CONSTRAINTS), props);
    }

    private static void publish(String topic, Object[]... rows) {
        KAFKA.inTransaction(producer -> {
            for (Object[] row : rows) {
                producer.send(new ProducerRecord<>(topic, 0, null, ROWS.write(row)));
            }
        });
    }

    private SinkConfig config(String topic, SinkBadRecords bad) {
        return SinkConfig.builder(table(), SCHEMA, topic, "check-sink", "check/sink").badRecords(bad).build();
    }

    private List<Object> ids() {
        List<Object> ids = new ArrayList<>();
        DeltaTables.readRows(table()).forEach(r -> ids.add(r[0]));
        ids.sort(null);
        return ids;
    }

    @Test
    void rowsBreakingAConstraintAreDeadLetteredAndTheOthersCommittedAndAConstraintAddedLaterAppliesToTheNextBatch()
            throws Exception {
        sparkTable(Map.of("amt_positive", "amt > 0"));
        String topic = KAFKA.newTopic("check", 1);
        String deadLetters = topic + ".deadletter";
        publish(topic, new Object[] {1, "a", 1.0}, new Object[] {2, "b", -2.0}, new Object[] {3, "c", null},
                new Object[] {4, "dd", 4.0});
        SinkBadRecords bad = SinkBadRecords.forName("deadLetter", deadLetters);

        try (DeltaSink sink = new DeltaSink(config(topic, bad), KAFKA.client())) {
            assertThat(sink.runBatch()).isPresent();
            assertThat(ids()).containsExactly(1, 4);
            List<JsonNode> letters = TopicTail.json(KAFKA.client(), deadLetters);
            assertThat(letters).hasSize(2);
            JsonNode negative = letters.get(0);
            assertThat(negative.path("offset").asLong()).isEqualTo(1);
            assertThat(negative.path("field").asText()).isEqualTo("amt_positive");
            assertThat(negative.path("reason").asText()).contains("CHECK constraint amt_positive (amt > 0)").contains("amt = -2.0");
            // as Spark's Delta writer: a constraint whose expression is null is broken
            JsonNode nullAmt = letters.get(1);
            assertThat(nullAmt.path("offset").asLong()).isEqualTo(2);
            assertThat(nullAmt.path("reason").asText()).contains("is null");

            // Spark adds a constraint between batches: the next batch is checked against it
            SparkCreatedTables.addConstraint(dir.resolve("t"), "short_user", "length(user) < 2");
            publish(topic, new Object[] {5, "e", 5.0}, new Object[] {6, "ff", 6.0});
            assertThat(sink.runBatch()).isPresent();
            assertThat(ids()).containsExactly(1, 4, 5);
            letters = TopicTail.json(KAFKA.client(), deadLetters);
            assertThat(letters).hasSize(3);
            assertThat(letters.get(2).path("field").asText()).isEqualTo("short_user");
        }
        // the table keeps its constraints: the sink's commits did not drop them
        assertThat(io.tributary.sink.internal.TableSnapshots.latest(io.tributary.delta.KernelEngines.create(), table())
                .orElseThrow().getTableProperties()).containsEntry("delta.constraints.amt_positive", "amt > 0")
                .containsEntry("delta.constraints.short_user", "length(user) < 2");
    }

    @Test
    void aConstraintTheSinkCannotParseStopsTheBatchAtItsStartNamingIt() throws Exception {
        sparkTable(Map.of("broken", "amt >"));
        String topic = KAFKA.newTopic("check", 1);
        publish(topic, new Object[] {1, "a", 1.0});

        try (DeltaSink sink = new DeltaSink(config(topic, SinkBadRecords.forName("drop", null)), KAFKA.client())) {
            assertThatThrownBy(sink::runBatch).isInstanceOf(TributaryException.class)
                    .hasMessageContaining("constraint broken CHECK (amt >)")
                    .hasMessageContaining("DROP CONSTRAINT broken");
        }
        assertThat(DeltaTables.latestVersion(table())).isZero();
    }

    @Test
    void aLegacyInvariantIsCheckedAsAConstraint() throws Exception {
        // Spark's legacy invariant: protocol (1,2), the expression in the column's delta.invariants metadata
        Path t = SparkCreatedTables.create(dir.resolve("t"), List.of("id integer", "user string", "amt double"), List.of(), Map.of());
        Path v0 = t.resolve("_delta_log").resolve("00000000000000000000.json");
        StringBuilder out = new StringBuilder();
        for (String line : java.nio.file.Files.readAllLines(v0)) {
            JsonNode a = JSON.readTree(line);
            if (a.has("metaData")) {
                com.fasterxml.jackson.databind.node.ObjectNode meta = (com.fasterxml.jackson.databind.node.ObjectNode) a.get("metaData");
                JsonNode schema = JSON.readTree(meta.get("schemaString").asText());
                ((com.fasterxml.jackson.databind.node.ObjectNode) schema.get("fields").get(2).get("metadata"))
                        .put("delta.invariants", "{\"expression\":{\"expression\":\"amt < 100\"}}");
                meta.put("schemaString", schema.toString());
            }
            out.append(JSON.writeValueAsString(a)).append('\n');
        }
        java.nio.file.Files.writeString(v0, out);
        String topic = KAFKA.newTopic("invariant", 1);
        publish(topic, new Object[] {1, "a", 1.0}, new Object[] {2, "b", 200.0});

        try (DeltaSink sink = new DeltaSink(config(topic, SinkBadRecords.forName("drop", null)), KAFKA.client())) {
            assertThat(sink.runBatch()).isPresent();
        }
        assertThat(ids()).containsExactly(1);
        // the invariant is still in the table's schema after the sink's commit
        assertThat(io.tributary.sink.internal.TableSnapshots.latest(io.tributary.delta.KernelEngines.create(), table())
                .orElseThrow().getSchema().get("amt").getMetadata().contains("delta.invariants")).isTrue();
    }
}
