package io.tributary.service.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.EmbeddedBroker;
import io.tributary.service.spec.PipelineSpec;
import io.tributary.sink.DeltaTables;
import io.tributary.sink.TableCommit;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
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
 * {@code current_timestamp()} over a Kafka source, two availableNow runs on a real broker: each run's rows carry one
 * value, taken after the run started and before the table version that holds them; the second run's a later one.
 */
@Tag("integration")
@Tag("scenarios")
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class KafkaSourceBatchTimeTest {
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

    private void send(int... ids) throws Exception {
        Map<String, Object> props = Map.of("bootstrap.servers", broker.bootstrapServers());
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int id : ids) {
                producer.send(new ProducerRecord<>("orders", 0, null, ("{\"id\": " + id + "}").getBytes(StandardCharsets.UTF_8))).get();
            }
        }
    }

    private void run(Path f) throws Exception {
        PipelineSpec spec = PipelineSpec.load(f, Map.of(), Map.of());
        try (Pipeline pipeline = Pipeline.open(spec, RunOptions.DEFAULT)) {
            pipeline.run(spec.trigger(), p -> { });
        }
    }

    private Set<Long> at(int fromId, int toId) {
        Set<Long> values = new TreeSet<>();
        for (Object[] r : DeltaTables.readRows(dir.resolve("out").toString())) {
            if ((Integer) r[0] >= fromId && (Integer) r[0] <= toId) {
                values.add((Long) r[1] / 1000L);
            }
        }
        return values;
    }

    private long lastCommitMs() {
        return DeltaTables.history(dir.resolve("out").toString()).stream().mapToLong(TableCommit::timestamp).max().orElseThrow();
    }

    @Test
    void eachRunsRowsCarryOneValueAndTheNextRunsALaterOne() throws Exception {
        Path f = dir.resolve("pipeline.yaml");
        Files.writeString(f, """
                name: ktime
                source:
                  kafka:
                    topics: [orders]
                    schema: "id INT"
                transform:
                  select: [id, "current_timestamp() AS at"]
                sink:
                  delta:
                    path: out/
                trigger: availableNow
                """ + "kafka:\n  bootstrap.servers: " + broker.bootstrapServers() + "\n");
        TopicAdmin.ensure(Map.of("bootstrap.servers", broker.bootstrapServers()), 1, java.util.Optional.empty(), "orders");
        send(1, 2, 3);
        long before1 = System.currentTimeMillis();
        run(f);
        long commit1 = lastCommitMs();
        send(4, 5);
        long before2 = System.currentTimeMillis();
        run(f);
        long commit2 = lastCommitMs();

        Set<Long> first = at(1, 3);
        Set<Long> second = at(4, 5);
        assertThat(first).as("one value for the first run's rows").hasSize(1);
        assertThat(second).as("one value for the second run's rows").hasSize(1);
        assertThat(first.iterator().next()).isBetween(before1, commit1);
        assertThat(second.iterator().next()).isBetween(before2, commit2).isGreaterThan(first.iterator().next());
    }
}
