package io.tributary.service.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.EmbeddedBroker;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Readiness follows the broker; lag is what is committed to a topic minus where the stage stands. */
@Tag("integration")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class KafkaProbeTest {
    @TempDir
    Path dir;

    @Test
    void lagPerPartitionAndNotReadyOnceTheBrokerIsGone() throws Exception {
        EmbeddedBroker broker = EmbeddedBroker.start(dir.resolve("kafka"));
        boolean closed = false;
        Map<String, Object> client = Map.of("bootstrap.servers", broker.bootstrapServers());
        try (Admin admin = Admin.create(client)) {
            admin.createTopics(List.of(new NewTopic("tributary.p.events", Optional.of(2), Optional.empty()))).all().get();
        }
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(client, new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < 5; i++) {
                producer.send(new ProducerRecord<>("tributary.p.events", 0, null, "{}"));
            }
            producer.send(new ProducerRecord<>("tributary.p.events", 1, null, "{}"));
        }
        try (PipelineMetrics metrics = new PipelineMetrics("p");
             KafkaProbe probe = KafkaProbe.start(client, metrics, java.time.Duration.ofHours(1))) {
            metrics.position("p/sink", "tributary.p.events", Map.of(0, 2L, 1, 1L));
            probe.probe();
            assertThat(probe.problem()).isNull();
            assertThat(metrics.scrape())
                    .contains("tributary_stage_lag_records{partition=\"0\",pipeline=\"p\",stage=\"p/sink\",topic=\"tributary.p.events\"} 3.0")
                    .contains("tributary_stage_lag_records{partition=\"1\",pipeline=\"p\",stage=\"p/sink\",topic=\"tributary.p.events\"} 0.0");

            closed = true;
            broker.close();
            probe.probe();
            assertThat(probe.problem()).startsWith("the Kafka cluster does not answer");
        } finally {
            if (!closed) {
                broker.close();
            }
        }
    }
}
