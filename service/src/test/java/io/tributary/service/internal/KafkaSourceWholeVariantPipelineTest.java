package io.tributary.service.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Kafka topic's whole JSON values as one VARIANT column, as a Spark user writes it: {@code format: string} and
 * {@code from_json(value, 'variant')}. The values are the lines of {@code golden/variant/single-variant/in/} that are not
 * blank; the table's rows, VARIANT bytes and all, are those Spark 4.2's {@code from_json(value, 'variant')} gave over the
 * same lines ({@code from-json.tsv}, recorded by compat/spark's {@code SparkSingleVariantColumn}), NULL for the value with a
 * key twice and the one cut short (PERMISSIVE).
 */
@Tag("integration")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class KafkaSourceWholeVariantPipelineTest {
    @TempDir
    Path dir;
    @RegisterExtension
    final VariantPipelines.TopicBroker kafka = new VariantPipelines.TopicBroker("events");

    @Test
    void wholeJsonValuesLandAsSparksFromJsonVariant() throws Exception {
        List<String> values = new ArrayList<>();
        for (String name : List.of("a.json", "b.json")) {
            VariantPipelines.golden("single-variant/in/" + name).stream().filter(l -> !l.isBlank()).forEach(values::add);
        }
        kafka.produce(values);
        VariantPipelines.run(VariantPipelines.spec(dir, """
                name: kwhole
                source:
                  kafka:
                    topics: [events]
                    format: string
                transform:
                  select: ["from_json(value, 'variant') AS v"]
                sink:
                  delta:
                    path: out/
                trigger: availableNow
                kafka:
                  bootstrap.servers: %s
                """.formatted(kafka.bootstrapServers())));

        Path table = dir.resolve("out");
        assertThat(VariantPipelines.tableDdl(table)).isEqualTo("v VARIANT");
        assertThat(VariantPipelines.variantBytes(table)).hasSize(values.size())
                .isEqualTo(VariantPipelines.golden("single-variant/from-json.tsv"));
    }
}
