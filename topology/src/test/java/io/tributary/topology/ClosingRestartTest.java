package io.tributary.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.EmbeddedBroker;
import io.tributary.schema.RowPack;
import io.tributary.schema.Topics;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A marker's closing that takes several transactions survives a restart in its middle: the
 * application started again goes on from the last step it committed, and the results topic
 * holds every closed window once, then the marker with the batch's whole count.
 */
@Tag("integration")
@Tag("scenarios")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class ClosingRestartTest {
    private static final String EVENTS = "tributary.c.events";
    private static final String RESULTS = "tributary.c.results";
    private static final int ROWS = 80;
    /** Every row opens a window of its own (user i mod 3, 7 minutes apart); the last two stay open. */
    private static final int CLOSED = ROWS - 2;

    @TempDir
    Path dir;

    @Test
    void aRestartInTheMiddleOfAClosingWritesEveryWindowOnce() throws Exception {
        AggregateSpec spec = GoldenWindowsTest.goldenSpec();
        try (EmbeddedBroker broker = EmbeddedBroker.start(dir.resolve("kafka"));
             Admin admin = Admin.create(Map.of("bootstrap.servers", broker.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(EVENTS, 1, (short) 1).configs(Topics.EVENT_TIME_TOPIC_CONFIG),
                    new NewTopic(RESULTS, 1, (short) 1).configs(Topics.EVENT_TIME_TOPIC_CONFIG))).all().get();
            Instant t0 = Instant.parse("2026-01-01T10:00:00Z");
            try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.<String, Object>of("bootstrap.servers",
                    broker.bootstrapServers()), new ByteArraySerializer(), new ByteArraySerializer())) {
                RowPack rows = new RowPack(1 << 20);
                for (int i = 0; i < ROWS; i++) {
                    rows.add(bytes("{\"id\":" + i + ",\"user\":\"u" + i % 3 + "\",\"amt\":1.0,\"ts\":\"" + t0.plusSeconds(420L * i) + "\"}"), 0);
                }
                producer.send(new ProducerRecord<>(EVENTS, 0, null, rows.take())).get();
                producer.send(marker(0, null)).get();
                producer.send(marker(1, t0.plusSeconds(420L * (ROWS - 1) - 300).toEpochMilli())).get();
            }
            var props = WindowedAggregation.streamsConfig("closing", broker.bootstrapServers(), dir.resolve("streams"), "closing-1");
            Map<String, Object> client = Map.of("bootstrap.servers", broker.bootstrapServers());

            // a window start per step: the closing takes some fifty transactions
            try (KafkaStreams first = new KafkaStreams(WindowedAggregation.build(spec, EVENTS, RESULTS, null, 1), props)) {
                first.start();
                await("the first steps committed").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(20))
                        .until(() -> !committed(client).isEmpty());
                first.close(Duration.ofSeconds(30));
            }
            List<String> beforeRestart = committed(client);
            assertThat(beforeRestart).as("stopped in the middle of the closing").hasSizeLessThan(CLOSED)
                    .noneMatch(v -> v.startsWith("marker") && v.contains("\"batchId\":1"));

            try (KafkaStreams second = new KafkaStreams(WindowedAggregation.build(spec, EVENTS, RESULTS, null, 1), props)) {
                second.start();
                await("the closing's marker").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(50))
                        .until(() -> committed(client).stream().anyMatch(v -> v.startsWith("marker") && v.contains("\"batchId\":1")));
                second.close(Duration.ofSeconds(30));
            }
            List<String> out = committed(client);
            List<String> rows = out.stream().filter(v -> !v.startsWith("marker")).toList();
            assertThat(rows).as("every closed window").hasSize(CLOSED);
            assertThat(new HashSet<>(rows)).as("each once").hasSize(CLOSED);
            assertThat(out.get(out.size() - 1)).as("the marker follows the rows, with the batch's whole count")
                    .contains("\"batchId\":1").contains("\"" + AggregateMetrics.MARKER_OUTPUT_ROWS + "\":" + CLOSED);
        }
    }

    private static ProducerRecord<byte[], byte[]> marker(long batchId, Long watermarkMs) {
        RecordHeaders headers = new RecordHeaders();
        headers.add(Topics.MARKER_HEADER, Topics.WATERMARK);
        return new ProducerRecord<>(EVENTS, 0, null, null, bytes("{\"batchId\":" + batchId + ",\"watermarkMs\":" + watermarkMs + "}"), headers);
    }

    /** The results topic's committed records: each result row's JSON, and each marker as {@code marker <json>}. */
    private static List<String> committed(Map<String, Object> client) {
        Map<String, Object> props = new java.util.HashMap<>(client);
        props.put("isolation.level", "read_committed");
        List<String> out = new ArrayList<>();
        TopicPartition tp = new TopicPartition(RESULTS, 0);
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            long end = consumer.endOffsets(List.of(tp)).get(tp);
            while (consumer.position(tp) < end) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                    var h = r.headers().lastHeader(Topics.MARKER_HEADER);
                    if (h != null && Arrays.equals(h.value(), Topics.WATERMARK)) {
                        out.add("marker " + new String(r.value(), StandardCharsets.UTF_8));
                    } else {
                        RowPack.forEachRow(r.value(), (b, o, l) -> out.add(new String(b, o, l, StandardCharsets.UTF_8)));
                    }
                }
            }
        }
        return out;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
