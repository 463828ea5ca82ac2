package io.tributary.service.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.tributary.schema.Schema;
import io.tributary.schema.Topics;
import io.tributary.service.spec.PipelineSpec;
import io.tributary.sink.DeltaTables;
import io.tributary.sink.SinkTables;
import io.tributary.sink.TopicTail;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code transform.join}, {@code where} and {@code select} over a Delta source and a Kafka source, each run
 * as a user runs it (an availableNow pipeline on a real broker, real tables): the table gets the select's
 * columns and the rows the join and the filter make, and a row an expression fails on is a dead letter naming
 * the table and version, or the topic, partition and offset, while the other rows flow.
 */
@Tag("integration")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class SourceTransformPipelineTest {
    static final String TRANSFORM = """
            transform:
              join: { table: dims/users, as: u, on: "lower(user) = u.user", type: left }
              where: "cast(amt AS DOUBLE) > 0"
              select: [id, "lower(user) AS user", "cast(amt AS DOUBLE) AS amt", "u.segment AS segment"]
            sink:
              delta:
                path: out/
            trigger: availableNow
            """;

    @TempDir
    Path dir;

    private void dims() {
        new SinkTables(dir.resolve("dims/users").toString(), Schema.parse("user STRING, segment STRING"), List.of(), "dims")
                .commit(List.of(new Object[] {"ann", "gold"}, new Object[] {"bob", "silver"}));
    }

    private PipelineSpec spec(String yaml) throws Exception {
        Path f = dir.resolve("pipeline.yaml");
        Files.writeString(f, yaml);
        return PipelineSpec.load(f, Map.of(), Map.of());
    }

    private List<String> out() {
        return DeltaTables.readRows(dir.resolve("out").toString()).stream()
                .map(r -> Arrays.stream(r).map(Objects::toString).collect(Collectors.joining("|"))).toList();
    }

    @Test
    void aDeltaSourcesRowsAreJoinedFilteredAndSelectedAndAFailingRowIsADeadLetterNamingTheTableAndVersion() throws Exception {
        dims();
        new SinkTables(dir.resolve("bronze").toString(), Schema.parse("id INT, user STRING, amt STRING"), List.of(), "bronze")
                .commit(List.of(new Object[] {1, "Ann", "5"}, new Object[] {2, "bob", "x"}, new Object[] {3, "cy", "-1"},
                        new Object[] {4, "dee", "2"}));
        long version = DeltaTables.latestVersion(dir.resolve("bronze").toString());
        PipelineSpec spec = spec("name: dsrc\nsource:\n  delta:\n    path: bronze/\n" + TRANSFORM);
        List<JsonNode> letters;
        try (Pipeline pipeline = Pipeline.open(spec, RunOptions.DEFAULT)) {
            pipeline.run(spec.trigger(), p -> { });
            letters = TopicTail.json(pipeline.clientProps(), Topics.deadLetter("dsrc"));
        }

        assertThat(DeltaTables.schema(dir.resolve("out").toString()).orElseThrow().toDdl())
                .isEqualTo("id INT, user STRING, amt DOUBLE, segment STRING");
        assertThat(out()).containsExactlyInAnyOrder("1|ann|5.0|gold", "4|dee|2.0|null");
        assertThat(letters).hasSize(1);
        JsonNode letter = letters.get(0);
        assertThat(letter.path("table").asText()).endsWith("bronze");
        assertThat(letter.path("version").asLong()).isEqualTo(version);
        assertThat(letter.path("reason").asText()).isEqualTo("expression \"cast(amt AS DOUBLE)\" fails: CAST_INVALID_INPUT: the value 'x'"
                + " cannot be cast to DOUBLE");
        assertThat(letter.path("text").asText()).contains("\"id\":2").contains("\"amt\":\"x\"");
    }

    @Test
    void aKafkaSourcesRowsAreJoinedFilteredAndSelectedAndAFailingRowIsADeadLetterNamingItsOffset() throws Exception {
        dims();
        PipelineSpec spec = spec("""
                name: ksrc
                source:
                  kafka:
                    topics: [orders]
                    schema: "id INT, user STRING, amt STRING"
                """ + TRANSFORM);
        List<JsonNode> letters;
        try (Pipeline pipeline = Pipeline.open(spec, RunOptions.DEFAULT)) {
            TopicAdmin.ensure(pipeline.clientProps(), 1, java.util.Optional.empty(), "orders");
            Map<String, Object> props = new HashMap<>(pipeline.clientProps());
            props.keySet().removeIf(k -> k.startsWith("group.") || k.startsWith("isolation.") || k.startsWith("auto.")
                    || k.startsWith("enable.auto"));
            try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
                for (String v : List.of("{\"id\": 1, \"user\": \"Ann\", \"amt\": \"5\"}", "{\"id\": 2, \"user\": \"bob\", \"amt\": \"x\"}",
                        "{\"id\": 3, \"user\": \"cy\", \"amt\": \"-1\"}", "{\"id\": 4, \"user\": \"dee\", \"amt\": \"2\"}")) {
                    producer.send(new ProducerRecord<>("orders", 0, null, v.getBytes(StandardCharsets.UTF_8))).get();
                }
            }
            pipeline.run(spec.trigger(), p -> { });
            letters = TopicTail.json(pipeline.clientProps(), Topics.deadLetter("ksrc"));
        }

        assertThat(DeltaTables.schema(dir.resolve("out").toString()).orElseThrow().toDdl())
                .isEqualTo("id INT, user STRING, amt DOUBLE, segment STRING");
        assertThat(out()).containsExactlyInAnyOrder("1|ann|5.0|gold", "4|dee|2.0|null");
        assertThat(letters).extracting(l -> l.path("topic").asText() + ":" + l.path("partition").asInt() + ":" + l.path("offset").asLong())
                .containsExactly("orders:0:1");
        assertThat(letters.get(0).path("reason").asText())
                .isEqualTo("expression \"cast(amt AS DOUBLE)\" fails: CAST_INVALID_INPUT: the value 'x' cannot be cast to DOUBLE");
        assertThat(letters.get(0).path("text").asText()).contains("\"amt\": \"x\"");
    }

    @Test
    void aKafkaSourcesTransformNamingAnUnknownColumnIsRefusedBeforeTheBrokerStarts() throws Exception {
        dims();
        PipelineSpec spec = spec("""
                name: kbad
                source:
                  kafka:
                    topics: [orders]
                    schema: "id INT, user STRING, amt STRING"
                """ + TRANSFORM.replace("lower(user) AS user", "lower(usr) AS user"));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Pipeline.open(spec, RunOptions.DEFAULT))
                .isInstanceOf(io.tributary.schema.TributaryException.class)
                .hasMessageContaining("pipeline.yaml line 9: transform.select: expression \"lower(usr) AS user\"")
                .hasMessageContaining("no column 'usr'")
                .hasMessageNotContaining("\n");
        assertThat(spec.stateDir()).as("no broker started").doesNotExist();
    }

    @Test
    void aStructKeyJoinsARealTableWithSparksEquality() throws Exception {
        new SinkTables(dir.resolve("dims/keys").toString(), Schema.parse("k STRUCT<name: STRING, x: DOUBLE>, segment STRING"), List.of(),
                "dims").commit(List.of(new Object[] {new Object[] {"ann", 0.0}, "gold"}, new Object[] {new Object[] {"bob", Double.NaN}, "silver"},
                        new Object[] {new Object[] {null, 1.0}, "nameless"}));
        new SinkTables(dir.resolve("bronze").toString(), Schema.parse("id INT, user STRING, amt DOUBLE"), List.of(), "bronze")
                .commit(List.of(new Object[] {1, "ann", -0.0}, new Object[] {2, "bob", Double.NaN}, new Object[] {3, null, 1.0},
                        new Object[] {4, "ann", 1.0}));
        PipelineSpec spec = spec("""
                name: skey
                source:
                  delta:
                    path: bronze/
                transform:
                  join: { table: dims/keys, as: u, on: "struct(user, amt) = u.k", type: left }
                  select: [id, "u.segment AS segment"]
                sink:
                  delta:
                    path: out/
                trigger: availableNow
                """);
        try (Pipeline pipeline = Pipeline.open(spec, RunOptions.DEFAULT)) {
            pipeline.run(spec.trigger(), p -> { });
        }
        assertThat(out()).as("-0.0 = 0.0, NaN = NaN, a null field equals a null field, fields by position")
                .containsExactlyInAnyOrder("1|gold", "2|silver", "3|nameless", "4|null");
    }

    @Test
    void aKafkaSourcesTransformReadingTheFilesMetadataIsRefusedNamingTheSource() throws Exception {
        PipelineSpec spec = spec("""
                name: kmeta
                source:
                  kafka:
                    topics: [orders]
                    schema: "id INT, user STRING"
                transform:
                  select: ["*", "_metadata.file_name AS f"]
                sink:
                  delta:
                    path: out/
                trigger: availableNow
                """);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Pipeline.open(spec, RunOptions.DEFAULT))
                .isInstanceOf(io.tributary.schema.TributaryException.class)
                .hasMessageContaining("transform.select: expression \"_metadata.file_name AS f\"")
                .hasMessageContaining("only a file source (source.path) reads files: this source (a Kafka topic or a Delta table)");
        assertThat(spec.stateDir()).as("no broker started").doesNotExist();
    }

    @Test
    void aDeltaSourcesAggregationCountsTheRowsTheTransformMakes() throws Exception {
        long t0 = java.time.Instant.parse("2026-01-01T10:00:00Z").getEpochSecond() * 1_000_000L;
        long minute = 60_000_000L;
        new SinkTables(dir.resolve("bronze").toString(), Schema.parse("id INT, user STRING, amt STRING, ts TIMESTAMP"), List.of(), "bronze")
                .commit(List.of(new Object[] {1, "a", "5", t0}, new Object[] {2, "b", "x", t0 + minute}, new Object[] {3, "c", "2", t0 + 2 * minute},
                        new Object[] {4, "d", "1", t0 + 30 * minute}, new Object[] {5, "e", "1", t0 + 60 * minute}));
        PipelineSpec spec = spec("""
                name: dagg
                source:
                  delta:
                    path: bronze/
                transform:
                  select: [id, "cast(amt AS DOUBLE) AS amount", ts]
                aggregate:
                  eventTime: ts
                  watermark: 10 minutes
                  window: 10 minutes
                  select: { n: "count(*)", total: "sum(amount)" }
                sink:
                  delta:
                    path: out/
                trigger: availableNow
                """);
        try (Pipeline pipeline = Pipeline.open(spec, RunOptions.DEFAULT)) {
            pipeline.run(spec.trigger(), p -> { });
        }

        List<String> windows = DeltaTables.readRows(dir.resolve("out").toString()).stream()
                .map(r -> io.tributary.schema.Timestamps.formatMicros((Long) ((Object[]) r[0])[0]) + "|" + r[1] + "|" + r[2]).toList();
        // the row whose amt is not a number is a dead letter; the 11:00 window is still open at the watermark 10:50
        assertThat(windows).containsExactlyInAnyOrder("2026-01-01T10:00:00Z|2|7.0", "2026-01-01T10:30:00Z|1|1.0");
    }
}
