package io.tributary.service.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.broker.EmbeddedBroker;
import io.tributary.schema.Timestamps;
import io.tributary.service.spec.PipelineSpec;
import io.tributary.sink.DeltaTables;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
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
 * Spark's {@code withWatermark("ts", "10 minutes").dropDuplicatesWithinWatermark("id").groupBy(window("ts", "10 minutes"))
 * .agg(count("*"), sum("amt"))} in append mode (golden/dedup/then-window, recorded by compat/spark's SparkDedup): the
 * deduplication's rows feed the windowed aggregation, and after each of four availableNow runs the table holds exactly the
 * windows Spark's held.
 */
@Tag("integration")
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class DedupThenWindowPipelineTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    static final String SPEC = """
            name: dedupwin
            source:
              files:
                path: in/
                schema: "id INT, user STRING, amt DOUBLE, ts TIMESTAMP"
                maxFilesPerTrigger: 1
            transform:
              dropDuplicates: { keys: [id], eventTime: ts, withinWatermark: 10 minutes }
            aggregate:
              eventTime: ts
              watermark: 10 minutes
              window: 10 minutes
              select: { n: "count(*)", total: "sum(amt)" }
            sink:
              delta:
                path: out/
            trigger: availableNow
            """;

    @TempDir
    Path dir;
    private EmbeddedBroker broker; // one for the four runs, as a cluster outlives its pipelines' runs

    @BeforeEach
    void startBroker() throws Exception {
        broker = EmbeddedBroker.start(dir.resolve("kafka"));
    }

    @AfterEach
    void stopBroker() {
        broker.close();
    }

    @Test
    void eachRunLeavesSparksWindowsOfTheRowsTheDeduplicationKept() throws Exception {
        JsonNode c = JSON.readTree(golden("case.json"));
        Files.createDirectories(dir.resolve("in"));
        Path specFile = dir.resolve("pipeline.yaml");
        Files.writeString(specFile, SPEC + "kafka:\n  bootstrap.servers: " + broker.bootstrapServers() + "\n");
        int run = 0;
        long mtime = 1_000_000_000_000L;
        for (JsonNode files : c.get("runs")) {
            run++;
            for (JsonNode f : files) {
                Path p = Files.writeString(dir.resolve("in").resolve(f.asText()), golden(f.asText()));
                p.toFile().setLastModified(mtime += 1000); // file order = Spark's: oldest first
            }
            PipelineSpec spec = PipelineSpec.load(specFile, Map.of(), Map.of());
            try (Pipeline pipeline = Pipeline.open(spec, RunOptions.DEFAULT)) {
                pipeline.run(spec.trigger(), p -> { });
            }
            List<String> expected = golden("after-run" + run + ".txt").lines()
                    .filter(l -> !l.startsWith("#") && !l.startsWith("batches") && !l.isBlank()).toList();
            assertThat(table()).as("after run %d", run).containsExactlyInAnyOrderElementsOf(expected);
        }
    }

    /**
     * The same over a Kafka source: each run's rows produced to a topic of three partitions (by id) before the run, the
     * deduplication reading the topic itself. Spark's fourth run read two files, a batch each (maxFilesPerTrigger), the second
     * judged late by the watermark before the first; here the run's one batch holds both, judged by that same watermark.
     */
    @Test
    void overAKafkaTopicEachRunLeavesSparksWindowsOfTheRowsTheDeduplicationKept() throws Exception {
        JsonNode c = JSON.readTree(golden("case.json"));
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", broker.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic("dw", 3, (short) 1))).all().get();
        }
        Path specFile = dir.resolve("pipeline.yaml");
        Files.writeString(specFile, SPEC.replace("""
                  files:
                    path: in/
                    schema: "id INT, user STRING, amt DOUBLE, ts TIMESTAMP"
                    maxFilesPerTrigger: 1
                """, """
                  kafka:
                    topics: [dw]
                    schema: "id INT, user STRING, amt DOUBLE, ts TIMESTAMP"
                """) + "kafka:\n  bootstrap.servers: " + broker.bootstrapServers() + "\n");
        int run = 0;
        for (JsonNode files : c.get("runs")) {
            run++;
            for (JsonNode f : files) {
                produce(golden(f.asText()));
            }
            PipelineSpec spec = PipelineSpec.load(specFile, Map.of(), Map.of());
            try (Pipeline pipeline = Pipeline.open(spec, RunOptions.DEFAULT)) {
                pipeline.run(spec.trigger(), p -> { });
            }
            List<String> expected = golden("after-run" + run + ".txt").lines()
                    .filter(l -> !l.startsWith("#") && !l.startsWith("batches") && !l.isBlank()).map(DedupThenWindowPipelineTest::rounded)
                    .toList();
            assertThat(table().stream().map(DedupThenWindowPipelineTest::rounded).toList()).as("after run %d", run)
                    .containsExactlyInAnyOrderElementsOf(expected);
        }
    }

    /**
     * A window's line with its total rounded to 9 decimals: the partitions' rows reach the aggregation interleaved in no set
     * order, and a sum of doubles in another order may differ in its last bit (14.000000000000002 for Spark's 14.0).
     */
    private static String rounded(String line) {
        int bar = line.lastIndexOf('|');
        return line.substring(0, bar + 1) + Math.round(Double.parseDouble(line.substring(bar + 1)) * 1e9) / 1e9;
    }

    /** A file's rows as a topic's producer writes them: a record each, on partition id mod 3 (a null id on 0). */
    private void produce(String lines) throws Exception {
        try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(Map.<String, Object>of("bootstrap.servers", broker.bootstrapServers()),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            for (String line : lines.lines().filter(l -> !l.isBlank()).toList()) {
                int id = JSON.readTree(line).path("id").asInt(0);
                p.send(new ProducerRecord<>("dw", id % 3, null, line.getBytes(StandardCharsets.UTF_8))).get();
            }
        }
    }

    /** The table as the golden files print it: {@code start|end|n|total}. */
    private List<String> table() {
        List<String> rows = new ArrayList<>();
        String path = dir.resolve("out").toString();
        if (!DeltaTables.exists(path)) {
            return rows;
        }
        for (Object[] r : DeltaTables.readRows(path)) {
            Object[] w = (Object[]) r[0];
            rows.add(ts(w[0]) + "|" + ts(w[1]) + "|" + r[1] + "|" + r[2]);
        }
        return rows;
    }

    private static String ts(Object micros) {
        return Timestamps.formatMicros((Long) micros).replace('T', ' ').replace("Z", "");
    }

    static String golden(String file) throws IOException {
        try (InputStream in = DedupThenWindowPipelineTest.class.getResourceAsStream("/golden/dedup/then-window/" + file)) {
            if (in == null) {
                throw new IOException("no golden fixture " + file);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
