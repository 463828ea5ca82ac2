package io.tributary.tests;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.EmbeddedBroker;
import io.tributary.schema.CrashPoint;
import io.tributary.sink.DeltaTables;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The process stopped dead at each moment that matters, then started again: the table ends up
 * with exactly the rows, none missing, none twice.
 */
@Tag("integration")
@Tag("scenarios")
@Timeout(300)
class CrashPointsTest {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "killed at {0}")
    @ValueSource(strings = {CrashPoint.INGEST_BEFORE_COMMIT, CrashPoint.SINK_BEFORE_COMMIT, CrashPoint.SINK_AFTER_COMMIT})
    void aRestartAfterACrashLeavesTheSameTable(String point) throws Exception {
        Workspace ws = new Workspace(dir, QuickstartScenarios.SPEC);
        String table = dir.resolve("out").toString();
        ws.addFile("part-0001.json",
                "{\"id\": 1, \"user\": \"a\", \"amt\": 5.0, \"ts\": \"2026-01-01T10:01:00Z\"}",
                "{\"id\": 2, \"user\": \"b\", \"amt\": 7.0, \"ts\": \"2026-01-01T10:05:00Z\"}");

        ChildProcess crashed = ChildProcess.start(dir, Map.of(CrashPoint.ENV, point), "run", ws.spec.toString());
        assertThat(crashed.waitFor(120)).as("stderr: %s", crashed.err()).isEqualTo(CrashPoint.EXIT_CODE);
        assertThat(crashed.err()).contains("crash point " + point + " reached");

        ChildProcess restarted = ChildProcess.start(dir, Map.of(), "run", ws.spec.toString());
        assertThat(restarted.waitFor(120)).as("stderr: %s", restarted.err()).isZero();
        assertThat(DeltaTables.readRows(table)).extracting(r -> r[0]).containsExactlyInAnyOrder(1, 2);
        assertThat(DeltaTables.latestVersion(table)).as("one Delta version: the replay wrote nothing new").isZero();
        if (point.equals(CrashPoint.SINK_AFTER_COMMIT)) {
            // as Spark with commits/1 deleted and a rerun: the batch is in the table, the replay finds its txn
            assertThat(restarted.out().lines().filter(l -> l.contains("\"name\":\"quickstart/sink\"")))
                    .as("only Spark's idle line for the sink: 0 rows").allMatch(l -> l.contains("\"numInputRows\":0"));
        }
    }

    /**
     * An upsert into a table with deletion vectors and the change data feed on, killed inside its commit: after
     * the vector file was written, after every file (vectors, rows, change data) was written but before the commit,
     * and right after the commit. The restart commits the batch once (or finds it committed): one version, its rows,
     * one change data file in the log, the vectors it names on disk.
     */
    @ParameterizedTest(name = "killed at {0}")
    @ValueSource(strings = {CrashPoint.SINK_REWRITE_AFTER_VECTORS, CrashPoint.SINK_REWRITE_BEFORE_COMMIT,
        CrashPoint.SINK_REWRITE_AFTER_COMMIT})
    @Timeout(720) // three runs of the pipeline, each waited on for up to 4 minutes on a loaded machine
    void anUpsertWithDeletionVectorsAndAChangeFeedKilledInsideItsCommitCompletesOnce(String point) throws Exception {
        Workspace ws = new Workspace(dir, QuickstartScenarios.SPEC.replace("    path: out/\n", """
                    path: out/
                    mode: upsert
                    keys: [id]
                    deleteWhen: "amt < 0"
                    properties:
                      delta.enableDeletionVectors: "true"
                      delta.enableChangeDataFeed: "true"
                """));
        String table = dir.resolve("out").toString();
        ws.addFile("part-0001.json",
                "{\"id\": 1, \"user\": \"a\", \"amt\": 5.0, \"ts\": \"2026-01-01T10:01:00Z\"}",
                "{\"id\": 2, \"user\": \"b\", \"amt\": 7.0, \"ts\": \"2026-01-01T10:05:00Z\"}",
                "{\"id\": 3, \"user\": \"c\", \"amt\": 9.0, \"ts\": \"2026-01-01T10:06:00Z\"}");
        ChildProcess first = ChildProcess.start(dir, Map.of(), "run", ws.spec.toString());
        assertThat(first.waitFor(240)).as("stderr: %s", first.err()).isZero();
        ws.addFile("part-0002.json",
                "{\"id\": 2, \"user\": \"b2\", \"amt\": 8.0, \"ts\": \"2026-01-01T10:07:00Z\"}",
                "{\"id\": 3, \"user\": \"c\", \"amt\": -1.0, \"ts\": \"2026-01-01T10:08:00Z\"}",
                "{\"id\": 4, \"user\": \"d\", \"amt\": 4.0, \"ts\": \"2026-01-01T10:09:00Z\"}");

        ChildProcess crashed = ChildProcess.start(dir, Map.of(CrashPoint.ENV, point), "run", ws.spec.toString());
        assertThat(crashed.waitFor(240)).as("stderr: %s", crashed.err()).isEqualTo(CrashPoint.EXIT_CODE);
        assertThat(crashed.err()).contains("crash point " + point + " reached");
        ChildProcess restarted = ChildProcess.start(dir, Map.of(), "run", ws.spec.toString());
        assertThat(restarted.waitFor(240)).as("stderr: %s", restarted.err()).isZero();

        assertThat(DeltaTables.readRows(table)).extracting(r -> r[0] + ":" + r[1])
                .containsExactlyInAnyOrder("1:a", "2:b2", "4:d");
        assertThat(DeltaTables.latestVersion(table)).as("the upsert committed once").isEqualTo(1);
        List<String> log = java.nio.file.Files.readAllLines(dir.resolve("out/_delta_log/00000000000000000001.json"));
        assertThat(log.stream().filter(l -> l.startsWith("{\"cdc\":"))).as("one change data file").hasSize(1);
        List<String> vectors = log.stream().filter(l -> l.startsWith("{\"add\":") && l.contains("\"deletionVector\":{")).toList();
        assertThat(vectors).as("the first file kept, ids 2 and 3 marked in its vector").hasSize(1);
        try (java.util.stream.Stream<Path> files = java.nio.file.Files.list(dir.resolve("out"))) {
            assertThat(files.filter(f -> f.getFileName().toString().startsWith("deletion_vector_")))
                    .as("the vector file the commit names (and, killed before it, the orphan of the first attempt)")
                    .hasSize(point.equals(CrashPoint.SINK_REWRITE_AFTER_COMMIT) ? 1 : 2);
        }
    }

    /**
     * Killed right after the ingest's commit returned, before the transaction coordinator wrote
     * the commit's markers: the restarted embedded broker finishes the transaction (its
     * controller fences the dead run's broker before the broker starts: see the broker module's
     * AfterCrash), the restart finds the file in the ingest log and the table holds each row once.
     * Looped 20 times by bench/crash-after-commit.sh.
     */
    @Test
    void killedRightAfterTheIngestCommitNeverDuplicates() throws Exception {
        Workspace ws = new Workspace(dir, QuickstartScenarios.SPEC);
        String table = dir.resolve("out").toString();
        ws.addFile("part-0001.json",
                "{\"id\": 1, \"user\": \"a\", \"amt\": 5.0, \"ts\": \"2026-01-01T10:01:00Z\"}",
                "{\"id\": 2, \"user\": \"b\", \"amt\": 7.0, \"ts\": \"2026-01-01T10:05:00Z\"}");
        ChildProcess crashed = ChildProcess.start(dir, Map.of(CrashPoint.ENV, CrashPoint.INGEST_AFTER_COMMIT), "run", ws.spec.toString());
        assertThat(crashed.waitFor(120)).as("stderr: %s", crashed.err()).isEqualTo(CrashPoint.EXIT_CODE);

        ChildProcess restarted = ChildProcess.start(dir, Map.of(), "run", ws.spec.toString());
        assertThat(restarted.waitFor(120)).as("stderr: %s", restarted.err()).isZero();
        assertThat(restarted.err()).contains("1 files already ingested, next batch 1");
        assertThat(DeltaTables.readRows(table)).extracting(r -> r[0]).containsExactlyInAnyOrder(1, 2);
        assertThat(DeltaTables.latestVersion(table)).isZero();
    }

    /**
     * cleanSource archive, killed after the ingest committed and before the file was moved: the
     * restart does not publish the file again (the ingest log has it) and archives it.
     */
    @Test
    void killedBeforeCleaningTheRestartArchivesWithoutPublishingAgain() throws Exception {
        Workspace ws = new Workspace(dir, QuickstartScenarios.SPEC.replace("    schema:",
                "    cleanSource: archive\n    sourceArchiveDir: archive/\n    schema:"));
        String table = dir.resolve("out").toString();
        ws.addFile("part-0001.json",
                "{\"id\": 1, \"user\": \"a\", \"amt\": 5.0, \"ts\": \"2026-01-01T10:01:00Z\"}",
                "{\"id\": 2, \"user\": \"b\", \"amt\": 7.0, \"ts\": \"2026-01-01T10:05:00Z\"}");
        ChildProcess crashed = ChildProcess.start(dir, Map.of(CrashPoint.ENV, CrashPoint.INGEST_BEFORE_CLEAN), "run", ws.spec.toString());
        assertThat(crashed.waitFor(120)).as("stderr: %s", crashed.err()).isEqualTo(CrashPoint.EXIT_CODE);
        assertThat(dir.resolve("in/part-0001.json")).as("not archived before the crash point").exists();
        assertThat(ws.tributary("checkpoint show").assertOk().out())
                .contains("cleanSource archive: 0 of 1 ingested files archived, 1 still in the input folder (the next start cleans them)");

        ChildProcess restarted = ChildProcess.start(dir, Map.of(), "run", ws.spec.toString());
        assertThat(restarted.waitFor(120)).as("stderr: %s", restarted.err()).isZero();
        assertThat(restarted.out()).as("the restart's progress line counts the file it archived")
                .contains("\"numFilesArchived\":1");
        assertThat(ws.tributary("checkpoint show").assertOk().out()).contains("cleanSource archive: 1 of 1 ingested files archived\n");
        assertThat(dir.resolve("in/part-0001.json")).doesNotExist();
        assertThat(dir.resolve("archive/part-0001.json")).exists();
        assertThat(DeltaTables.readRows(table)).extracting(r -> r[0]).containsExactlyInAnyOrder(1, 2);
        assertThat(DeltaTables.latestVersion(table)).isZero();
    }

    /**
     * A topic another application writes, read by the pipeline itself ({@code source.kafka}): appended (the
     * source offsets commit with the rows in the table), upserted by key, and aggregated in windows (the
     * aggregation reads the topic in Kafka Streams), killed at each moment that matters, then run again: the
     * table holds exactly the rows, and the aggregation's is Spark's ({@code golden/windows/case-901}, run 1); with
     * {@code maxOffsetsPerTrigger} ({@code golden/kafka-source/case-2}: four batches, the rows of the last late), killed
     * once the first batch is planned, the restart runs the same batches and gives Spark's window.
     */
    @ParameterizedTest(name = "{0} killed at {1}")
    @CsvSource({"append, sink.beforeCommit", "append, sink.afterCommit", "upsert, sink.rewrite.beforeCommit",
        "upsert, sink.rewrite.afterCommit", "aggregate, aggregate.kafka.afterBatch", "aggregate, sink.beforeCommit",
        "aggregate, sink.afterCommit", "limited, aggregate.kafka.afterBatch"})
    void aKafkaSourcePipelineKilledAtACrashPointLeavesExactlyTheRowsAfterTheRestart(String pipeline, String point) throws Exception {
        try (EmbeddedBroker broker = EmbeddedBroker.start(dir.resolve("kafka"))) {
            Map<String, Object> client = Map.of("bootstrap.servers", broker.bootstrapServers());
            try (Admin admin = Admin.create(client)) {
                admin.createTopics(List.of(new NewTopic("sales", pipeline.equals("limited") ? 2 : 3, (short) 1))).all().get();
            }
            List<String> rows = pipeline.equals("aggregate")
                    ? List.of(GoldenWindowsScenarioTest.golden("case-901/run1.json").strip().split("\n"))
                    : List.of("{\"id\": 1, \"user\": \"a\", \"amt\": 5.0, \"ts\": \"2026-01-01T10:01:00Z\"}",
                            "{\"id\": 2, \"user\": \"b\", \"amt\": 7.0, \"ts\": \"2026-01-01T10:05:00Z\"}",
                            "{\"id\": 1, \"user\": \"a2\", \"amt\": 6.0, \"ts\": \"2026-01-01T10:06:00Z\"}",
                            "{\"id\": 3, \"user\": \"c\", \"amt\": 9.0, \"ts\": \"2026-01-01T10:07:00Z\"}");
            String sink = switch (pipeline) {
                case "upsert" -> "sink:\n  delta:\n    path: out/\n    mode: upsert\n    keys: [id]\n";
                case "aggregate" -> "aggregate:\n  eventTime: ts\n  watermark: 5 minutes\n  window: 10 minutes\n  groupBy: [user]\n"
                        + "  select: { t: sum(amt) }\noutputMode: append\nsink:\n  delta:\n    path: out/\ntopic:\n  partitions: 3\n";
                case "limited" -> "    maxOffsetsPerTrigger: 3\naggregate:\n  eventTime: ts\n  watermark: 5 minutes\n  window: 10 minutes\n"
                        + "  groupBy: [user]\n  select: { t: sum(amt) }\noutputMode: append\nsink:\n  delta:\n    path: out/\n";
                default -> "sink:\n  delta:\n    path: out/\n";
            };
            Workspace ws = new Workspace(dir, "name: sales\nsource:\n  kafka:\n    topics: [sales]\n"
                    + "    schema: \"id INT, user STRING, amt DOUBLE, ts TIMESTAMP\"\n" + sink + "trigger: availableNow\n"
                    + "kafka:\n  bootstrap.servers: \"" + broker.bootstrapServers() + "\"\n");
            String table = dir.resolve("out").toString();
            if (pipeline.equals("upsert")) { // the table first, so that the crashed batch is a MERGE into it
                produceKeyed(client, rows.subList(0, 2));
                ChildProcess first = ChildProcess.start(dir, Map.of(), "run", ws.spec.toString());
                assertThat(first.waitFor(240)).as("stderr: %s", first.err()).isZero();
                rows = rows.subList(2, rows.size());
            }
            if (pipeline.equals("limited")) {
                produceOnTheirPartitions(client, Golden.read("kafka-source/case-2/records.jsonl"));
            } else {
                produceKeyed(client, rows);
            }

            ChildProcess crashed = ChildProcess.start(dir, Map.of(CrashPoint.ENV, point), "run", ws.spec.toString());
            assertThat(crashed.waitFor(240)).as("stderr: %s", crashed.err()).isEqualTo(CrashPoint.EXIT_CODE);
            assertThat(crashed.err()).contains("crash point " + point + " reached");
            ChildProcess restarted = ChildProcess.start(dir, Map.of(), "run", ws.spec.toString());
            assertThat(restarted.waitFor(240)).as("stderr: %s", restarted.err()).isZero();

            switch (pipeline) {
                case "append" -> {
                    assertThat(DeltaTables.readRows(table)).extracting(r -> r[0] + ":" + r[1])
                            .containsExactlyInAnyOrder("1:a", "2:b", "1:a2", "3:c");
                    assertThat(DeltaTables.latestVersion(table)).as("one Delta version: the replay wrote nothing new").isZero();
                }
                case "upsert" -> {
                    assertThat(DeltaTables.readRows(table)).extracting(r -> r[0] + ":" + r[1])
                            .containsExactlyInAnyOrder("1:a2", "2:b", "3:c");
                    assertThat(DeltaTables.latestVersion(table)).as("the upsert committed once").isEqualTo(1);
                }
                case "limited" -> assertThat(GoldenWindowsScenarioTest.table(table)).as("Spark's: %s",
                        Golden.read("kafka-source/case-2/spark-window.txt")).containsExactly("{2026-01-01 10:00:00, 2026-01-01 10:10:00}|ann|245.0");
                default -> assertThat(GoldenWindowsScenarioTest.table(table))
                        .containsExactlyInAnyOrderElementsOf(Golden.windowRows("windows/case-901/after-run1.txt"));
            }
            String show = ws.tributary("checkpoint show").assertOk().out();
            assertThat(show).as("the source's offsets, none behind").containsPattern(pipeline.equals("limited")
                    ? "  sales  0: .*lag 0; 1: .*lag 0\\n" : "  sales  0: .*lag 0; 1: .*lag 0; 2: .*lag 0\\n")
                    .doesNotContainPattern("lag [1-9]");
        }
    }

    /** The records of a golden/kafka-source case's records.jsonl, each with its key on its partition. */
    private static void produceOnTheirPartitions(Map<String, Object> client, String jsonl) throws Exception {
        try (KafkaProducer<String, String> p = new KafkaProducer<>(client, new StringSerializer(), new StringSerializer())) {
            for (String line : jsonl.strip().split("\n")) {
                com.fasterxml.jackson.databind.JsonNode r = new com.fasterxml.jackson.databind.ObjectMapper().readTree(line);
                p.send(new ProducerRecord<>("sales", r.get("partition").asInt(), r.get("timestamp").asLong(), r.get("key").asText(),
                        r.get("value").asText())).get();
            }
        }
    }

    /** Each row keyed by its id, as a producer that wants one partition per key writes it. */
    private static void produceKeyed(Map<String, Object> client, List<String> rows) throws Exception {
        try (KafkaProducer<String, String> p = new KafkaProducer<>(client, new StringSerializer(), new StringSerializer())) {
            for (String row : rows) {
                p.send(new ProducerRecord<>("sales", row.replaceAll(".*\"id\": (\\d+).*", "$1"), row)).get();
            }
        }
    }
}
