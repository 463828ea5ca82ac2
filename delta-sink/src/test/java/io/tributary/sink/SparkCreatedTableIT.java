package io.tributary.sink;

import static io.tributary.sink.SparkCreatedTables.CHANGE_DATA_FEED;
import static io.tributary.sink.SparkCreatedTables.COLUMN_MAPPING;
import static io.tributary.sink.SparkCreatedTables.DELETION_VECTORS;
import static io.tributary.sink.SparkCreatedTables.V2_CHECKPOINT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.tributary.schema.RowJson;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import java.nio.charset.StandardCharsets;
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

/** A table Spark created with table features ({@link SparkCreatedTables}), then the sink writing into it. */
@Tag("integration")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class SparkCreatedTableIT {
    private static final Schema SCHEMA = Schema.parse("id INT, user STRING, amt DOUBLE");
    private static final List<String> COLUMNS = List.of("id integer", "user string", "amt double");
    private static final RowJson ROWS = new RowJson(SCHEMA);

    @RegisterExtension
    static final TestKafka KAFKA = new TestKafka();

    @TempDir
    Path dir;

    private static void publish(String topic, Object[]... rows) {
        KAFKA.inTransaction(producer -> {
            for (Object[] row : rows) {
                byte[] key = ("[" + row[0] + "]").getBytes(StandardCharsets.UTF_8);
                producer.send(new ProducerRecord<>(topic, 0, key, ROWS.write(row)));
            }
        });
    }

    private SinkConfig config(String topic, SinkMode mode) {
        SinkConfig c = SinkConfig.of(dir.resolve("t").toString(), SCHEMA, topic, "spark-table-sink", "spark/sink");
        return mode == SinkMode.APPEND ? c : c.toBuilder().mode(mode, List.of("id"), null).build();
    }

    private List<String> rows() {
        List<String> out = new ArrayList<>();
        for (Object[] r : DeltaTables.readRows(dir.resolve("t").toString())) {
            out.add(r[0] + ":" + r[1] + ":" + r[2]);
        }
        out.sort(null);
        return out;
    }

    private static List<String> features(JsonNode protocol, String kind) {
        List<String> out = new ArrayList<>();
        protocol.path(kind).forEach(f -> out.add(f.asText()));
        return out;
    }

    @Test
    void appendsGoIntoASparkTableWithDeletionVectorsV2CheckpointsAndChangeDataFeed() throws Exception {
        Path table = SparkCreatedTables.create(dir.resolve("t"), COLUMNS, List.of(DELETION_VECTORS, V2_CHECKPOINT, CHANGE_DATA_FEED), Map.of());
        String topic = KAFKA.newTopic("spark", 1);
        publish(topic, new Object[] {1, "a", 1.0}, new Object[] {2, "b", 2.0});

        try (DeltaSink sink = new DeltaSink(config(topic, SinkMode.APPEND), KAFKA.client())) {
            assertThat(sink.runBatch()).isPresent();
            publish(topic, new Object[] {3, "c", 3.0});
            assertThat(sink.runBatch()).isPresent();
        }

        assertThat(rows()).containsExactly("1:a:1.0", "2:b:2.0", "3:c:3.0");
        JsonNode protocol = SparkCreatedTables.protocol(table);
        assertThat(protocol.path("minReaderVersion").asInt()).isEqualTo(3);
        assertThat(protocol.path("minWriterVersion").asInt()).isEqualTo(7);
        assertThat(features(protocol, "writerFeatures"))
                .contains("domainMetadata", DELETION_VECTORS, V2_CHECKPOINT, CHANGE_DATA_FEED, "invariants", "appendOnly");
        assertThat(features(protocol, "readerFeatures")).containsExactlyInAnyOrder(DELETION_VECTORS, V2_CHECKPOINT);
        assertThat(DeltaTables.transactionVersion(table.toString(), "spark-table-sink")).contains(1L);
    }

    @Test
    void upsertsGoIntoASparkTableWithDeletionVectorsAndV2Checkpoints() throws Exception {
        Path table = SparkCreatedTables.create(dir.resolve("t"), COLUMNS, List.of(DELETION_VECTORS, V2_CHECKPOINT), Map.of());
        String topic = KAFKA.newTopic("spark", 1);
        publish(topic, new Object[] {1, "a", 1.0}, new Object[] {2, "b", 2.0});

        try (DeltaSink sink = new DeltaSink(config(topic, SinkMode.UPSERT), KAFKA.client())) {
            assertThat(sink.runBatch()).isPresent();
            publish(topic, new Object[] {2, "b", 20.0}, new Object[] {3, "c", 3.0});
            assertThat(sink.runBatch()).isPresent();
        }

        assertThat(rows()).containsExactly("1:a:1.0", "2:b:20.0", "3:c:3.0");
        assertThat(features(SparkCreatedTables.protocol(table), "writerFeatures")).contains("domainMetadata", DELETION_VECTORS);
    }

    @Test
    void upsertsIntoASparkTableWithTheChangeDataFeedWriteItsChangeData() throws Exception {
        Path table = SparkCreatedTables.create(dir.resolve("t"), COLUMNS, List.of(DELETION_VECTORS, CHANGE_DATA_FEED), Map.of());
        String topic = KAFKA.newTopic("spark", 1);
        publish(topic, new Object[] {1, "a", 1.0}, new Object[] {2, "b", 2.0});

        try (DeltaSink sink = new DeltaSink(config(topic, SinkMode.UPSERT), KAFKA.client())) {
            assertThat(sink.runBatch()).isPresent();
            publish(topic, new Object[] {2, "b", 20.0}, new Object[] {3, "c", 3.0});
            assertThat(sink.runBatch()).isPresent();
        }

        assertThat(rows()).containsExactly("1:a:1.0", "2:b:20.0", "3:c:3.0");
        String log = java.nio.file.Files.readString(table.resolve("_delta_log/00000000000000000002.json"));
        assertThat(log).containsPattern("\\{\"cdc\":\\{\"path\":\"_change_data/cdc-[^\"]+\\.snappy\\.parquet\"")
                .contains("\"remove\":{").contains("\"add\":{");
        try (var files = java.nio.file.Files.list(table.resolve("_change_data"))) {
            assertThat(files.filter(f -> f.getFileName().toString().endsWith(".parquet"))).hasSize(1);
        }
    }

    @Test
    void aPlainSparkTableGetsTheDomainMetadataFeatureWithTheFirstBatch() throws Exception {
        Path table = SparkCreatedTables.create(dir.resolve("t"), COLUMNS, List.of(), Map.of());
        String topic = KAFKA.newTopic("spark", 1);
        publish(topic, new Object[] {1, "a", 1.0});

        try (DeltaSink sink = new DeltaSink(config(topic, SinkMode.APPEND), KAFKA.client())) {
            assertThat(sink.runBatch()).isPresent();
        }

        assertThat(rows()).containsExactly("1:a:1.0");
        JsonNode protocol = SparkCreatedTables.protocol(table);
        assertThat(protocol.path("minWriterVersion").asInt()).isEqualTo(7);
        assertThat(features(protocol, "writerFeatures")).containsExactlyInAnyOrder("domainMetadata", "invariants", "appendOnly");
    }

    @Test
    void aCompleteReplaceOfAChangeDataFeedTableIsRefusedInOneLine() throws Exception {
        Path table = SparkCreatedTables.create(dir.resolve("t"), COLUMNS, List.of(DELETION_VECTORS, CHANGE_DATA_FEED), Map.of());
        String topic = KAFKA.newTopic("spark", 1);
        publish(topic, new Object[] {1, "a", 1.0});

        for (SinkMode mode : List.of(SinkMode.COMPLETE)) {
            assertThatThrownBy(() -> new DeltaSink(config(topic, mode), KAFKA.client()).close())
                    .isInstanceOf(TributaryException.class)
                    .hasMessageContaining("delta table " + table)
                    .hasMessageContaining("delta.enableChangeDataFeed")
                    .hasMessageContaining("mode " + mode.name().toLowerCase())
                    .hasMessageContaining("append")
                    .hasMessageNotContaining("\n");
        }
        assertThat(DeltaTables.latestVersion(table.toString())).isZero();
    }

    @Test
    void upsertsGoIntoASparkTableWithColumnMappingUnderItsPhysicalNames() throws Exception {
        Path table = SparkCreatedTables.create(dir.resolve("t"), COLUMNS, List.of(COLUMN_MAPPING, DELETION_VECTORS), Map.of());
        String topic = KAFKA.newTopic("spark", 1);
        publish(topic, new Object[] {1, "a", 1.0}, new Object[] {2, "b", 2.0});

        try (DeltaSink sink = new DeltaSink(config(topic, SinkMode.UPSERT), KAFKA.client())) {
            assertThat(sink.runBatch()).isPresent();
            publish(topic, new Object[] {2, "b", 20.0}, new Object[] {3, "c", 3.0});
            assertThat(sink.runBatch()).isPresent();
        }

        assertThat(rows()).containsExactly("1:a:1.0", "2:b:20.0", "3:c:3.0");
        String log = java.nio.file.Files.readString(table.resolve("_delta_log/00000000000000000001.json"));
        assertThat(log).as("statistics keyed by the physical names Spark gave the columns").contains("\\\"col-")
                .doesNotContain("\\\"user\\\":");
        assertThat(features(SparkCreatedTables.protocol(table), "readerFeatures")).contains(COLUMN_MAPPING);
    }
}
