package io.tributary.tests;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.schema.Field;
import io.tributary.sink.DeltaTables;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The columns of a Kafka source's table as Spark's Kafka source has them: {@code format: bytes}
 * (key, value, topic, partition, offset, timestamp, timestampType), {@code format: string}, and
 * {@code includeMetadata} adding Spark's columns and the headers after the value's.
 */
@Tag("integration")
@Timeout(300)
class KafkaSourceFormatsScenarioTest {
    private static final long T = 1_700_000_000_123L;
    @TempDir
    Path dir;
    private SourceTopics kafka;

    @BeforeEach
    void start() throws Exception {
        kafka = new SourceTopics(dir);
        kafka.create("orders", 2);
        kafka.produce("orders", 0, T, "k1", "{\"id\": 1, \"user\": \"a\", \"amt\": 5.0}", "source", "web");
        kafka.produce("orders", 1, T + 1, null, "{\"id\": 2, \"user\": \"b\", \"amt\": 7.5}", null, null);
    }

    @AfterEach
    void stop() {
        kafka.close();
    }

    private String spec(String source) {
        return "name: orders\nsource:\n  kafka:\n    topics: [orders]\n" + source + "sink:\n  delta:\n    path: out/\n"
                + "kafka:\n  bootstrap.servers: \"" + kafka.broker.bootstrapServers() + "\"\n";
    }



    private static String text(Object bytes) {
        return bytes == null ? null : new String((byte[]) bytes, StandardCharsets.UTF_8);
    }

    @Test
    void formatBytesIsExactlySparksKafkaSourceColumns() {
        new Workspace(dir, spec("    format: bytes\n")).tributary("run", "--trigger", "availableNow").assertOk();
        assertThat(DeltaTables.schema(dir.resolve("out").toString()).orElseThrow().fields()).extracting(Field::name)
                .containsExactly("key", "value", "topic", "partition", "offset", "timestamp", "timestampType");
        List<Object[]> rows = DeltaTables.readRows(dir.resolve("out").toString()).stream()
                .sorted(Comparator.comparing(r -> (Integer) r[3])).toList();
        assertThat(rows).hasSize(2);
        Object[] first = rows.get(0);
        assertThat(text(first[0])).isEqualTo("k1");
        assertThat(text(first[1])).isEqualTo("{\"id\": 1, \"user\": \"a\", \"amt\": 5.0}");
        assertThat(first[2]).isEqualTo("orders");
        assertThat(first[3]).isEqualTo(0);
        assertThat(first[4]).isEqualTo(0L);
        assertThat(first[5]).as("timestamp, microseconds").isEqualTo(T * 1000);
        assertThat(first[6]).as("timestampType: CreateTime").isEqualTo(0);
        assertThat(rows.get(1)[0]).as("no key").isNull();
        assertThat(rows.get(1)[3]).isEqualTo(1);
    }

    @Test
    void formatStringIsOneValueColumn() {
        new Workspace(dir, spec("    format: string\n")).tributary("run", "--trigger", "availableNow").assertOk();
        assertThat(DeltaTables.schema(dir.resolve("out").toString()).orElseThrow().fields()).extracting(Field::name)
                .containsExactly("value");
        assertThat(DeltaTables.readRows(dir.resolve("out").toString())).extracting(r -> r[0]).containsExactlyInAnyOrder(
                "{\"id\": 1, \"user\": \"a\", \"amt\": 5.0}", "{\"id\": 2, \"user\": \"b\", \"amt\": 7.5}");
    }

    @Test
    void includeMetadataAddsSparksColumnsAndTheHeadersAfterTheValuesColumns() {
        new Workspace(dir, spec("    schema: \"id INT, user STRING, amt DOUBLE\"\n    includeMetadata: true\n"))
                .tributary("run", "--trigger", "availableNow").assertOk();
        assertThat(DeltaTables.schema(dir.resolve("out").toString()).orElseThrow().fields()).extracting(Field::name)
                .containsExactly("id", "user", "amt", "key", "topic", "partition", "offset", "timestamp", "timestampType", "headers");
        List<Object[]> rows = DeltaTables.readRows(dir.resolve("out").toString()).stream()
                .sorted(Comparator.comparing(r -> (Integer) r[0])).toList();
        Object[] first = rows.get(0);
        assertThat(first[0]).isEqualTo(1);
        assertThat(first[2]).isEqualTo(5.0);
        assertThat(text(first[3])).isEqualTo("k1");
        assertThat(first[4]).isEqualTo("orders");
        assertThat(first[5]).isEqualTo(0);
        assertThat(first[6]).isEqualTo(0L);
        assertThat(first[7]).isEqualTo(T * 1000);
        assertThat(first[8]).isEqualTo(0);
        List<?> headers = (List<?>) first[9];
        assertThat(headers).hasSize(1);
        Object[] header = (Object[]) headers.get(0);
        assertThat(header[0]).isEqualTo("source");
        assertThat(text(header[1])).isEqualTo("web");
        assertThat(rows.get(1)[9]).as("a record without headers: null, as Spark").isNull();
    }

    @Test
    void aSchemaColumnNamedAsAKafkaColumnIsRefusedWithIncludeMetadata() {
        Workspace.Result r = new Workspace(dir, spec("    schema: \"id INT, topic STRING\"\n    includeMetadata: true\n"))
                .tributary("run", "--trigger", "availableNow");
        assertThat(r.exitCode()).isNotZero();
        assertThat(r.err()).contains("keys 'source.kafka.schema' and 'source.kafka.includeMetadata' are both given; the schema's"
                + " column topic is also one of the Kafka columns");
    }

    @Test
    void aSchemaWithFormatBytesIsRefusedNamingBothKeys() {
        Workspace.Result r = new Workspace(dir, spec("    format: bytes\n    schema: \"id INT\"\n"))
                .tributary("run", "--trigger", "availableNow");
        assertThat(r.exitCode()).isNotZero();
        assertThat(r.err()).contains("keys 'source.kafka.format' and 'source.kafka.schema' are both given");
    }
}
