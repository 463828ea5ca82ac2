package io.tributary.ingest;

import static io.tributary.ingest.IngestKit.readCommitted;
import static io.tributary.ingest.IngestKit.text;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.broker.BrokerExtension;
import io.tributary.schema.Progress;
import io.tributary.schema.Schema;
import io.tributary.schema.Topics;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The watermark markers of the golden cases: on every partition of the events topic, at the
 * end of each batch, the batch's watermark as Spark computes it, and Spark's no-data batch when
 * the data seen so far moved it and no file is waiting.
 */
@Tag("integration")
@Timeout(180)
class WatermarkMarkersTest {
    static final Schema SCHEMA = Schema.parse("id INT, user STRING, amt DOUBLE, ts TIMESTAMP");
    static final ObjectMapper JSON = new ObjectMapper();
    static final int PARTITIONS = 3;
    static final long WM_0926 = Instant.parse("2026-10-06T09:26:00Z").toEpochMilli();
    static final long WM_0942 = Instant.parse("2026-10-06T09:42:00Z").toEpochMilli();

    @TempDir
    static Path tmp;
    @RegisterExtension
    static final BrokerExtension KAFKA = new BrokerExtension();

    /** A marker as read back: partition, batch id, watermark. */
    record Marker(int partition, long batchId, long watermarkMs) {
    }

    private IngestConfig config(String name, int maxFiles) {
        IngestConfig c = IngestConfig.builder(IngestKit.uniquePipeline(name), tmp.resolve(name + "/in"), SCHEMA)
                .eventTime("ts").watermarkDelay(Duration.ofMinutes(5)).groupBy(List.of("user"))
                .maxFilesPerTrigger(maxFiles).build();
        IngestKit.createTopics(KAFKA.broker(), c, PARTITIONS);
        return c;
    }

    private static void copyGolden(String resource, Path dir, String name, long mtimeMs) throws IOException {
        Files.createDirectories(dir);
        try (InputStream in = WatermarkMarkersTest.class.getResourceAsStream("/golden/windows/" + resource)) {
            Files.write(dir.resolve(name), in.readAllBytes());
        }
        Files.setLastModifiedTime(dir.resolve(name), FileTime.fromMillis(mtimeMs));
    }

    /** The golden file's {@code batches 0:3,1:3,2:0} line. */
    private static String goldenBatches(String resource) throws IOException {
        try (InputStream in = WatermarkMarkersTest.class.getResourceAsStream("/golden/windows/" + resource)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
                    .filter(l -> l.startsWith("batches ")).findFirst().orElseThrow().substring("batches ".length());
        }
    }

    /** Runs batches until there is nothing to do, as an availableNow run does, with a new ingest. */
    private static List<Progress> availableNowRun(IngestConfig config) {
        return availableNowRun(config, false);
    }

    /** As {@link #availableNowRun(IngestConfig)}; {@code endsWhenIngested}: as the service runs availableNow. */
    private static List<Progress> availableNowRun(IngestConfig config, boolean endsWhenIngested) {
        List<Progress> out = new ArrayList<>();
        try (FileIngest ingest = FileIngest.builder(config, IngestKit.props(KAFKA.broker())).endsWhenIngested(endsWhenIngested).build()) {
            Optional<Progress> p;
            while ((p = ingest.runBatch()).isPresent()) {
                out.add(p.get());
            }
        }
        return out;
    }

    private static String batches(List<Progress> run) {
        return run.stream().map(p -> p.batchId() + ":" + p.numInputRows()).collect(Collectors.joining(","));
    }

    @Test
    void caseLateOneRunPutsSparksWatermarksOnEveryPartition() throws Exception {
        IngestConfig config = config("late-one-run", 1);
        copyGolden("case-late-one-run/run1-file1.json", config.inputDir(), "run1-file1.json", 1_000);
        copyGolden("case-late-one-run/run1-file2.json", config.inputDir(), "run1-file2.json", 2_000);

        List<Progress> run = availableNowRun(config);

        assertThat(batches(run)).isEqualTo(goldenBatches("case-late-one-run/after-run1.txt")).isEqualTo("0:3,1:3,2:0");
        assertThat(run).extracting(p -> p.eventTime().get("watermark"))
                .containsExactly("1970-01-01T00:00:00.000Z", "2026-10-06T09:26:00.000Z", "2026-10-06T09:42:00.000Z");
        assertThat(run.get(0).eventTime()).containsEntry("max", "2026-10-06T09:31:00.000Z").containsEntry("min", "2026-10-06T09:02:00.000Z");
        assertThat(run.get(2).sink().metrics()).containsEntry("numWatermarkMarkers", (long) PARTITIONS);

        List<ConsumerRecord<byte[], byte[]>> events = readCommitted(KAFKA.broker(), config.eventsTopic());
        List<Marker> markers = new ArrayList<>();
        Map<String, Integer> partitionOfUser = new HashMap<>();
        Map<String, Long> newest = new HashMap<>();
        for (int p = 0; p < PARTITIONS; p++) {
            int markersSeen = 0;
            for (ConsumerRecord<byte[], byte[]> r : events) {
                if (r.partition() != p) {
                    continue;
                }
                Header h = r.headers().lastHeader(Topics.MARKER_HEADER);
                if (h != null) {
                    assertThat(h.value()).isEqualTo(Topics.WATERMARK);
                    assertThat(r.key()).isNull();
                    JsonNode v = JSON.readTree(r.value());
                    markers.add(new Marker(p, v.get("batchId").asLong(), v.get("watermarkMs").asLong()));
                    assertThat(r.timestamp()).isEqualTo(v.get("watermarkMs").asLong());
                    markersSeen++;
                    continue;
                }
                JsonNode row = JSON.readTree(r.value());
                int id = row.get("id").asInt();
                String user = row.get("user").asText();
                // rows of batch 0 (ids 1-3) come before marker 0, rows of batch 1 (ids 4-6) before marker 1
                assertThat(markersSeen).as("markers before row %d", id).isEqualTo(id <= 3 ? 0 : 1);
                // packed records have no key; a user's rows are where Kafka's default partitioner puts its key
                assertThat(r.key()).isNull();
                byte[] key = ("[\"" + user + "\"]").getBytes(StandardCharsets.UTF_8);
                assertThat(r.partition()).isEqualTo(Utils.toPositive(Utils.murmur2(key)) % PARTITIONS);
                // a record's timestamp is the newest event time of its rows
                long ts = Instant.parse(row.get("ts").asText()).toEpochMilli();
                newest.merge(r.offset() + "@" + p, ts, Math::max);
                assertThat(r.timestamp()).isGreaterThanOrEqualTo(ts);
                assertThat(partitionOfUser.computeIfAbsent(user, u -> r.partition())).isEqualTo(r.partition());
            }
        }
        for (ConsumerRecord<byte[], byte[]> r : events) {
            if (r.headers().lastHeader(Topics.MARKER_HEADER) == null) {
                assertThat(r.timestamp()).isEqualTo(newest.get(r.offset() + "@" + r.partition()));
            }
        }
        List<Marker> expected = new ArrayList<>();
        for (int p = 0; p < PARTITIONS; p++) {
            expected.add(new Marker(p, 0, 0));
            expected.add(new Marker(p, 1, WM_0926));
            expected.add(new Marker(p, 2, WM_0942));
        }
        assertThat(markers).containsExactlyElementsOf(expected);
        assertThat(events.size() - markers.size()).isEqualTo(6);

        // a restart finds the no-data batch done: nothing more to publish
        assertThat(availableNowRun(config)).isEmpty();
        assertThat(FileIngest.readStatus(config, IngestKit.props(KAFKA.broker()))).satisfies(s -> {
            assertThat(s.nextBatchId()).isEqualTo(3);
            assertThat(s.watermarkMs()).isEqualTo(WM_0942);
            assertThat(s.maxEventTimeMs()).isEqualTo(Instant.parse("2026-10-06T09:47:00Z").toEpochMilli());
        });
    }

    @Test
    void caseLateTwoRunsEndsEachRunWithANoDataBatch() throws Exception {
        IngestConfig config = config("late-two-runs", Integer.MAX_VALUE);
        copyGolden("case-late-two-runs/run1.json", config.inputDir(), "run1.json", 1_000);
        List<Progress> run1 = availableNowRun(config);
        assertThat(batches(run1)).isEqualTo(goldenBatches("case-late-two-runs/after-run1.txt"));

        copyGolden("case-late-two-runs/run2.json", config.inputDir(), "run2.json", 2_000);
        List<Progress> run2 = availableNowRun(config);
        assertThat(batches(run2)).isEqualTo(goldenBatches("case-late-two-runs/after-run2.txt"));
        assertThat(run2).extracting(p -> p.eventTime().get("watermark"))
                .containsExactly("2026-10-06T09:26:00.000Z", "2026-10-06T09:42:00.000Z");

        List<Marker> markers = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : readCommitted(KAFKA.broker(), config.eventsTopic())) {
            if (r.headers().lastHeader(Topics.MARKER_HEADER) != null) {
                JsonNode v = JSON.readTree(r.value());
                markers.add(new Marker(r.partition(), v.get("batchId").asLong(), v.get("watermarkMs").asLong()));
            }
        }
        assertThat(markers).hasSize(4 * PARTITIONS);
        for (int p = 0; p < PARTITIONS; p++) {
            final int partition = p;
            assertThat(markers.stream().filter(m -> m.partition() == partition).toList()).containsExactly(
                    new Marker(p, 0, 0), new Marker(p, 1, WM_0926), new Marker(p, 2, WM_0926), new Marker(p, 3, WM_0942));
        }
    }

    @Test
    void theLastDataBatchOfARunThatEndsWhenIngestedCarriesItsNoDataBatch() throws Exception {
        IngestConfig config = config("one-transaction", 1);
        copyGolden("case-late-one-run/run1-file1.json", config.inputDir(), "run1-file1.json", 1_000);
        copyGolden("case-late-one-run/run1-file2.json", config.inputDir(), "run1-file2.json", 2_000);

        List<Progress> run = availableNowRun(config, true);

        // the same batches, watermarks and progress lines as two transactions
        assertThat(batches(run)).isEqualTo("0:3,1:3,2:0");
        assertThat(run).extracting(p -> p.eventTime().get("watermark"))
                .containsExactly("1970-01-01T00:00:00.000Z", "2026-10-06T09:26:00.000Z", "2026-10-06T09:42:00.000Z");
        assertThat(run.get(2).sink().metrics()).containsEntry("numWatermarkMarkers", (long) PARTITIONS);
        for (int p = 0; p < PARTITIONS; p++) {
            List<ConsumerRecord<byte[], byte[]>> markers = new ArrayList<>();
            for (ConsumerRecord<byte[], byte[]> r : readCommitted(KAFKA.broker(), config.eventsTopic())) {
                if (r.partition() == p && r.headers().lastHeader(Topics.MARKER_HEADER) != null) {
                    markers.add(r);
                }
            }
            List<Long> watermarks = new ArrayList<>();
            List<Boolean> followed = new ArrayList<>();
            for (ConsumerRecord<byte[], byte[]> r : markers) {
                JsonNode v = JSON.readTree(r.value());
                watermarks.add(v.get("watermarkMs").asLong());
                followed.add(v.path("followedByMarker").asBoolean(false));
            }
            assertThat(watermarks).containsExactly(0L, WM_0926, WM_0942);
            // only batch 1's marker says that the next one follows in its transaction: the aggregation commits at the next
            assertThat(followed).containsExactly(false, true, false);
            // batch 1's marker and the no-data batch 2's are next to each other: no transaction marker between them
            assertThat(markers.get(2).offset()).as("partition %d", p).isEqualTo(markers.get(1).offset() + 1);
            assertThat(markers.get(1).offset()).as("partition %d", p).isGreaterThan(markers.get(0).offset() + 1);
        }
        assertThat(availableNowRun(config, true)).isEmpty();
        assertThat(FileIngest.readStatus(config, IngestKit.props(KAFKA.broker()))).satisfies(s -> {
            assertThat(s.nextBatchId()).isEqualTo(3);
            assertThat(s.watermarkMs()).isEqualTo(WM_0942);
        });
    }
    /**
     * An aggregation without a watermark (complete or update mode) still needs each batch's end:
     * every batch ends with a marker on every partition, its watermark null; and as the watermark
     * never moves, no no-data batch follows.
     */
    @Test
    void withoutAWatermarkEveryBatchStillEndsWithAMarker() throws Exception {
        String pipeline = IngestKit.uniquePipeline("no-watermark");
        IngestConfig config = IngestConfig.builder(pipeline, tmp.resolve("no-watermark/in"), SCHEMA)
                .eventTime("ts").groupBy(List.of("user")).build();
        IngestKit.createTopics(KAFKA.broker(), config, PARTITIONS);
        copyGolden("case-late-two-runs/run1.json", config.inputDir(), "run1.json", 1_000);
        List<Progress> run1 = availableNowRun(config, true);
        copyGolden("case-late-two-runs/run2.json", config.inputDir(), "run2.json", 2_000);
        List<Progress> run2 = availableNowRun(config, true);

        assertThat(batches(run1) + "," + batches(run2)).as("data batches only").isEqualTo("0:3,1:3");
        assertThat(run1.get(0).sink().metrics()).containsEntry("numWatermarkMarkers", (long) PARTITIONS);
        assertThat(run1.get(0).eventTime()).doesNotContainKey("watermark");
        Map<Integer, List<String>> byPartition = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> r : readCommitted(KAFKA.broker(), config.eventsTopic())) {
            List<String> seen = byPartition.computeIfAbsent(r.partition(), p -> new ArrayList<>());
            if (r.headers().lastHeader(Topics.MARKER_HEADER) != null) {
                seen.add(text(r.value()));
            } else {
                for (String line : text(r.value()).split("\n")) { // a record packs one or more rows
                    seen.add("row " + JSON.readTree(line).get("id").asInt());
                }
            }
        }
        for (int p = 0; p < PARTITIONS; p++) {
            List<String> markers = byPartition.get(p).stream().filter(w -> !w.startsWith("row")).toList();
            assertThat(markers).as("partition %d", p)
                    .containsExactly("{\"batchId\":0,\"watermarkMs\":null}", "{\"batchId\":1,\"watermarkMs\":null}");
            // each batch's rows come before its marker
            List<String> all = byPartition.get(p);
            int first = all.indexOf(markers.get(0));
            assertThat(all.subList(0, first)).allMatch(w -> w.startsWith("row ") && Integer.parseInt(w.substring(4)) <= 3);
            assertThat(all.subList(first + 1, all.size() - 1)).allMatch(w -> w.startsWith("row ") && Integer.parseInt(w.substring(4)) > 3);
            assertThat(all.get(all.size() - 1)).isEqualTo(markers.get(1));
        }
    }
}
