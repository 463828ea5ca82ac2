package io.tributary.service.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.tributary.broker.EmbeddedBroker;
import io.tributary.schema.Topics;
import io.tributary.service.spec.PipelineSpec;
import io.tributary.sink.DeltaTables;
import io.tributary.sink.SinkOffsets;
import io.tributary.sink.TopicTail;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Kafka source's record that an expression of the transform fails on (Spark's ANSI mode: a division by zero in
 * {@code where}, a cast in {@code select}): a dead letter naming its topic, partition and offset, the expression and
 * the error class, while the batch's other records reach the table, whose offsets then cover the dead-lettered
 * record (a restart neither reads it nor sends it again); under {@code onBadRecord: fail} the run stops naming them.
 */
@Tag("integration")
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class KafkaSourceFailingExpressionTest {
    private static final String SPEC = """
            name: kfail
            source:
              kafka:
                topics: [orders]
                schema: "id INT, amt STRING, qty INT"
            %s
            transform:
              where: "cast(amt AS DOUBLE) / qty > 1"
              select: [id, "cast(amt AS DOUBLE) AS amt", qty]
            sink:
              delta:
                path: out/
            trigger: availableNow
            """;

    @TempDir
    Path dir;
    private EmbeddedBroker broker; // one for every run, as a cluster outlives its pipelines' runs

    @BeforeEach
    void startBroker() throws Exception {
        broker = EmbeddedBroker.start(dir.resolve("kafka"));
        TopicAdmin.ensure(Map.of("bootstrap.servers", broker.bootstrapServers()), 1, java.util.Optional.empty(), "orders");
    }

    @AfterEach
    void stopBroker() {
        broker.close();
    }

    @Test
    void aRecordAnExpressionFailsOnIsADeadLetterTheTablesOffsetsCoverAndARestartDoesNotSendAgain() throws Exception {
        Path specFile = spec("");
        produce("{\"id\": 1, \"amt\": \"10\", \"qty\": 2}", "{\"id\": 2, \"amt\": \"5\", \"qty\": 0}",
                "{\"id\": 3, \"amt\": \"x\", \"qty\": 1}", "{\"id\": 4, \"amt\": \"9\", \"qty\": 3}");
        run(specFile);

        assertThat(ids()).containsExactlyInAnyOrder("1|10.0", "4|9.0");
        List<JsonNode> letters = letters();
        assertThat(letters).extracting(l -> l.path("topic").asText() + ":" + l.path("partition").asInt() + ":" + l.path("offset").asLong())
                .containsExactly("orders:0:1", "orders:0:2");
        assertThat(letters.get(0).path("reason").asText())
                .isEqualTo("expression \"cast(amt AS DOUBLE) / qty\" fails: DIVIDE_BY_ZERO: division by zero");
        assertThat(letters.get(1).path("reason").asText())
                .isEqualTo("expression \"cast(amt AS DOUBLE)\" fails: CAST_INVALID_INPUT: the value 'x' cannot be cast to DOUBLE");
        assertThat(letters.get(0).path("text").asText()).isEqualTo("{\"id\": 2, \"amt\": \"5\", \"qty\": 0}");
        assertThat(offsets()).as("the table's offsets cover the dead letters").isEqualTo(Map.of("orders", Map.of("0", 4L)));

        run(specFile); // nothing new: the restart reads from the table's offsets, past the dead-lettered records
        produce("{\"id\": 5, \"amt\": \"8\", \"qty\": 4}");
        run(specFile);

        assertThat(ids()).containsExactlyInAnyOrder("1|10.0", "4|9.0", "5|8.0");
        assertThat(letters()).as("no dead letter sent twice").hasSize(2);
        assertThat(offsets()).isEqualTo(Map.of("orders", Map.of("0", 5L)));
    }

    @Test
    void underOnBadRecordFailTheRunStopsNamingTheTopicPartitionOffsetAndExpressionAndWritesNothing() throws Exception {
        Path specFile = spec("    onBadRecord: fail");
        produce("{\"id\": 1, \"amt\": \"10\", \"qty\": 2}", "{\"id\": 2, \"amt\": \"5\", \"qty\": 0}");
        assertThatThrownBy(() -> run(specFile))
                .hasMessageContaining("topic orders partition 0 offset 1")
                .hasMessageContaining("expression \"cast(amt AS DOUBLE) / qty\" fails: DIVIDE_BY_ZERO")
                .hasMessageContaining("source.kafka.onBadRecord")
                .hasMessageNotContaining("source.files")
                .hasMessageNotContaining("\n");
        assertThat(DeltaTables.exists(dir.resolve("out").toString()) ? ids() : List.of()).as("nothing of the batch").isEmpty();
    }

    private Path spec(String onBadRecord) throws Exception {
        Path f = dir.resolve("pipeline.yaml");
        Files.writeString(f, SPEC.formatted(onBadRecord).replace("\n\n", "\n") + "kafka:\n  bootstrap.servers: "
                + broker.bootstrapServers() + "\n");
        return f;
    }

    private static void run(Path specFile) throws Exception {
        PipelineSpec spec = PipelineSpec.load(specFile, Map.of(), Map.of());
        try (Pipeline pipeline = Pipeline.open(spec, RunOptions.DEFAULT)) {
            pipeline.run(spec.trigger(), p -> { });
        }
    }

    private void produce(String... values) throws Exception {
        try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(Map.<String, Object>of("bootstrap.servers", broker.bootstrapServers()),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            for (String v : values) {
                p.send(new ProducerRecord<>("orders", 0, null, v.getBytes(StandardCharsets.UTF_8))).get();
            }
        }
    }

    private List<String> ids() {
        return DeltaTables.readRows(dir.resolve("out").toString()).stream().map(r -> r[0] + "|" + r[1]).toList();
    }

    private List<JsonNode> letters() {
        return TopicTail.json(Map.of("bootstrap.servers", broker.bootstrapServers()), Topics.deadLetter("kfail"));
    }

    private Map<String, Map<String, Long>> offsets() {
        return DeltaTables.sinkOffsets(dir.resolve("out").toString()).map(SinkOffsets::sparkJson).orElseThrow();
    }
}
