package io.tributary.service.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.tributary.broker.EmbeddedBroker;
import io.tributary.expressions.Transform;
import io.tributary.schema.Schema;
import io.tributary.schema.Topics;
import io.tributary.service.spec.PipelineSpec;
import io.tributary.sink.DeltaTables;
import io.tributary.sink.TopicTail;
import io.tributary.testing.Folders;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
 * A Kafka topic whose JSON values have VARIANT fields (at the top and in a struct) to a Delta table: the lines of
 * {@code golden/variant/kafka-source-cases.txt} are a topic's values, read by {@code source.kafka} with a schema of
 * VARIANT fields; the transform keeps the VARIANTs and reads {@code v:a.b::int}. The table's rows are what Spark 4.2's
 * {@code from_json} over the same values gave ({@code kafka-source.tsv}, recorded by compat/spark's
 * {@code SparkVariantSources kafka}); the values Spark's PERMISSIVE mode keeps in {@code _corrupt_record} (an object with a
 * key twice, at the top or inside the struct's VARIANT, a value cut short) are dead letters naming their topic, partition,
 * offset, the field and Spark's error class; so are the values whose {@code v:a.b::int} Spark's ANSI cast fails on
 * ({@code kafka-source-failing.tsv}: {@code INVALID_VARIANT_CAST}), naming the expression and the error class. {@code -Dtributary.variant.keep=DIR} leaves the table in {@code DIR/kafka-source-table} for
 * {@code SparkVariantSources read-kafka}.
 */
@Tag("integration")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class KafkaSourceVariantPipelineTest {
    private static final String SCHEMA = "id INT, v VARIANT, s STRUCT<v: VARIANT, n: INT>";

    @TempDir
    Path dir;
    private EmbeddedBroker broker;

    @BeforeEach
    void startBroker() throws Exception {
        broker = EmbeddedBroker.start(dir.resolve("kafka"));
        TopicAdmin.ensure(Map.of("bootstrap.servers", broker.bootstrapServers()), 1, Optional.empty(), "events");
    }

    @AfterEach
    void stopBroker() {
        broker.close();
    }

    @Test
    void jsonValuesWithVariantFieldsLandAsSparksFromJsonReadsThemAndBadValuesAreDeadLettersOfTheirOffset() throws Exception {
        List<String> values = golden("kafka-source-cases.txt");
        List<String> spark = golden("kafka-source.tsv");
        List<String> failing = golden("kafka-source-failing.txt");
        List<String> sparkFailing = golden("kafka-source-failing.tsv");
        produce(values);
        produce(failing);
        Path specFile = dir.resolve("pipeline.yaml");
        Files.writeString(specFile, """
                name: kvariant
                source:
                  kafka:
                    topics: [events]
                    schema: "%s"
                transform:
                  select: [id, v, s, "v:a.b::int AS b"]
                sink:
                  delta:
                    path: out/
                trigger: availableNow
                kafka:
                  bootstrap.servers: %s
                """.formatted(SCHEMA, broker.bootstrapServers()));
        PipelineSpec spec = PipelineSpec.load(specFile, Map.of(), Map.of());
        try (Pipeline pipeline = Pipeline.open(spec, RunOptions.DEFAULT)) {
            pipeline.run(spec.trigger(), p -> { });
        }

        String table = dir.resolve("out").toString();
        assertThat(DeltaTables.schema(table).orElseThrow().toDdl()).isEqualTo(SCHEMA + ", b INT");
        Transform query = Transform.compile(Schema.parseWithVariant(SCHEMA + ", b INT"), null,
                List.of("id", "to_json(v)", "schema_of_variant(v)", "to_json(s)", "b"));
        List<String> rows = DeltaTables.readRows(table).stream().sorted(Comparator.comparing(r -> (Integer) r[0]))
                .map(r -> tsv(query.apply(r)) + "\tNULL").toList();
        assertThat(rows).isEqualTo(spark.stream().filter(l -> l.endsWith("\tNULL")).toList());

        List<String> corrupt = spark.stream().filter(l -> !l.endsWith("\tNULL")).map(l -> l.substring(l.lastIndexOf('\t') + 1)).toList();
        List<String> expected = new ArrayList<>();
        for (int offset = 0; offset < values.size(); offset++) {
            if (corrupt.contains(values.get(offset))) {
                expected.add("events:0:" + offset + ":" + values.get(offset));
            }
        }
        assertThat(expected).as("the cases hold bad values").hasSize(3);
        List<JsonNode> all = TopicTail.json(Map.of("bootstrap.servers", broker.bootstrapServers()), Topics.deadLetter("kvariant"));
        List<JsonNode> letters = all.stream().filter(l -> l.path("offset").asLong() < values.size()).toList();
        assertThat(letters).extracting(l -> l.path("topic").asText() + ":" + l.path("partition").asInt() + ":"
                + l.path("offset").asLong() + ":" + l.path("text").asText()).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(letters).extracting(l -> l.path("offset").asLong() + " " + l.path("field").textValue() + " " + l.path("reason").asText()).satisfiesExactlyInAnyOrder(
                r -> assertThat(r).startsWith("5 v VARIANT_DUPLICATE_KEY: the key 'a' is written twice in one JSON object"),
                r -> assertThat(r).startsWith("6 null malformed JSON"),
                r -> assertThat(r).startsWith("8 s.v VARIANT_DUPLICATE_KEY: the key 'y' is written twice in one JSON object"));

        List<String> failed = all.stream().filter(l -> l.path("offset").asLong() >= values.size())
                .sorted(Comparator.comparing(l -> l.path("offset").asLong()))
                .map(l -> l.path("text").asText() + "\t" + l.path("reason").asText()).toList();
        List<String> expectedFailed = new ArrayList<>();
        for (int i = 0; i < failing.size(); i++) { // Spark fails on each, as ANSI casts do: a dead letter naming the expression
            String condition = sparkFailing.get(i).substring("ERROR ".length(), sparkFailing.get(i).indexOf(':'));
            expectedFailed.add(failing.get(i) + "\texpression \"v:a.b::int\" fails: " + condition);
        }
        assertThat(failed).hasSize(failing.size()).zipSatisfy(expectedFailed, (got, want) -> assertThat(got).startsWith(want));

        String keep = System.getProperty("tributary.variant.keep"); // for compat/spark's SparkVariantSources read-kafka
        if (keep != null) {
            Path target = Path.of(keep).resolve("kafka-source-table");
            if (Files.exists(target)) {
                try (var old = Files.walk(target)) {
                    old.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                }
            }
            Folders.copy(dir.resolve("out"), target);
        }
    }

    private void produce(List<String> values) throws Exception {
        try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(Map.<String, Object>of("bootstrap.servers", broker.bootstrapServers()),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            for (String v : values) {
                p.send(new ProducerRecord<>("events", 0, null, v.getBytes(StandardCharsets.UTF_8))).get();
            }
        }
    }

    private static String tsv(Object[] row) {
        List<String> cells = new ArrayList<>();
        for (Object v : row) {
            cells.add(v == null ? "NULL" : String.valueOf(v));
        }
        return String.join("\t", cells);
    }

    private static List<String> golden(String name) throws IOException {
        try (InputStream in = KafkaSourceVariantPipelineTest.class.getResourceAsStream("/golden/variant/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
    }
}
