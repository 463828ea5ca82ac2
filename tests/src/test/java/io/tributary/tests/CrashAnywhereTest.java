package io.tributary.tests;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.EmbeddedBroker;
import io.tributary.schema.Timestamps;
import io.tributary.sink.DeltaTables;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The crash harness: a pipeline over many files, or over a topic another application writes
 * ({@code source.kafka}), its process SIGKILLed at random moments and
 * started again, until the input is drained; then the table must hold exactly the expected rows
 * (a multiset: none missing, none twice, none extra). {@code -Dtributary.crash.kills=N} sets the
 * kills per pipeline (default 7 per file pipeline and 2 per Kafka one, 27 kills in all, as CI's soak step runs it;
 * {@code bench/crash.sh} runs 200 per pipeline) and
 * {@code -Dtributary.crash.seed} the random seed. Tagged soak: {@code ./mvnw -pl tests -am verify -Psoak
 * -Dit.test=CrashAnywhereTest}.
 */
@Tag("soak")
@Timeout(3600)
class CrashAnywhereTest {
    static final int KILLS = Integer.getInteger("tributary.crash.kills", 7); // 21 kills over the three file pipelines
    /** Kills per pipeline over a Kafka source: 2 by default (6 in all, to keep CI's soak step short), else as many as {@code tributary.crash.kills}. */
    static final int KAFKA_KILLS = Integer.getInteger("tributary.crash.kafka.kills", Integer.getInteger("tributary.crash.kills", 2));
    static final long SEED = Long.getLong("tributary.crash.seed", 42L);
    static final int FILES_PER_ROUND = 6;
    static final int ROWS_PER_FILE = 40;
    static final long BASE_MS = 1_767_261_600_000L; // 2026-01-01T10:00:00Z

    @TempDir
    Path dir;

    @Test
    void rawPipelineSurvivesKillsExactly() throws Exception {
        Workspace ws = new Workspace(dir, QuickstartScenarios.SPEC
                .replace("format: json", "format: json\n    maxFilesPerTrigger: 2")
                .replace("trigger: availableNow", "topic:\n  partitions: 2\ntrigger: availableNow"));
        List<String> expected = new ArrayList<>();
        Report report = crashLoop(ws, expected::addAll, 0);
        List<String> actual = new ArrayList<>();
        for (Object[] r : DeltaTables.readRows(dir.resolve("out").toString())) {
            actual.add(r[0] + "|" + r[1] + "|" + r[2] + "|" + Timestamps.formatMicros((Long) r[3]));
        }
        assertThat(actual).as(report.toString()).containsExactlyInAnyOrderElementsOf(expected);
        System.out.println("crash harness (raw): " + report + ", rows checked " + actual.size());
    }

    @Test
    void upsertPipelineSurvivesKillsExactly() throws Exception {
        Workspace ws = new Workspace(dir, UpsertScenarioTest.SPEC
                .replace("format: json", "format: json\n    maxFilesPerTrigger: 2")
                .replace("trigger: availableNow", "topic:\n  partitions: 2\ntrigger: availableNow"));
        Map<Integer, String> lastById = new TreeMap<>();
        Report report = crashLoop(ws, rows -> rows.forEach(r -> {
            String[] f = r.split("\\|");
            int key = Integer.parseInt(f[0]) % 97;
            lastById.put(key, key + "|" + f[1] + "|" + f[2] + "|" + f[3]);
        }), 97);
        List<String> actual = new ArrayList<>();
        for (Object[] r : DeltaTables.readRows(dir.resolve("tgt").toString())) {
            actual.add(r[0] + "|" + r[1] + "|" + r[2] + "|" + Timestamps.formatMicros((Long) r[3]));
        }
        assertThat(actual).as(report.toString()).containsExactlyInAnyOrderElementsOf(lastById.values());
        System.out.println("crash harness (upsert): " + report + ", keys checked " + actual.size());
    }

    @Test
    void windowedPipelineSurvivesKillsExactly() throws Exception {
        Workspace ws = new Workspace(dir, GoldenWindowsScenarioTest.SPEC
                .replace("format: json", "format: json\n    maxFilesPerTrigger: 2"));
        List<String> input = new ArrayList<>();
        Report report = crashLoop(ws, input::addAll, 0);
        // every event is in time (they only move forward), so the table holds every window the final watermark closed
        List<String> expected = InstancesTest.closedWindows(input);
        List<String> actual = GoldenWindowsScenarioTest.table(dir.resolve("agg").toString());
        assertThat(actual).as(report.toString()).containsExactlyInAnyOrderElementsOf(expected);
        System.out.println("crash harness (windowed): " + report + ", windows checked " + actual.size());
    }

    @Test
    void kafkaSourceAppendPipelineSurvivesKillsExactly() throws Exception {
        try (TopicInput topic = new TopicInput(dir)) {
            Workspace ws = new Workspace(dir, topic.spec("    maxOffsetsPerTrigger: 80\nsink:\n  delta:\n    path: out/\n"));
            List<String> expected = new ArrayList<>();
            Report report = crashLoop(ws, topic, expected::addAll, 0, KAFKA_KILLS);
            List<String> actual = new ArrayList<>();
            for (Object[] r : DeltaTables.readRows(dir.resolve("out").toString())) {
                actual.add(r[0] + "|" + r[1] + "|" + r[2] + "|" + Timestamps.formatMicros((Long) r[3]));
            }
            assertThat(actual).as(report.toString()).containsExactlyInAnyOrderElementsOf(expected);
            System.out.println("crash harness (kafka append): " + report + ", rows checked " + actual.size());
        }
    }

    @Test
    void kafkaSourceUpsertPipelineSurvivesKillsExactly() throws Exception {
        try (TopicInput topic = new TopicInput(dir)) {
            Workspace ws = new Workspace(dir, topic.spec("    maxOffsetsPerTrigger: 80\nsink:\n  delta:\n    path: out/\n"
                    + "    mode: upsert\n    keys: [id]\n"));
            Map<Integer, String> lastById = new TreeMap<>();
            Report report = crashLoop(ws, topic, rows -> rows.forEach(r -> {
                String[] f = r.split("\\|");
                int key = Integer.parseInt(f[0]) % 97;
                lastById.put(key, key + "|" + f[1] + "|" + f[2] + "|" + f[3]);
            }), 97, KAFKA_KILLS);
            List<String> actual = new ArrayList<>();
            for (Object[] r : DeltaTables.readRows(dir.resolve("out").toString())) {
                actual.add(r[0] + "|" + r[1] + "|" + r[2] + "|" + Timestamps.formatMicros((Long) r[3]));
            }
            assertThat(actual).as(report.toString()).containsExactlyInAnyOrderElementsOf(lastById.values());
            System.out.println("crash harness (kafka upsert): " + report + ", keys checked " + actual.size());
        }
    }

    @Test
    void kafkaSourceWindowedPipelineSurvivesKillsExactly() throws Exception {
        try (TopicInput topic = new TopicInput(dir)) {
            Workspace ws = new Workspace(dir, topic.spec("aggregate:\n  eventTime: ts\n  watermark: 5 minutes\n  window: 10 minutes\n"
                    + "  groupBy: [user]\n  select: { t: sum(amt) }\noutputMode: append\nsink:\n  delta:\n    path: agg/\n"
                    + "topic:\n  partitions: 3\n"));
            List<String> input = new ArrayList<>();
            Report report = crashLoop(ws, topic, input::addAll, 0, KAFKA_KILLS);
            List<String> actual = GoldenWindowsScenarioTest.table(dir.resolve("agg").toString());
            assertThat(actual).as(report.toString()).containsExactlyInAnyOrderElementsOf(InstancesTest.closedWindows(input));
            System.out.println("crash harness (kafka windowed): " + report + ", windows checked " + actual.size());
        }
    }

    /**
     * Adds files, runs, kills at a random moment, over and over; then one clean run drains the rest.
     * With {@code keys > 0} the written ids repeat modulo {@code keys} (for upserts).
     */
    private Report crashLoop(Workspace ws, java.util.function.Consumer<List<String>> expected, int keys) throws Exception {
        return crashLoop(ws, filesIn(ws), expected, keys, KILLS);
    }

    /** As above, each round's rows added through {@code input} (files, or a topic's records), {@code kills} rounds. */
    private Report crashLoop(Workspace ws, Input input, java.util.function.Consumer<List<String>> expected, int keys, int kills)
            throws Exception {
        Random random = new Random(SEED);
        Report report = new Report();
        int file = 0;
        int id = 0;
        for (int round = 0; round < kills; round++) {
            for (int f = 0; f < FILES_PER_ROUND; f++) {
                List<String> lines = new ArrayList<>();
                List<String> rows = new ArrayList<>();
                for (int r = 0; r < ROWS_PER_FILE; r++) {
                    id++;
                    String user = "u" + (id % 5);
                    double amt = id % 17;
                    String ts = Timestamps.formatMicros((BASE_MS + id * 7_000L) * 1000);
                    int written = keys > 0 ? id % keys : id;
                    lines.add("{\"id\": " + written + ", \"user\": \"" + user + "\", \"amt\": " + amt + ", \"ts\": \"" + ts + "\"}");
                    rows.add(id + "|" + user + "|" + amt + "|" + ts);
                }
                input.add(file++, lines);
                expected.accept(rows);
            }
            ChildProcess p = ChildProcess.start(dir, Map.of(), "run", ws.spec.toString());
            // one kill in four lands anywhere in the start-up; the others after the first batch, inside later ones
            boolean duringStartup = random.nextInt(4) == 0;
            long killAfter = duringStartup ? random.nextInt(8000) : random.nextInt(2500);
            long firstBatch = -1;
            long deadline = duringStartup ? System.currentTimeMillis() + killAfter : Long.MAX_VALUE;
            while (System.currentTimeMillis() < deadline && p.alive()) {
                if (firstBatch < 0) {
                    firstBatch = p.millisToFirstBatch();
                    if (firstBatch >= 0 && !duringStartup) {
                        deadline = System.currentTimeMillis() + killAfter;
                    }
                }
                Thread.sleep(20);
            }
            if (p.alive()) {
                p.kill();
                report.kills++;
                if (firstBatch >= 0) {
                    report.resumeMillis.add(firstBatch);
                }
            } else {
                report.completedRuns++;
                assertThat(p.waitFor(5)).as("a run that ended by itself; stderr: %s", p.err()).isZero();
            }
        }
        ChildProcess last = ChildProcess.start(dir, Map.of(), "run", ws.spec.toString());
        assertThat(last.waitFor(600)).as("the draining run; stderr: %s", last.err()).isZero();
        return report;
    }

    /** Where a round's rows go, a "file" of JSON lines at a time: files in in/, or records in the source topic. */
    interface Input {
        void add(int file, List<String> lines) throws Exception;
    }

    /** Files in in/, listed in the order they were added. */
    private static Input filesIn(Workspace ws) {
        return (file, lines) -> ws.addFile(String.format("f-%05d.json", file), lines.toArray(String[]::new)).toFile()
                .setLastModified(BASE_MS + (file + 1) * 1000L);
    }

    /** Records of the topic {@code sales} (three partitions), each keyed by the id it writes, as a producer that keeps a key's rows in order does. */
    private static final class TopicInput implements Input, AutoCloseable {
        final EmbeddedBroker broker;
        final KafkaProducer<String, String> producer;

        TopicInput(Path dir) throws Exception {
            broker = EmbeddedBroker.start(dir.resolve("kafka"));
            Map<String, Object> client = Map.of("bootstrap.servers", broker.bootstrapServers());
            try (Admin admin = Admin.create(client)) {
                admin.createTopics(List.of(new NewTopic("sales", 3, (short) 1))).all().get();
            }
            producer = new KafkaProducer<>(client, new StringSerializer(), new StringSerializer());
        }

        /** A pipeline named sales that reads the topic with {@code body} (its sink, an aggregation) and runs availableNow. */
        String spec(String body) {
            return "name: sales\nsource:\n  kafka:\n    topics: [sales]\n    schema: \"id INT, user STRING, amt DOUBLE, ts TIMESTAMP\"\n"
                    + body + "trigger: availableNow\nkafka:\n  bootstrap.servers: \"" + broker.bootstrapServers() + "\"\n";
        }

        @Override
        public void add(int file, List<String> lines) throws Exception {
            List<java.util.concurrent.Future<?>> sent = new ArrayList<>();
            for (String line : lines) {
                sent.add(producer.send(new ProducerRecord<>("sales", line.replaceAll("\\{\"id\": (\\d+),.*", "$1"), line)));
            }
            for (java.util.concurrent.Future<?> f : sent) {
                f.get();
            }
        }

        @Override
        public void close() {
            producer.close();
            broker.close();
        }
    }

    static final class Report {
        int kills;
        int completedRuns;
        final List<Long> resumeMillis = new ArrayList<>();

        @Override
        public String toString() {
            List<Long> sorted = new ArrayList<>(resumeMillis);
            Collections.sort(sorted);
            String resume = sorted.isEmpty() ? "n/a" : "median " + sorted.get(sorted.size() / 2) + " ms, max " + sorted.get(sorted.size() - 1) + " ms";
            return "kills survived " + kills + ", runs that finished before their kill " + completedRuns
                    + ", start to first batch after a restart: " + resume;
        }
    }
}
