package io.tributary.service.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.EmbeddedBroker;
import io.tributary.expressions.Transform;
import io.tributary.schema.Schema;
import io.tributary.schema.VariantValue;
import io.tributary.service.spec.PipelineSpec;
import io.tributary.sink.DeltaTables;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
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
    void wholeJsonValuesLandAsSparksFromJsonVariant() throws Exception {
        List<String> values = new ArrayList<>();
        for (String name : List.of("a.json", "b.json")) {
            golden("in/" + name).stream().filter(l -> !l.isBlank()).forEach(values::add);
        }
        try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(Map.<String, Object>of("bootstrap.servers", broker.bootstrapServers()),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            for (String v : values) {
                p.send(new ProducerRecord<>("events", 0, null, v.getBytes(StandardCharsets.UTF_8))).get();
            }
        }
        Path specFile = dir.resolve("pipeline.yaml");
        Files.writeString(specFile, """
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
                """.formatted(broker.bootstrapServers()));
        PipelineSpec spec = PipelineSpec.load(specFile, Map.of(), Map.of());
        try (Pipeline pipeline = Pipeline.open(spec, RunOptions.DEFAULT)) {
            pipeline.run(spec.trigger(), p -> { });
        }

        String table = dir.resolve("out").toString();
        assertThat(DeltaTables.schema(table).orElseThrow().toDdl()).isEqualTo("v VARIANT");
        Transform query = Transform.compile(Schema.parseWithVariant("v VARIANT"), null, List.of("to_json(v)", "schema_of_variant(v)"));
        List<String> rows = new ArrayList<>();
        for (Object[] r : DeltaTables.readRows(table)) {
            Object[] q = query.apply(r);
            VariantValue v = (VariantValue) r[0];
            rows.add(String.join("\t", q[0] == null ? "NULL" : String.valueOf(q[0]).replace("\t", "\\t").replace("\n", "\\n"),
                    q[1] == null ? "NULL" : String.valueOf(q[1]), v == null ? "NULL" : HexFormat.of().formatHex(v.value()),
                    v == null ? "NULL" : HexFormat.of().formatHex(v.metadata())));
        }
        rows.sort(null);
        assertThat(rows).hasSize(values.size()).isEqualTo(golden("from-json.tsv"));
    }

    private static List<String> golden(String name) throws IOException {
        try (InputStream in = KafkaSourceWholeVariantPipelineTest.class.getResourceAsStream("/golden/variant/single-variant/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
    }
}
