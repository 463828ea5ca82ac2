package io.tributary.source;

import static io.tributary.source.TestTable.row;
import static io.tributary.source.TestTable.rows;
import static org.assertj.core.api.Assertions.assertThat;

import io.delta.kernel.types.DoubleType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructType;
import io.delta.kernel.types.TimestampType;
import io.tributary.broker.BrokerExtension;
import io.tributary.kafka.KeyPartition;
import io.tributary.kafka.SettledLog;
import io.tributary.schema.Progress;
import io.tributary.schema.Schema;
import io.tributary.schema.Topics;
import io.tributary.schema.TributaryException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The delta-source under an aggregation: group-by rows placed by their key, event times as record
 * timestamps, and Spark's watermark as a marker on every partition at the end of each batch, the
 * no-data batch included, resumed exactly by a new instance.
 */
@Tag("integration")
class WatermarkMarkersTest {
    static final Schema SCHEMA = Schema.parse("ts TIMESTAMP, user STRING, amt DOUBLE");
    static final StructType KERNEL = new StructType()
            .add("ts", TimestampType.TIMESTAMP, true).add("user", StringType.STRING, true).add("amt", DoubleType.DOUBLE, true);
    static final int PARTITIONS = 3;
    private static final AtomicInteger PIPELINES = new AtomicInteger();

    @RegisterExtension
    static final BrokerExtension KAFKA = new BrokerExtension();

    @TempDir
    Path dir;

    /** One record of the events topic as a reader sees it. */
    record Event(int partition, long timestamp, boolean marker, String value) {
    }

    static long micros(String instant) {
        return Instant.parse(instant).toEpochMilli() * 1000L;
    }

    static long ms(String instant) {
        return Instant.parse(instant).toEpochMilli();
    }

    Map<String, Object> kafka() {
        return KAFKA.client();
    }

    DeltaSourceConfig config(TestTable t) throws Exception {
        String pipeline = "gold" + PIPELINES.incrementAndGet();
        try (Admin admin = Admin.create(kafka())) {
            admin.createTopics(List.of(new NewTopic(Topics.events(pipeline), PARTITIONS, (short) 1))).all().get();
        }
        return DeltaSourceConfig.builder(pipeline, t.path).startingVersion("1").maxFilesPerTrigger(1)
                .eventTime("ts").watermarkDelay(Duration.ofSeconds(10)).groupBy(List.of("user"))
                .rowsPerRecord(1).build(); // a record per row: each row's record timestamp is its event time
    }

    List<Event> events(DeltaSourceConfig c) {
        List<Event> out = new ArrayList<>();
        SettledLog.read(kafka(), c.topic(), "test-events-reader", () -> new TributaryException("no topic " + c.topic()),
                "reading " + c.topic(), r -> out.add(new Event(r.partition(), r.timestamp(),
                        r.headers().lastHeader(Topics.MARKER_HEADER) != null, new String(r.value(), StandardCharsets.UTF_8))));
        return out;
    }

    /** The marker values of each partition, in order. */
    static Map<Integer, List<String>> markers(List<Event> events) {
        Map<Integer, List<String>> out = new TreeMap<>();
        for (Event e : events) {
            if (e.marker()) {
                out.computeIfAbsent(e.partition(), p -> new ArrayList<>()).add(e.value());
            }
        }
        return out;
    }

    static String marker(long batchId, String watermark) {
        return "{\"batchId\":" + batchId + ",\"watermarkMs\":" + (watermark == null ? "0" : String.valueOf(ms(watermark))) + "}";
    }

    @Test
    void everyBatchEndsWithSparksWatermarkOnEveryPartitionAndARestartGoesOnFromTheStoredOne() throws Exception {
        TestTable t = TestTable.create(dir.resolve("silver"), SCHEMA, KERNEL, Map.of());
        t.append(rows(row(micros("2026-01-01T10:00:00Z"), "a", 1.0), row(micros("2026-01-01T10:00:05Z"), "b", 2.0)));
        t.append(rows(row(micros("2026-01-01T10:00:30Z"), "a", 3.0)));
        DeltaSourceConfig c = config(t);

        try (DeltaSource source = new DeltaSource(c, kafka())) {
            Progress b0 = source.runBatch().orElseThrow();
            assertThat(b0.batchId()).isZero();
            assertThat(b0.eventTime()).containsEntry("watermark", "1970-01-01T00:00:00.000Z")
                    .containsEntry("max", "2026-01-01T10:00:05.000Z");
            Progress b1 = source.runBatch().orElseThrow();
            assertThat(b1.batchId()).isEqualTo(1);
            assertThat(b1.eventTime()).containsEntry("watermark", "2026-01-01T09:59:55.000Z");
            // no new commit: Spark's no-data batch carries the watermark batch 1's rows moved
            Progress b2 = source.runBatch().orElseThrow();
            assertThat(b2.batchId()).isEqualTo(2);
            assertThat(b2.numInputRows()).isZero();
            assertThat(b2.eventTime()).containsEntry("watermark", "2026-01-01T10:00:20.000Z");
            assertThat(source.runBatch()).isEmpty();
        }

        List<Event> events = events(c);
        List<String> expected = List.of(marker(0, null), marker(1, "2026-01-01T09:59:55Z"), marker(2, "2026-01-01T10:00:20Z"));
        assertThat(markers(events)).containsOnlyKeys(0, 1, 2).allSatisfy((p, m) -> assertThat(m).isEqualTo(expected));
        int partitionOfA = KeyPartition.of("[\"a\"]".getBytes(StandardCharsets.UTF_8), PARTITIONS);
        int partitionOfB = KeyPartition.of("[\"b\"]".getBytes(StandardCharsets.UTF_8), PARTITIONS);
        List<Event> rows = events.stream().filter(e -> !e.marker()).toList();
        assertThat(rows).hasSize(3);
        for (Event e : rows) {
            assertThat(e.partition()).isEqualTo(e.value().contains("\"a\"") ? partitionOfA : partitionOfB);
        }
        assertThat(rows).extracting(Event::timestamp)
                .containsExactlyInAnyOrder(ms("2026-01-01T10:00:00Z"), ms("2026-01-01T10:00:05Z"), ms("2026-01-01T10:00:30Z"));
        // on a's partition: batch 0's row, marker 0, batch 1's row, marker 1, marker 2
        List<String> onA = events.stream().filter(e -> e.partition() == partitionOfA).map(e -> e.marker() ? e.value() : "row").toList();
        assertThat(onA.subList(onA.size() - 4, onA.size())).containsExactly(expected.get(0), "row", expected.get(1), expected.get(2));

        t.append(rows(row(micros("2026-01-01T10:01:00Z"), "c", 4.0)));
        try (DeltaSource restarted = new DeltaSource(c, kafka())) {
            Progress b3 = restarted.runBatch().orElseThrow();
            assertThat(b3.batchId()).isEqualTo(3);
            assertThat(b3.eventTime()).containsEntry("watermark", "2026-01-01T10:00:20.000Z");
            Progress b4 = restarted.runBatch().orElseThrow();
            assertThat(b4.batchId()).isEqualTo(4);
            assertThat(b4.eventTime()).containsEntry("watermark", "2026-01-01T10:00:50.000Z");
            assertThat(restarted.runBatch()).isEmpty();
        }
        try (DeltaSource again = new DeltaSource(c, kafka())) {
            assertThat(again.runBatch()).isEmpty(); // the stored watermark is the last one: no no-data batch again
        }
        assertThat(markers(events(c)).get(0)).endsWith(marker(3, "2026-01-01T10:00:20Z"), marker(4, "2026-01-01T10:00:50Z"));
    }

    @Test
    void withoutAWatermarkEveryDataBatchStillEndsWithAMarkerAndNoNoDataBatchRuns() throws Exception {
        TestTable t = TestTable.create(dir.resolve("silver"), SCHEMA, KERNEL, Map.of());
        t.append(rows(row(micros("2026-01-01T10:00:00Z"), "a", 1.0)));
        DeltaSourceConfig c = config(t).toBuilder().watermarkDelay(null).build();
        try (DeltaSource source = new DeltaSource(c, kafka())) {
            assertThat(source.runBatch()).map(Progress::batchId).isEqualTo(Optional.of(0L));
            assertThat(source.runBatch()).isEmpty();
        }
        assertThat(markers(events(c))).containsOnlyKeys(0, 1, 2)
                .allSatisfy((p, m) -> assertThat(m).containsExactly("{\"batchId\":0,\"watermarkMs\":null}"));
    }
}
