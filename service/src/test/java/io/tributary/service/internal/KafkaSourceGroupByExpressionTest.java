package io.tributary.service.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.EmbeddedBroker;
import io.tributary.schema.Timestamps;
import io.tributary.service.spec.PipelineSpec;
import io.tributary.sink.DeltaTables;
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
 * Spark's {@code readStream.format("kafka")...groupBy(window(ts, "10 minutes"), expr("upper(user)").alias("u"))
 * .agg(expr("sum(amt * 2)"), count("*"), expr("sum(amt * 2) / count(*)"), expr("max(amt) - min(amt)"))}: the aggregation's source tasks compute the expressions with the transform.
 */
@Tag("integration")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class KafkaSourceGroupByExpressionTest {
    @TempDir
    Path dir;
    private EmbeddedBroker broker;

    @BeforeEach
    void startBroker() throws Exception {
        broker = EmbeddedBroker.start(dir.resolve("kafka"));
    }

    @AfterEach
    void stopBroker() {
        broker.close();
    }

    @Test
    void aKafkaSourcesRowsAreGroupedByAnExpressionAndAggregatedOverOne() throws Exception {
        Path f = dir.resolve("pipeline.yaml");
        Files.writeString(f, """
                name: kexpr
                source:
                  kafka:
                    topics: [orders]
                    schema: "id INT, user STRING, amt DOUBLE, ts TIMESTAMP"
                aggregate:
                  eventTime: ts
                  watermark: 10 minutes
                  window: 10 minutes
                  groupBy: ["upper(user) AS u"]
                  select: { t: "sum(amt * 2)", n: "count(*)", avg2: "sum(amt * 2) / count(*)", spread: "max(amt) - min(amt)" }
                sink:
                  delta:
                    path: out/
                trigger: availableNow
                """ + "kafka:\n  bootstrap.servers: " + broker.bootstrapServers() + "\n");
        Map<String, Object> props = Map.of("bootstrap.servers", broker.bootstrapServers());
        TopicAdmin.ensure(props, 1, java.util.Optional.empty(), "orders");
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (String v : List.of("{\"id\": 1, \"user\": \"ann\", \"amt\": 1.0, \"ts\": \"2026-01-01T10:00:00Z\"}",
                    "{\"id\": 2, \"user\": \"Ann\", \"amt\": 2.0, \"ts\": \"2026-01-01T10:01:00Z\"}",
                    "{\"id\": 3, \"user\": \"bob\", \"amt\": 4.0, \"ts\": \"2026-01-01T10:02:00Z\"}",
                    "{\"id\": 4, \"user\": \"ann\", \"amt\": 8.0, \"ts\": \"2026-01-01T10:12:00Z\"}",
                    "{\"id\": 5, \"user\": \"cy\", \"amt\": 1.0, \"ts\": \"2026-01-01T11:00:00Z\"}")) {
                producer.send(new ProducerRecord<>("orders", 0, null, v.getBytes(StandardCharsets.UTF_8))).get();
            }
        }
        PipelineSpec spec = PipelineSpec.load(f, Map.of(), Map.of());
        try (Pipeline pipeline = Pipeline.open(spec, RunOptions.DEFAULT)) {
            pipeline.run(spec.trigger(), p -> { });
        }

        List<String> windows = DeltaTables.readRows(dir.resolve("out").toString()).stream()
                .map(r -> Timestamps.formatMicros((Long) ((Object[]) r[0])[0]) + "|" + r[1] + "|" + r[2] + "|" + r[3] + "|" + r[4] + "|" + r[5]).toList();
        // the 11:00 window is still open at the watermark 10:50
        assertThat(windows).containsExactlyInAnyOrder("2026-01-01T10:00:00Z|ANN|6.0|2|3.0|1.0", "2026-01-01T10:00:00Z|BOB|8.0|1|8.0|0.0",
                "2026-01-01T10:10:00Z|ANN|16.0|1|16.0|0.0");
    }
}
