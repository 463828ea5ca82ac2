package io.tributary.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.schema.RowBinary;
import io.tributary.schema.RowJson;
import io.tributary.schema.RowPack;
import io.tributary.schema.Schema;
import io.tributary.schema.Topics;
import io.tributary.schema.TributaryException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table whose column is NOT NULL (Spark's {@code CREATE TABLE t (id INT NOT NULL, ...)}), and a
 * topic that holds a row with a null there: the row is set aside as {@code onBadRecord} says and
 * the sink goes on, or stops naming it; it never stalls the pipeline.
 */
@Tag("integration")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class NotNullColumnIT {
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

    /** The Spark table, and a topic holding rows 1, null, 3 (offsets 0, 1, 2). */
    private String sparkTableAndTopicWithANullId() throws Exception {
        SparkCreatedTables.create(dir.resolve("t"), List.of("id integer NOT NULL", "user string", "amt double"), List.of(), Map.of());
        String topic = KAFKA.newTopic("notnull", 1);
        publish(topic, new Object[] {1, "a", 1.0}, new Object[] {null, "b", 2.0}, new Object[] {3, "c", 3.0});
        return topic;
    }

    private static void publish(String topic, Object[]... rows) {
        KAFKA.inTransaction(producer -> {
            for (Object[] row : rows) {
                producer.send(new ProducerRecord<>(topic, 0, null, ROWS.write(row)));
            }
        });
    }

    /** One record of {@code rows} in binary (as the file source writes them for a sink alone), written with {@code schema}. */
    private static void publishBinary(String topic, Schema schema, Object[]... rows) {
        RowPack pack = new RowPack(64, RowBinary.of(schema));
        for (Object[] row : rows) {
            pack.add(new RowJson(schema), row, -1);
        }
        RecordHeaders headers = new RecordHeaders();
        headers.add(Topics.ROWS_HEADER, schema.toDdl().getBytes(StandardCharsets.UTF_8));
        KAFKA.inTransaction(producer -> producer.send(new ProducerRecord<>(topic, 0, null, null, pack.take(), headers)));
    }

    private SinkConfig config(String topic, SinkBadRecords bad) {
        return SinkConfig.builder(table(), SCHEMA, topic, "notnull-sink", "notnull/sink").badRecords(bad).build();
    }

    private List<Object> ids() {
        List<Object> ids = new ArrayList<>();
        DeltaTables.readRows(table()).forEach(r -> ids.add(r[0]));
        ids.sort(null);
        return ids;
    }

    @Test
    void aNullInANotNullColumnGoesToTheDeadLetterTopicAndTheOtherRowsAreWritten() throws Exception {
        String topic = sparkTableAndTopicWithANullId();
        String deadLetters = topic + ".deadletter";

        try (DeltaSink sink = new DeltaSink(config(topic, SinkBadRecords.forName("deadLetter", deadLetters)), KAFKA.client())) {
            assertThat(sink.runBatch()).isPresent();
        }

        assertThat(ids()).containsExactly(1, 3);
        List<ConsumerRecord<byte[], byte[]>> letters = TopicTail.records(KAFKA.client(), deadLetters, Map.of());
        assertThat(letters).hasSize(1);
        JsonNode letter = JSON.readTree(letters.get(0).value());
        assertThat(letter.path("topic").asText()).isEqualTo(topic);
        assertThat(letter.path("partition").asInt()).isZero();
        assertThat(letter.path("offset").asLong()).isEqualTo(1);
        assertThat(letter.path("field").asText()).isEqualTo("id");
        assertThat(letter.path("reason").asText()).contains("NOT NULL");
        assertThat(JSON.readTree(letter.path("text").asText()).path("user").asText()).isEqualTo("b");
        assertThat(new String(letters.get(0).key())).isEqualTo(topic + ":0:1");

        // the next run goes on after the bad row: it is not read again
        publish(topic, new Object[] {4, "d", 4.0});
        try (DeltaSink again = new DeltaSink(config(topic, SinkBadRecords.forName("deadLetter", deadLetters)), KAFKA.client())) {
            assertThat(again.runBatch()).isPresent();
            assertThat(again.runBatch()).isEmpty();
        }
        assertThat(ids()).containsExactly(1, 3, 4);
        assertThat(TopicTail.records(KAFKA.client(), deadLetters, Map.of())).hasSize(1);
    }

    @Test
    void binaryRowsGiveTheSameTableAndTheSameDeadLetterAsJsonRows() throws Exception {
        SparkCreatedTables.create(dir.resolve("t"), List.of("id integer NOT NULL", "user string", "amt double"), List.of(), Map.of());
        String topic = KAFKA.newTopic("notnull-binary", 1);
        String deadLetters = topic + ".deadletter";
        publishBinary(topic, SCHEMA, new Object[] {1, "a", 1.0}, new Object[] {null, "b", 2.0}, new Object[] {3, "c", 3.0});
        // written with the columns in another order: read by name, as their JSON would be
        publishBinary(topic, Schema.parse("amt DOUBLE, id INT, user STRING"), new Object[] {4.5, 4, "d"});

        try (DeltaSink sink = new DeltaSink(config(topic, SinkBadRecords.forName("deadLetter", deadLetters)), KAFKA.client())) {
            assertThat(sink.runBatch()).isPresent();
        }

        List<String> rows = new ArrayList<>();
        DeltaTables.readRows(table()).forEach(r -> rows.add(java.util.Arrays.toString(r)));
        assertThat(rows).containsExactlyInAnyOrder("[1, a, 1.0]", "[3, c, 3.0]", "[4, d, 4.5]");
        List<ConsumerRecord<byte[], byte[]>> letters = TopicTail.records(KAFKA.client(), deadLetters, Map.of());
        assertThat(letters).hasSize(1);
        JsonNode letter = JSON.readTree(letters.get(0).value());
        assertThat(letter.path("offset").asLong()).isZero();
        assertThat(letter.path("row").asInt()).isEqualTo(2);
        assertThat(letter.path("field").asText()).isEqualTo("id");
        assertThat(letter.path("reason").asText()).contains("NOT NULL");
        assertThat(letter.path("text").asText()).isEqualTo("{\"id\":null,\"user\":\"b\",\"amt\":2.0}");
    }

    @Test
    void underDropTheRowIsLeftOutAndTheSinkGoesOn() throws Exception {
        String topic = sparkTableAndTopicWithANullId();

        try (DeltaSink sink = new DeltaSink(config(topic, SinkBadRecords.forName("drop", null)), KAFKA.client())) {
            assertThat(sink.runBatch()).isPresent();
            assertThat(sink.runBatch()).isEmpty();
        }

        assertThat(ids()).containsExactly(1, 3);
        assertThat(DeltaTables.sinkOffsets(table()).orElseThrow().offsets().get(0)).isGreaterThan(2L); // past the bad row
    }

    @Test
    void underFailTheSinkStopsInOneLineNamingTheRecordAndTheColumn() throws Exception {
        String topic = sparkTableAndTopicWithANullId();

        try (DeltaSink sink = new DeltaSink(config(topic, SinkBadRecords.FAIL), KAFKA.client())) {
            assertThatThrownBy(sink::runBatch)
                    .isInstanceOf(TributaryException.class)
                    .hasMessageContaining("topic " + topic + " partition 0 offset 1 ")
                    .hasMessageContaining("field 'id'")
                    .hasMessageContaining("NOT NULL")
                    .hasMessageContaining("onBadRecord is fail")
                    .hasMessageNotContaining("\n");
        }
        assertThat(DeltaTables.latestVersion(table())).isZero();
        assertThat(ids()).isEmpty();
    }
}
