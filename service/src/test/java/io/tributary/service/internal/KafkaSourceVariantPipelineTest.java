package io.tributary.service.internal;

import static io.tributary.service.internal.VariantPipelines.golden;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.tributary.schema.Topics;
import io.tributary.sink.TopicTail;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
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
    @RegisterExtension
    final VariantPipelines.TopicBroker kafka = new VariantPipelines.TopicBroker("events");

    @Test
    void jsonValuesWithVariantFieldsLandAsSparksFromJsonReadsThemAndBadValuesAreDeadLettersOfTheirOffset() throws Exception {
        List<String> values = golden("kafka-source-cases.txt");
        List<String> spark = golden("kafka-source.tsv");
        List<String> failing = golden("kafka-source-failing.txt");
        List<String> sparkFailing = golden("kafka-source-failing.tsv");
        kafka.produce(values);
        kafka.produce(failing);
        VariantPipelines.run(VariantPipelines.spec(dir, """
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
                """.formatted(SCHEMA, kafka.bootstrapServers())));

        Path table = dir.resolve("out");
        assertThat(VariantPipelines.tableDdl(table)).isEqualTo(SCHEMA + ", b INT");
        List<String> rows = VariantPipelines.tableRows(table, SCHEMA + ", b INT",
                List.of("id", "to_json(v)", "schema_of_variant(v)", "to_json(s)", "b")).stream().map(r -> r + "\tNULL").toList();
        assertThat(rows).isEqualTo(VariantPipelines.readWhole(spark));

        List<String> corrupt = VariantPipelines.corruptRecords(spark);
        List<String> expected = new ArrayList<>();
        for (int offset = 0; offset < values.size(); offset++) {
            if (corrupt.contains(values.get(offset))) {
                expected.add("events:0:" + offset + ":" + values.get(offset));
            }
        }
        assertThat(expected).as("the cases hold bad values").hasSize(3);
        List<JsonNode> all = TopicTail.json(kafka.client(), Topics.deadLetter("kvariant"));
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
            expectedFailed.add(failing.get(i) + "\texpression \"v:a.b::int\" fails: " + VariantPipelines.sparkErrorClass(sparkFailing.get(i)));
        }
        assertThat(failed).hasSize(failing.size()).zipSatisfy(expectedFailed, (got, want) -> assertThat(got).startsWith(want));

        VariantPipelines.keepTable(table, "kafka-source-table"); // for compat/spark's SparkVariantSources read-kafka
    }
}
