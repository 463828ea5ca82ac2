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
 * A topic of Debezium change events whose JSON column {@code doc} Debezium writes as a string holding JSON
 * ({@code io.debezium.data.Json}), read by {@code source.kafka} with {@code format: debezium-json} and the schema
 * {@code id INT, doc VARIANT}, to a Delta table on the embedded broker: each row's {@code doc} is the VARIANT Spark's
 * {@code parse_json} makes of the text, as a Spark job reading the events with {@code from_json} and
 * {@code parse_json(after.doc)} gives it ({@code golden/variant/debezium.tsv}, recorded by compat/spark's
 * {@code SparkVariantSources debezium}); a NULL column stays NULL, a delete's row is its {@code before}. The events whose
 * text {@code parse_json} fails on (Spark fails the query: {@code debezium-failing.tsv}) are dead letters of their offset
 * naming {@code after.doc} and Spark's error class. An upsert table of the same changes ({@code mode: upsert}, keyed by
 * {@code id}, {@code sequenceBy: lsn}) keeps the VARIANT column of each key's latest change.
 */
@Tag("integration")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class DebeziumVariantPipelineTest {
    private static final String TOPIC = "pg.public.docs";

    @TempDir
    Path dir;
    @RegisterExtension
    final VariantPipelines.TopicBroker kafka = new VariantPipelines.TopicBroker(TOPIC);

    @Test
    void aDebeziumJsonColumnDeclaredVariantIsTheVariantParseJsonMakesOfIt() throws Exception {
        List<String> events = golden("debezium-cases.txt");
        List<String> failing = golden("debezium-failing.txt");
        List<String> sparkFailing = golden("debezium-failing.tsv");
        kafka.produce(events);
        kafka.produce(failing);
        VariantPipelines.run(VariantPipelines.spec(dir, """
                name: docs
                source:
                  kafka:
                    topics: [%s]
                    format: debezium-json
                    schema: "id INT, doc VARIANT"
                sink:
                  delta:
                    path: out/
                trigger: availableNow
                kafka:
                  bootstrap.servers: %s
                """.formatted(TOPIC, kafka.bootstrapServers())));

        Path table = dir.resolve("out");
        String ddl = "id INT, doc VARIANT, op STRING, lsn BIGINT";
        assertThat(VariantPipelines.tableDdl(table)).isEqualTo(ddl);
        assertThat(VariantPipelines.tableRows(table, ddl, List.of("id", "to_json(doc)", "schema_of_variant(doc)", "op", "lsn")))
                .isEqualTo(golden("debezium.tsv"));

        List<JsonNode> letters = TopicTail.json(kafka.client(), Topics.deadLetter("docs"));
        List<String> got = letters.stream().sorted(Comparator.comparing(l -> l.path("offset").asLong()))
                .map(l -> l.path("offset").asLong() + " " + l.path("field").asText() + " " + l.path("reason").asText()).toList();
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < failing.size(); i++) { // Spark's parse_json fails on each: a dead letter naming the field and the class
            expected.add((events.size() + i) + " after.doc " + VariantPipelines.sparkErrorClass(sparkFailing.get(i)) + ": ");
        }
        assertThat(got).hasSize(failing.size()).zipSatisfy(expected, (g, want) -> assertThat(g).startsWith(want));
        assertThat(got.get(1)).contains("the key 'a' is written twice");
    }

    @Test
    void anUpsertTableOfTheChangesKeepsTheVariantColumn() throws Exception {
        kafka.produce(golden("debezium-cases.txt"));
        VariantPipelines.run(VariantPipelines.spec(dir, """
                name: docsupsert
                source:
                  kafka:
                    topics: [%s]
                    format: debezium-json
                    schema: "id INT, doc VARIANT"
                sink:
                  delta:
                    path: silver/
                    mode: upsert
                    keys: [id]
                    sequenceBy: lsn
                    deleteWhen: "op = 'd'"
                    exceptColumns: [op]
                trigger: availableNow
                kafka:
                  bootstrap.servers: %s
                """.formatted(TOPIC, kafka.bootstrapServers())));

        Path table = dir.resolve("silver");
        String ddl = "id INT, doc VARIANT, lsn BIGINT";
        assertThat(VariantPipelines.tableDdl(table)).isEqualTo(ddl);
        List<String> rows = VariantPipelines.tableRows(table, ddl, List.of("id", "to_json(doc)", "schema_of_variant(doc)", "lsn"));
        List<String> expected = golden("debezium.tsv").stream().map(l -> l.split("\t", -1)) // Spark's rows less the delete, less op
                .filter(c -> !c[3].equals("d")).map(c -> String.join("\t", c[0], c[1], c[2], c[4])).toList();
        assertThat(rows).hasSize(8).isEqualTo(expected);
    }
}
