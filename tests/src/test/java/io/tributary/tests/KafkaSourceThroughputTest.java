package io.tributary.tests;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.sink.DeltaTables;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rows per second of {@code tributary run --trigger availableNow} landing a 6-partition topic of
 * JSON records another producer wrote (issue 38's measurement, the Tributary side): a measurement,
 * run by the soak profile ({@code ./mvnw -Psoak -pl tests -am verify -Dit.test=KafkaSourceThroughputTest}).
 * {@code -Dtributary.kafkaSource.rows} (1,000,000) records, one row each, on the embedded broker.
 */
@Tag("soak")
@Timeout(1800)
class KafkaSourceThroughputTest {
    static final int ROWS = Integer.getInteger("tributary.kafkaSource.rows", 1_000_000);

    @TempDir
    Path dir;

    @Test
    void aMillionJsonRecordsOfSixPartitionsIntoATable() throws Exception {
        try (SourceTopics kafka = new SourceTopics(dir)) {
            try (Admin admin = Admin.create(kafka.client())) {
                admin.createTopics(List.of(new NewTopic("orders", 6, (short) 1))).all().get();
            }
            long p0 = System.nanoTime();
            try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(Map.of("bootstrap.servers", kafka.broker.bootstrapServers(),
                    "linger.ms", 20, "batch.size", 512 * 1024, "compression.type", "lz4"), new ByteArraySerializer(), new ByteArraySerializer())) {
                for (int i = 0; i < ROWS; i++) {
                    String v = "{\"id\": " + i + ", \"user\": \"u" + (i % 1000) + "\", \"amt\": " + (i % 977) + ".25, \"ts\": \"2026-01-01T10:"
                            + String.format("%02d", i % 60) + ":00Z\"}";
                    p.send(new ProducerRecord<>("orders", i % 6, null, v.getBytes(StandardCharsets.UTF_8)));
                }
                p.flush();
            }
            long produceMs = (System.nanoTime() - p0) / 1_000_000;
            Workspace ws = new Workspace(dir, "name: orders\nsource:\n  kafka:\n    topics: [orders]\n"
                    + "    schema: \"id INT, user STRING, amt DOUBLE, ts TIMESTAMP\"\n"
                    + "sink:\n  delta:\n    path: out/\n"
                    + "kafka:\n  bootstrap.servers: \"" + kafka.broker.bootstrapServers() + "\"\n");
            long t0 = System.nanoTime();
            ws.tributary("run", "--trigger", "availableNow").assertOk();
            long runMs = (System.nanoTime() - t0) / 1_000_000;
            long rows = DeltaTables.readRows(dir.resolve("out").toString()).size();
            assertThat(rows).isEqualTo(ROWS);
            System.out.printf("kafka source: %d JSON records (6 partitions) produced in %d ms; availableNow run into Delta %d ms,"
                    + " %.0f rows/s%n", ROWS, produceMs, runMs, ROWS * 1000.0 / runMs);
        }
    }
}
