package io.tributary.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.kafka.TopicCreation;
import io.tributary.schema.Progress;
import io.tributary.schema.RowJson;
import io.tributary.schema.Schema;
import io.tributary.schema.Timestamps;
import io.tributary.schema.Topics;
import io.tributary.schema.TributaryException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

@Tag("integration")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class DeltaSinkIT {
    private static final Schema SCHEMA = Schema.parse("id INT, user STRING, amt DOUBLE, ts TIMESTAMP");
    private static final RowJson ROWS = new RowJson(SCHEMA);
    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    static final TestKafka KAFKA = new TestKafka();

    @TempDir
    Path dir;

    private static Map<String, Object> client() {
        return KAFKA.client();
    }

    private static String newTopic(int partitions) throws Exception {
        return KAFKA.newTopic("t", partitions);
    }

    /** Publishes rows and a watermark marker on every partition in one transaction, as file-ingest does. */
    private static void publish(String topic, int partitions, Object[]... rows) {
        KAFKA.inTransaction(producer -> {
            for (Object[] row : rows) {
                int partition = Math.floorMod((Integer) row[0], partitions);
                producer.send(new ProducerRecord<>(topic, partition, null, ROWS.write(row)));
            }
            for (int part = 0; part < partitions; part++) {
                ProducerRecord<byte[], byte[]> marker = new ProducerRecord<>(topic, part, null,
                        "{\"batchId\":0,\"watermarkMs\":0}".getBytes(StandardCharsets.UTF_8));
                marker.headers().add(Topics.MARKER_HEADER, Topics.WATERMARK);
                producer.send(marker);
            }
        });
    }

    private static Object[] row(int id, String user, double amt, String ts) {
        return new Object[] {id, user, amt, Timestamps.parseMicros(ts, true)};
    }

    private SinkConfig config(String topic) {
        return SinkConfig.of(dir.resolve("out").toString(), SCHEMA, topic, "tributary-quickstart-sink", "quickstart/sink");
    }

    private String table() {
        return dir.resolve("out").toString();
    }

    private List<Integer> ids() {
        List<Integer> ids = new ArrayList<>();
        for (Object[] r : DeltaTables.readRows(table())) {
            ids.add((Integer) r[0]);
        }
        ids.sort(Comparator.naturalOrder());
        return ids;
    }

    /**
     * sink.delta.path names a folder of the user's own files (no _delta_log): the sink refuses to
     * make it a table, naming the files and the setting, and touches nothing; a first attempt's own
     * data files (Kernel's names, with Hadoop checksums) do not count. With the setting it writes
     * the table beside them.
     */
    @Test
    void aFolderOfOtherFilesIsRefusedAndUsedOnlyWhenAllowed() throws Exception {
        String topic = newTopic(1);
        publish(topic, 1, row(1, "a", 1.0, "2024-01-01T10:00:00Z"), row(2, "b", 2.0, "2024-01-01T10:01:00Z"));
        Path out = dir.resolve("out");
        Files.createDirectories(out.resolve("2023"));
        Files.writeString(out.resolve("report.csv"), "id,amt\n1,2\n");
        Files.writeString(out.resolve("2023/notes.txt"), "mine");
        Files.writeString(out.resolve("1f0e2d3c-4b5a-4968-8776-a5b4c3d2e1f0-000.parquet"), "a first attempt's file");
        Files.writeString(out.resolve(".1f0e2d3c-4b5a-4968-8776-a5b4c3d2e1f0-000.parquet.crc"), "its checksum");

        assertThatThrownBy(() -> new DeltaSink(config(topic), client()))
                .isInstanceOf(TributaryException.class)
                .hasMessageStartingWith("delta sink: sink.delta.path " + out)
                .hasMessageContaining("holds 2 files (")
                .hasMessageContaining("report.csv").hasMessageContaining("2023/notes.txt")
                .hasMessageContaining("but no Delta table (no _delta_log)")
                .hasMessageContaining("set sink.delta.allowNonEmptyPath: true");
        assertThat(out.resolve("_delta_log")).doesNotExist();
        assertThat(out.resolve("report.csv")).hasContent("id,amt\n1,2\n");

        try (DeltaSink sink = new DeltaSink(config(topic).toBuilder().allowNonEmptyPath(true).build(), client())) {
            assertThat(sink.runBatch()).isPresent();
        }
        assertThat(ids()).containsExactly(1, 2);
        assertThat(out.resolve("report.csv")).hasContent("id,amt\n1,2\n");
        assertThat(out.resolve("2023/notes.txt")).hasContent("mine");
    }

    @Test
    void aTrimmingSinkDeletesWhatTheTableHoldsAndRefusesToStartATableFromATrimmedTopic() throws Exception {
        String topic = newTopic(2);
        publish(topic, 2, row(1, "a", 1.0, "2024-01-01T10:00:00Z"), row(2, "b", 2.0, "2024-01-01T10:01:00Z"));
        publish(topic, 2, row(3, "c", 3.0, "2024-01-01T10:02:00Z"));
        Map<Integer, Long> end = settledEnd(topic);
        try (DeltaSink sink = new DeltaSink(config(topic).toBuilder().trimTopic(true).build(), client())) {
            assertThat(sink.runBatch()).isPresent();
        }
        assertThat(ids()).containsExactly(1, 2, 3);
        await("the topic starts where the table's offsets end (records are deleted in the background)").atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(beginning(topic)).isEqualTo(end));

        publish(topic, 2, row(4, "d", 4.0, "2024-01-01T10:03:00Z"));
        try (DeltaSink sink = new DeltaSink(config(topic).toBuilder().trimTopic(true).build(), client())) {
            assertThat(sink.runBatch().orElseThrow().numInputRows()).as("a restart resumes from the table").isEqualTo(1);
        }
        assertThat(ids()).containsExactly(1, 2, 3, 4);

        Path other = dir.resolve("other");
        assertThatThrownBy(() -> new DeltaSink(SinkConfig.of(other.toString(), SCHEMA, topic, "tributary-quickstart-sink",
                "quickstart/sink").toBuilder().trimTopic(true).build(), client()))
                .isInstanceOf(TributaryException.class)
                .hasMessageContaining("does not exist, but topic " + topic + " starts at offsets")
                .hasMessageContaining("Starting here would leave those rows out");
    }

    @Test
    void aSinkOpenedBeforeItsTopicIsVisibleWaitsForIt() throws Exception {
        String topic = Topics.events("late" + System.nanoTime());
        Thread[] opener = new Thread[1];
        java.util.concurrent.CompletableFuture<DeltaSink> opening = new java.util.concurrent.CompletableFuture<>();
        opener[0] = new Thread(() -> {
            try {
                opening.complete(new DeltaSink(config(topic), client()));
            } catch (Throwable t) {
                opening.completeExceptionally(t);
            }
        });
        opener[0].start();
        // the sink is looking for its topic: now the stage that writes it creates it, as a new broker shows it late
        await("the sink looking for its topic").atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(10)).pollInSameThread().until(() -> {
            assertThat(opening).as("the sink must wait for its topic, not fail").isNotDone();
            return java.util.Arrays.stream(opener[0].getStackTrace()).anyMatch(f -> f.getClassName().equals("io.tributary.kafka.TopicWait"));
        });
        try (Admin admin = Admin.create(client())) {
            admin.createTopics(List.of(new NewTopic(topic, 2, (short) 1))).all().get();
        }
        publish(topic, 2, row(1, "a", 1.0, "2024-01-01T10:00:00Z"));
        try (DeltaSink sink = opening.get(60, TimeUnit.SECONDS)) {
            assertThat(sink.runBatch().orElseThrow().numInputRows()).isEqualTo(1);
        }
        assertThat(ids()).containsExactly(1);
    }

    @Test
    void aTopicThatNeverComesIsNamedOnceTheClientsTimeoutPassed() {
        Map<String, Object> client = new java.util.HashMap<>(client());
        client.put("default.api.timeout.ms", "1000");
        client.put("request.timeout.ms", "1000"); // an admin client refuses a default.api.timeout.ms below it
        String topic = Topics.events("never" + System.nanoTime());
        assertThatThrownBy(() -> new DeltaSink(config(topic), client))
                .isInstanceOf(TributaryException.class)
                .hasMessage("delta sink: topic " + topic + " does not exist (looked for it for 1 s, the client's default.api.timeout.ms);"
                        + " start the stage that writes it first, or check the pipeline's kafka settings");
    }

    /** The read_committed end offsets once every transaction is complete ({@link io.tributary.kafka.SettledLog}). */
    private static Map<Integer, Long> settledEnd(String topic) {
        Map<String, Object> p = new java.util.HashMap<>(client());
        p.put("isolation.level", "read_committed");
        p.put("key.deserializer", org.apache.kafka.common.serialization.ByteArrayDeserializer.class.getName());
        p.put("value.deserializer", org.apache.kafka.common.serialization.ByteArrayDeserializer.class.getName());
        try (var c = new org.apache.kafka.clients.consumer.KafkaConsumer<byte[], byte[]>(p)) {
            var parts = c.partitionsFor(topic).stream().map(i -> new org.apache.kafka.common.TopicPartition(topic, i.partition())).toList();
            Map<Integer, Long> m = new java.util.TreeMap<>();
            io.tributary.kafka.SettledLog.endOffsets(c, client(), parts, Duration.ofSeconds(30)).forEach((tp, o) -> m.put(tp.partition(), o));
            return m;
        }
    }

    /** The topic's first offsets. */
    private static Map<Integer, Long> beginning(String topic) throws Exception {
        try (Admin admin = Admin.create(client())) {
            List<org.apache.kafka.common.TopicPartition> parts = admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic)
                    .partitions().stream().map(p -> new org.apache.kafka.common.TopicPartition(topic, p.partition())).toList();
            Map<org.apache.kafka.common.TopicPartition, org.apache.kafka.clients.admin.OffsetSpec> req = new java.util.HashMap<>();
            parts.forEach(tp -> req.put(tp, org.apache.kafka.clients.admin.OffsetSpec.earliest()));
            Map<Integer, Long> begin = new java.util.TreeMap<>();
            admin.listOffsets(req).all().get().forEach((tp, info) -> begin.put(tp.partition(), info.offset()));
            return begin;
        }
    }

    @Test
    void withAnAllowedLatencyNewRowsWaitToFillAFileThenCommitTogether() throws Exception {
        String topic = newTopic(1);
        Duration latency = Duration.ofSeconds(3);
        publish(topic, 1, row(1, "a", 1.0, "2024-01-01T10:00:00Z"));
        try (DeltaSink sink = new DeltaSink(config(topic).toBuilder().allowedLatency(latency).targetFileSize(1).build(), client())) {
            long firstSeen = System.nanoTime();
            assertThat(sink.runBatch()).as("no batch written yet, so no size estimate: the first row waits").isEmpty();
            publish(topic, 1, row(2, "b", 2.0, "2024-01-01T10:01:00Z"));
            Optional<Progress> batch = await("the sink commits once the first row has waited " + latency).atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(100)).until(sink::runBatch, Optional::isPresent);
            assertThat(Duration.ofNanos(System.nanoTime() - firstSeen)).as("committed once the first row had waited").isGreaterThanOrEqualTo(latency);
            assertThat(batch.get().numInputRows()).isEqualTo(2);
            assertThat(batch.get().sink().metrics()).containsEntry("deltaVersion", 0L).containsEntry("numFiles", 1);
            assertThat((Long) batch.get().sink().metrics().get("numOutputBytes")).isPositive();
            assertThat(ids()).containsExactly(1, 2);

            // now the sink knows the bytes per row: a row that fills the (1-byte) target file is committed at once
            publish(topic, 1, row(3, "c", 3.0, "2024-01-01T10:02:00Z"));
            assertThat(sink.runBatch()).hasValueSatisfying(p -> assertThat(p.numInputRows()).isEqualTo(1));
            assertThat(ids()).containsExactly(1, 2, 3);
        }
    }

    @Test
    void threeRunsWriteEachRowOnceAndARestartResumesFromTheTable() throws Exception {
        String topic = newTopic(2);
        publish(topic, 2, row(1, "a", 1.5, "2024-01-01T10:00:00Z"), row(2, "b", 2.5, "2024-01-01T10:01:00.123456Z"));

        try (DeltaSink sink = new DeltaSink(config(topic), client())) {
            Progress run1 = sink.runBatch().orElseThrow();
            assertThat(run1.batchId()).isZero();
            assertThat(run1.numInputRows()).isEqualTo(2);
            assertThat(run1.name()).isEqualTo("quickstart/sink");
            assertThat(run1.sink().numOutputRows()).isEqualTo(2);
            assertThat(run1.sink().metrics()).containsEntry("deltaVersion", 0L);
            assertThat(run1.sources().get(0).metrics()).containsEntry("numMarkerRecords", 2L);
            // both partitions: one row and one marker each, then the transaction's commit marker
            assertThat(JSON.writeValueAsString(run1.sources().get(0).startOffset())).isEqualTo("{\"" + topic + "\":{\"0\":0,\"1\":0}}");
            assertThat(JSON.writeValueAsString(run1.sources().get(0).endOffset())).isEqualTo("{\"" + topic + "\":{\"0\":3,\"1\":3}}");
            assertThat(run1.toJson()).contains("\"description\":\"DeltaSink[" + Path.of(table()).toAbsolutePath());
            assertThat(ids()).containsExactly(1, 2);

            assertThat(sink.runBatch()).isEmpty();
            assertThat(DeltaTables.latestVersion(table())).isZero();
            assertThat(sink.idleProgress().orElseThrow().batchId()).isEqualTo(1);
            assertThat(sink.idleProgress().orElseThrow().numInputRows()).isZero();

            // published just before the batch: commitTransaction() returns before the brokers write the
            // commit markers, so the sink waits for them (pendingTransactionWait) rather than miss the row

            publish(topic, 2, row(3, "a", 3.0, "2024-01-01T10:02:00Z"));
            Progress run3 = sink.runBatch().orElseThrow();
            assertThat(run3.batchId()).isEqualTo(1);
            assertThat(run3.numInputRows()).isEqualTo(1);
            assertThat(run3.sink().metrics()).containsEntry("deltaVersion", 1L);
            assertThat(ids()).containsExactly(1, 2, 3);
        }

        try (DeltaSink restarted = new DeltaSink(config(topic), client())) {
            assertThat(restarted.nextBatchId()).isEqualTo(2);
            assertThat(restarted.runBatch()).isEmpty();
            publish(topic, 2, row(4, "c", 4.0, "2024-01-01T10:03:00Z"));
            Progress run4 = restarted.runBatch().orElseThrow();
            assertThat(run4.batchId()).isEqualTo(2);
            assertThat(run4.numInputRows()).isEqualTo(1);
            SinkStatus status = restarted.status();
            assertThat(status.tableVersion()).isEqualTo(2);
            assertThat(status.lastBatchId()).isEqualTo(2);
            assertThat(status.offsets().offsets()).isEqualTo(Map.of(0, 8L, 1, 8L));
        }
        assertThat(ids()).containsExactly(1, 2, 3, 4);
        List<TableCommit> history = DeltaTables.history(table());
        assertThat(history).extracting(TableCommit::txnVersion).containsExactly(0L, 1L, 2L);
        assertThat(history).extracting(TableCommit::operation).containsOnly("STREAMING UPDATE");
        assertThat(history).extracting(TableCommit::addedRows).containsExactly(2L, 1L, 1L);
    }

    @Test
    void versionZeroHasWhatSparkReads() throws Exception {
        String topic = newTopic(1);
        publish(topic, 1, row(1, "a", 1.5, "2024-01-01T10:00:00.000001Z"));
        try (DeltaSink sink = new DeltaSink(config(topic), client())) {
            sink.runBatch().orElseThrow();
        }
        List<JsonNode> actions = new ArrayList<>();
        for (String line : Files.readAllLines(dir.resolve("out/_delta_log/00000000000000000000.json"))) {
            actions.add(JSON.readTree(line));
        }
        assertThat(actions).anyMatch(a -> a.has("protocol"));
        JsonNode meta = actions.stream().filter(a -> a.has("metaData")).findFirst().orElseThrow().get("metaData");
        assertThat(meta.path("schemaString").asText())
                .contains("{\"name\":\"ts\",\"type\":\"timestamp\",\"nullable\":true,\"metadata\":{}}");
        JsonNode txn = actions.stream().filter(a -> a.has("txn")).findFirst().orElseThrow().get("txn");
        assertThat(txn.path("appId").asText()).isEqualTo("tributary-quickstart-sink");
        assertThat(txn.path("version").asLong()).isZero();
        JsonNode commitInfo = actions.stream().filter(a -> a.has("commitInfo")).findFirst().orElseThrow().get("commitInfo");
        assertThat(commitInfo.path("operation").asText()).isEqualTo("STREAMING UPDATE");
        assertThat(DeltaTables.readRows(table()).get(0)[3]).isEqualTo(Timestamps.parseMicros("2024-01-01T10:00:00.000001Z", true));
    }

    @Test
    void maxRowsPerBatchSplitsTheBacklogIntoSeveralCommits() throws Exception {
        String topic = newTopic(1);
        publish(topic, 1, row(1, "a", 1, "2024-01-01T10:00:00Z"), row(2, "a", 1, "2024-01-01T10:00:00Z"),
                row(3, "a", 1, "2024-01-01T10:00:00Z"), row(4, "a", 1, "2024-01-01T10:00:00Z"), row(5, "a", 1, "2024-01-01T10:00:00Z"));
        List<Long> sizes = new ArrayList<>();
        try (DeltaSink sink = new DeltaSink(config(topic).toBuilder().maxRowsPerBatch(2).build(), client())) {
            for (Optional<Progress> p = sink.runBatch(); p.isPresent(); p = sink.runBatch()) {
                sizes.add(p.get().numInputRows());
            }
        }
        assertThat(sizes).containsExactly(2L, 2L, 1L);
        assertThat(ids()).containsExactly(1, 2, 3, 4, 5);
        assertThat(DeltaTables.latestVersion(table())).isEqualTo(2);
    }

    @Test
    void aSecondSinkOnTheSameTableDoesNotDuplicateABatch() throws Exception {
        String topic = newTopic(1);
        publish(topic, 1, row(1, "a", 1, "2024-01-01T10:00:00Z"));
        try (DeltaSink first = new DeltaSink(config(topic), client());
             DeltaSink stale = new DeltaSink(config(topic), client())) {
            first.runBatch().orElseThrow();
            Progress replay = stale.runBatch().orElseThrow();
            assertThat(replay.batchId()).isZero();
            assertThat(replay.sink().numOutputRows()).isZero();
            assertThat(replay.sink().metrics()).containsEntry("alreadyCommitted", true);
            assertThat(stale.nextBatchId()).isEqualTo(1);
            assertThat(stale.runBatch()).isEmpty();
        }
        assertThat(ids()).containsExactly(1);
        assertThat(DeltaTables.latestVersion(table())).isZero();
    }

    @Test
    void aRecreatedTopicIsRefusedNotReadAgain() throws Exception {
        String topic = newTopic(1);
        publish(topic, 1, row(1, "a", 1, "2024-01-01T10:00:00Z"));
        try (DeltaSink sink = new DeltaSink(config(topic), client())) {
            sink.runBatch().orElseThrow();
        }
        try (Admin admin = Admin.create(client())) {
            admin.deleteTopics(List.of(topic)).all().get();
            // while the deletion is still in progress, the topic cannot be created again
            await("topic " + topic + " created anew").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                    .ignoreExceptionsInstanceOf(java.util.concurrent.ExecutionException.class)
                    .until(() -> {
                        admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
                        return true;
                    });
            TopicCreation.awaitVisible(admin, List.of(topic));
        }
        assertThatThrownBy(() -> new DeltaSink(config(topic), client()))
                .isInstanceOf(TributaryException.class)
                .hasMessageContaining("was created anew").hasMessageContaining("--reprocess");
        assertThat(ids()).containsExactly(1);

        publish(topic, 1, row(1, "a", 1, "2024-01-01T10:00:00Z"));
        try (DeltaSink sink = DeltaSink.builder(config(topic), client()).reprocess(true).build()) {
            assertThat(sink.runBatch().orElseThrow().batchId()).isEqualTo(1);
        }
        assertThat(ids()).as("--reprocess appends the new topic's rows again, as Spark does").containsExactly(1, 1);
    }

    @Test
    void recordsDeletedBeforeTheSinkReadThemAreReportedNotSkipped() throws Exception {
        String topic = newTopic(1);
        publish(topic, 1, row(1, "a", 1, "2024-01-01T10:00:00Z"));
        try (DeltaSink sink = new DeltaSink(config(topic), client())) {
            sink.runBatch().orElseThrow();
        }
        publish(topic, 1, row(2, "a", 1, "2024-01-01T10:00:00Z"), row(3, "a", 1, "2024-01-01T10:00:00Z"));
        try (Admin admin = Admin.create(client())) { // as retention would: rows 2 and 3 are gone before the sink saw them
            admin.deleteRecords(Map.of(new org.apache.kafka.common.TopicPartition(topic, 0),
                    org.apache.kafka.clients.admin.RecordsToDelete.beforeOffset(5))).all().get();
        }
        try (DeltaSink sink = new DeltaSink(config(topic), client())) {
            assertThatThrownBy(sink::runBatch)
                    .isInstanceOf(TributaryException.class)
                    .hasMessageContaining("no longer (or not yet) in the topic");
        }
        assertThat(ids()).containsExactly(1);
        assertThat(DeltaTables.latestVersion(table())).isZero();
    }
}
