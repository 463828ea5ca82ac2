package io.tributary.source;

import static io.tributary.source.TestTable.row;
import static io.tributary.source.TestTable.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.delta.kernel.types.DoubleType;
import io.delta.kernel.types.IntegerType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructType;
import io.tributary.broker.BrokerExtension;
import io.tributary.kafka.SettledLog;
import io.tributary.schema.Progress;
import io.tributary.schema.RowPack;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The delta-source against real Delta tables on disk and a real KRaft broker, scenario by scenario. */
@Tag("integration")
class DeltaSourceTest {
    static final Schema SCHEMA = Schema.parse("id INT, user STRING, amt DOUBLE");
    static final StructType KERNEL = new StructType()
            .add("id", IntegerType.INTEGER, true).add("user", StringType.STRING, true).add("amt", DoubleType.DOUBLE, true);
    private static final AtomicInteger PIPELINES = new AtomicInteger();

    @RegisterExtension
    static final BrokerExtension KAFKA = new BrokerExtension();

    @TempDir
    Path dir;

    static String json(int id, String user, double amt) {
        return "{\"id\":" + id + ",\"user\":\"" + user + "\",\"amt\":" + amt + "}";
    }

    Map<String, Object> kafka() {
        return KAFKA.client();
    }

    TestTable table() {
        return TestTable.create(dir.resolve("bronze"), SCHEMA, KERNEL, Map.of());
    }

    DeltaSourceConfig.Builder config(TestTable t) {
        return DeltaSourceConfig.builder("silver" + PIPELINES.incrementAndGet(), t.path);
    }

    List<String> published(DeltaSourceConfig c) {
        return TopicReader.values(KAFKA.broker().bootstrapServers(), c.topic());
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> endOffset(Progress p) {
        return (Map<String, Object>) p.sources().get(0).endOffset();
    }

    @Test
    void firstRunPublishesTheSnapshotThenEachNewAppendOnceAndARestartResumesExactly() {
        TestTable t = table();
        t.append(rows(row(1, "a", 1.0), row(2, "b", 2.0)));
        t.append(rows(row(3, "a", 3.0)));
        DeltaSourceConfig c = config(t).build();

        try (DeltaSource source = new DeltaSource(c, kafka())) {
            assertThat(source.schema()).isEqualTo(SCHEMA);
            Progress p0 = source.runBatch().orElseThrow();
            assertThat(p0.batchId()).isZero();
            assertThat(p0.numInputRows()).isEqualTo(3);
            assertThat(p0.name()).isEqualTo(c.pipeline() + "/delta-source");
            assertThat(p0.sources().get(0).description()).isEqualTo("DeltaSource[" + t.path + "]");
            assertThat(p0.sources().get(0).startOffset()).isNull();
            assertThat(endOffset(p0)).containsEntry("reservoirVersion", 3L).containsEntry("index", -1L)
                    .containsEntry("isStartingVersion", false);
            assertThat(p0.sink().description()).isEqualTo("KafkaSink[" + c.topic() + "]");
            assertThat(p0.sink().numOutputRows()).isEqualTo(3);
            assertThat(published(c)).containsExactlyInAnyOrder(json(1, "a", 1.0), json(2, "b", 2.0), json(3, "a", 3.0));

            assertThat(source.runBatch()).isEmpty();

            t.append(rows(row(4, "c", 4.0)));
            Progress p1 = source.runBatch().orElseThrow();
            assertThat(p1.batchId()).isEqualTo(1);
            assertThat(p1.numInputRows()).isEqualTo(1);
            assertThat(p1.sources().get(0).startOffset()).isEqualTo(p0.sources().get(0).endOffset());
            assertThat(endOffset(p1)).containsEntry("reservoirVersion", 4L);
            assertThat(published(c)).hasSize(4).last().isEqualTo(json(4, "c", 4.0));
        }

        t.append(rows(row(5, "d", 5.0)));
        try (DeltaSource restarted = new DeltaSource(c, kafka())) {
            Progress p2 = restarted.runBatch().orElseThrow();
            assertThat(p2.batchId()).isEqualTo(2);
            assertThat(p2.numInputRows()).isEqualTo(1);
            assertThat(restarted.runBatch()).isEmpty();
        }
        try (DeltaSource again = new DeltaSource(c, kafka())) {
            assertThat(again.runBatch()).isEmpty();
        }
        assertThat(published(c)).containsExactlyInAnyOrder(json(1, "a", 1.0), json(2, "b", 2.0), json(3, "a", 3.0),
                json(4, "c", 4.0), json(5, "d", 5.0));
    }

    /** Rows go rowsPerRecord to a record, as the file source packs them; a file's last rows end their record. */
    @Test
    void rowsArePackedRowsPerRecordAndAFilesLastRowsEndTheirRecord() {
        TestTable t = table();
        List<Object[]> big = new ArrayList<>();
        List<String> expected = new ArrayList<>();
        for (int i = 1; i <= 2500; i++) {
            big.add(row(i, "u" + i % 7, (double) i));
            expected.add(json(i, "u" + i % 7, i));
        }
        t.append(big);
        t.append(rows(row(2501, "v", 1.0)));
        expected.add(json(2501, "v", 1.0));
        for (int perRecord : new int[] {1000, 1}) {
            DeltaSourceConfig c = config(t).rowsPerRecord(perRecord).build();
            try (DeltaSource source = new DeltaSource(c, kafka())) {
                assertThat(source.runBatch().orElseThrow().numInputRows()).isEqualTo(2501);
            }
            assertThat(published(c)).containsExactlyInAnyOrderElementsOf(expected);
            List<Integer> rowsPerRecord = new ArrayList<>();
            SettledLog.read(kafka(), c.topic(), "test-reader", () -> new TributaryException("no topic " + c.topic()), "reading " + c.topic(),
                    r -> rowsPerRecord.add(RowPack.forEachRow(r.value(), (b, off, len) -> { })));
            if (perRecord == 1000) {
                assertThat(rowsPerRecord).containsExactlyInAnyOrder(1000, 1000, 500, 1);
            } else {
                assertThat(rowsPerRecord).hasSize(2501).containsOnly(1);
            }
        }
    }

    @Test
    void anUpdateCommitStopsTheStreamWithSparksMessageNamingTheVersion() {
        TestTable t = table();
        t.append(rows(row(1, "a", 1.0), row(2, "b", 2.0)));
        DeltaSourceConfig c = config(t).build();
        try (DeltaSource source = new DeltaSource(c, kafka())) {
            source.runBatch().orElseThrow();
            long v = t.update(r -> (Integer) r[0] == 1, r -> row(1, "a", 10.0));
            t.append(rows(row(3, "c", 3.0)));
            assertThatThrownBy(source::runBatch).isInstanceOf(TributaryException.class)
                    .hasMessageContaining("[DELTA_SOURCE_TABLE_IGNORE_CHANGES] Detected a data update (for example Manual Update")
                    .hasMessageContaining("in the source table at version " + v + ".")
                    .hasMessageContaining("set the option 'skipChangeCommits' to 'true'")
                    .hasMessageContaining("fresh checkpoint")
                    .hasMessageContaining("The source table can be found at path " + t.path);
        }
        // a restart fails again on the same commit, and nothing of it or after it was published
        try (DeltaSource restarted = new DeltaSource(c, kafka())) {
            assertThatThrownBy(restarted::runBatch).hasMessageContaining("DELTA_SOURCE_TABLE_IGNORE_CHANGES");
        }
        assertThat(published(c)).containsExactlyInAnyOrder(json(1, "a", 1.0), json(2, "b", 2.0));
    }

    @Test
    void theSnapshotOfATableWithDeletionVectorsLeavesOutTheMarkedRows() {
        TestTable t = TestTable.create(dir.resolve("bronze"), SCHEMA, KERNEL, Map.of("delta.enableDeletionVectors", "true"));
        t.append(rows(row(1, "a", 1.0), row(2, "b", 2.0), row(3, "c", 3.0)), rows(row(4, "d", 4.0)));
        t.deleteWithDeletionVectors(r -> (Integer) r[0] == 2);
        DeltaSourceConfig c = config(t).build();
        try (DeltaSource source = new DeltaSource(c, kafka())) {
            assertThat(source.runBatch().orElseThrow().numInputRows()).isEqualTo(3);
        }
        assertThat(published(c)).containsExactlyInAnyOrder(json(1, "a", 1.0), json(3, "c", 3.0), json(4, "d", 4.0));
    }

    @Test
    void skipChangeCommitsSkipsTheUpdateEntirelyAndTheAppendAfterItFlows() {
        TestTable t = table();
        t.append(rows(row(1, "a", 1.0), row(2, "b", 2.0)));
        DeltaSourceConfig c = config(t).skipChangeCommits(true).build();
        try (DeltaSource source = new DeltaSource(c, kafka())) {
            source.runBatch().orElseThrow();
            t.update(r -> (Integer) r[0] == 1, r -> row(1, "a", 10.0));
            t.append(rows(row(3, "c", 3.0)));
            Progress p = source.runBatch().orElseThrow();
            assertThat(p.numInputRows()).isEqualTo(1);
        }
        assertThat(published(c)).containsExactlyInAnyOrder(json(1, "a", 1.0), json(2, "b", 2.0), json(3, "c", 3.0));
    }

    @Test
    void aDeleteOfWholeFilesStopsTheStreamUnlessIgnoreDeletes() {
        TestTable t = table();
        t.append(rows(row(1, "a", 1.0)));
        t.append(rows(row(2, "b", 2.0)));
        DeltaSourceConfig strict = config(t).build();
        DeltaSourceConfig lenient = config(t).ignoreDeletes(true).build();
        try (DeltaSource s1 = new DeltaSource(strict, kafka()); DeltaSource s2 = new DeltaSource(lenient, kafka())) {
            s1.runBatch().orElseThrow();
            s2.runBatch().orElseThrow();
            long v = t.deleteFiles(r -> (Integer) r[0] == 1);
            t.append(rows(row(3, "c", 3.0)));
            assertThatThrownBy(s1::runBatch)
                    .hasMessageContaining("[DELTA_SOURCE_IGNORE_DELETE] Detected deleted data (for example ")
                    .hasMessageContaining("from streaming source at version " + v + ".")
                    .hasMessageContaining("set the option 'ignoreDeletes' to 'true'")
                    .hasMessageContaining(t.path);
            assertThat(s2.runBatch().orElseThrow().numInputRows()).isEqualTo(1);
        }
        assertThat(published(strict)).containsExactlyInAnyOrder(json(1, "a", 1.0), json(2, "b", 2.0));
        assertThat(published(lenient)).containsExactlyInAnyOrder(json(1, "a", 1.0), json(2, "b", 2.0), json(3, "c", 3.0));
    }

    @Test
    void ignoreDeletesStillStopsOnAnUpdate() {
        TestTable t = table();
        t.append(rows(row(1, "a", 1.0)));
        DeltaSourceConfig c = config(t).ignoreDeletes(true).build();
        try (DeltaSource source = new DeltaSource(c, kafka())) {
            source.runBatch().orElseThrow();
            t.update(r -> true, r -> row(1, "a", 2.0));
            assertThatThrownBy(source::runBatch).hasMessageContaining("DELTA_SOURCE_TABLE_IGNORE_CHANGES");
        }
    }

    @Test
    void compactionReEmitsNothing() {
        TestTable t = table();
        t.append(rows(row(1, "a", 1.0)));
        t.append(rows(row(2, "b", 2.0)));
        DeltaSourceConfig c = config(t).build();
        try (DeltaSource source = new DeltaSource(c, kafka())) {
            source.runBatch().orElseThrow();
            long v = t.compact();
            Progress p = source.runBatch().orElseThrow();
            assertThat(p.numInputRows()).isZero();
            assertThat(endOffset(p)).containsEntry("reservoirVersion", v + 1);
            t.append(rows(row(3, "c", 3.0)));
            assertThat(source.runBatch().orElseThrow().numInputRows()).isEqualTo(1);
        }
        assertThat(t.rows()).hasSize(3);
        assertThat(published(c)).containsExactlyInAnyOrder(json(1, "a", 1.0), json(2, "b", 2.0), json(3, "c", 3.0));
    }

    @Test
    void startingVersionNumberReadsThatCommitAndLaterOnesWithoutTheSnapshot() {
        TestTable t = table();
        t.append(rows(row(1, "a", 1.0)));
        long v2 = t.append(rows(row(2, "b", 2.0)));
        t.append(rows(row(3, "c", 3.0)));
        DeltaSourceConfig c = config(t).startingVersion(String.valueOf(v2)).build();
        try (DeltaSource source = new DeltaSource(c, kafka())) {
            Progress p = source.runBatch().orElseThrow();
            assertThat(p.numInputRows()).isEqualTo(2);
        }
        assertThat(published(c)).containsExactly(json(2, "b", 2.0), json(3, "c", 3.0));
    }

    @Test
    void startingVersionLatestReadsOnlyCommitsMadeAfterTheStart() {
        TestTable t = table();
        t.append(rows(row(1, "a", 1.0)));
        DeltaSourceConfig c = config(t).startingVersion("latest").build();
        try (DeltaSource source = new DeltaSource(c, kafka())) {
            assertThat(source.runBatch()).isEmpty();
        }
        t.append(rows(row(2, "b", 2.0)));
        try (DeltaSource restarted = new DeltaSource(c, kafka())) {
            Progress p = restarted.runBatch().orElseThrow();
            assertThat(p.batchId()).isZero();
            assertThat(p.numInputRows()).isEqualTo(1);
        }
        assertThat(published(c)).containsExactly(json(2, "b", 2.0));
    }

    @Test
    void aStartingVersionAfterTheLatestIsAClearError() {
        TestTable t = table();
        t.append(rows(row(1, "a", 1.0)));
        try (DeltaSource source = new DeltaSource(config(t).startingVersion("7").build(), kafka())) {
            assertThatThrownBy(source::runBatch).hasMessageContaining("startingVersion 7 is after the latest version (1)");
        }
    }

    @Test
    void maxFilesPerTriggerBoundsEachBatchAndARestartMidSnapshotResumesExactly() {
        TestTable t = table();
        t.append(rows(row(1, "a", 1.0)), rows(row(2, "b", 2.0)), rows(row(3, "c", 3.0)));
        DeltaSourceConfig c = config(t).maxFilesPerTrigger(2).build();
        try (DeltaSource source = new DeltaSource(c, kafka())) {
            Progress p0 = source.runBatch().orElseThrow();
            assertThat(p0.numInputRows()).isEqualTo(2);
            assertThat(endOffset(p0)).containsEntry("reservoirVersion", 1L).containsEntry("index", 1L)
                    .containsEntry("isStartingVersion", true);
        }
        t.append(rows(row(4, "d", 4.0)), rows(row(5, "e", 5.0)));
        try (DeltaSource restarted = new DeltaSource(c, kafka())) {
            Progress p1 = restarted.runBatch().orElseThrow();
            assertThat(p1.numInputRows()).isEqualTo(2); // the snapshot's last file, then the first file of version 2
            assertThat(endOffset(p1)).containsEntry("reservoirVersion", 2L).containsEntry("index", 0L)
                    .containsEntry("isStartingVersion", false);
            Progress p2 = restarted.runBatch().orElseThrow();
            assertThat(p2.numInputRows()).isEqualTo(1);
            assertThat(endOffset(p2)).containsEntry("reservoirVersion", 3L).containsEntry("index", -1L);
            assertThat(restarted.runBatch()).isEmpty();
        }
        assertThat(published(c)).containsExactlyInAnyOrder(json(1, "a", 1.0), json(2, "b", 2.0), json(3, "c", 3.0),
                json(4, "d", 4.0), json(5, "e", 5.0));
    }

    @Test
    void maxBytesPerTriggerIsASoftLimitOfAtLeastOneFile() {
        TestTable t = table();
        t.append(rows(row(1, "a", 1.0)), rows(row(2, "b", 2.0)), rows(row(3, "c", 3.0)));
        DeltaSourceConfig c = config(t).maxBytesPerTrigger(1).build();
        try (DeltaSource source = new DeltaSource(c, kafka())) {
            assertThat(source.runBatch().orElseThrow().numInputRows()).isEqualTo(1);
            assertThat(source.runBatch().orElseThrow().numInputRows()).isEqualTo(1);
            assertThat(source.runBatch().orElseThrow().numInputRows()).isEqualTo(1);
            assertThat(source.runBatch()).isEmpty();
        }
        assertThat(published(c)).hasSize(3);
    }

    @Test
    void aBatchThatFailsHalfwayPublishesNothingAndKeepsItsPosition() throws Exception {
        TestTable t = table();
        t.append(rows(row(1, "a", 1.0)), rows(row(2, "b", 2.0)));
        // lose the data file the snapshot reads last, so the first file's rows are sent before the failure
        Path last = null;
        for (String[] f : t.files()) {
            Path p = Path.of(t.path, f[0]);
            if (last == null || java.nio.file.Files.getLastModifiedTime(p).compareTo(java.nio.file.Files.getLastModifiedTime(last)) > 0
                    || (java.nio.file.Files.getLastModifiedTime(p).equals(java.nio.file.Files.getLastModifiedTime(last)) && p.compareTo(last) > 0)) {
                last = p;
            }
        }
        byte[] saved = java.nio.file.Files.readAllBytes(last);
        java.nio.file.Files.delete(last);
        DeltaSourceConfig c = config(t).build();
        try (DeltaSource source = new DeltaSource(c, kafka())) {
            assertThatThrownBy(source::runBatch).isInstanceOf(TributaryException.class).hasMessageContaining("rolled back");
        }
        assertThat(published(c)).isEmpty();
        java.nio.file.Files.write(last, saved);
        try (DeltaSource restarted = new DeltaSource(c, kafka())) {
            assertThat(restarted.runBatch().orElseThrow().batchId()).isZero();
        }
        assertThat(published(c)).containsExactlyInAnyOrder(json(1, "a", 1.0), json(2, "b", 2.0));
    }

    @Test
    void aTableThatDoesNotExistIsAClearError() {
        DeltaSourceConfig c = DeltaSourceConfig.builder("nope", dir.resolve("missing").toString()).build();
        try (DeltaSource source = new DeltaSource(c, kafka())) {
            assertThatThrownBy(source::runBatch).isInstanceOf(TributaryException.class)
                    .hasMessageContaining("no Delta table at " + dir.resolve("missing"));
        }
    }

    @Test
    void aVersionTheLogNoLongerHoldsIsAClearErrorNamingTheOldestAvailable() throws Exception {
        TestTable t = table();
        t.append(rows(row(1, "a", 1.0)));
        DeltaSourceConfig c = config(t).build();
        try (DeltaSource source = new DeltaSource(c, kafka())) {
            source.runBatch().orElseThrow(); // stored position: version 2
        }
        t.append(rows(row(2, "b", 2.0)));
        t.append(rows(row(3, "c", 3.0)));
        t.snapshot().writeCheckpoint(t.engine); // checkpoint at version 3
        for (int v = 0; v <= 2; v++) {
            java.nio.file.Files.delete(Path.of(t.path, "_delta_log", String.format("%020d.json", v)));
        }
        try (DeltaSource restarted = new DeltaSource(c, kafka())) {
            assertThatThrownBy(restarted::runBatch).isInstanceOf(TributaryException.class)
                    .hasMessageContaining("no longer holds version 2")
                    .hasMessageContaining("the oldest version still available is 3");
        }
        try (DeltaSource fromOne = new DeltaSource(config(t).startingVersion("1").build(), kafka())) {
            assertThatThrownBy(fromOne::runBatch)
                    .hasMessageContaining("startingVersion 1")
                    .hasMessageContaining("the oldest version still available is 3");
        }
        // the current snapshot is still readable from the checkpoint
        DeltaSourceConfig fresh = config(t).build();
        try (DeltaSource snapshot = new DeltaSource(fresh, kafka())) {
            assertThat(snapshot.runBatch().orElseThrow().numInputRows()).isEqualTo(3);
        }
        assertThat(published(c)).containsExactly(json(1, "a", 1.0));
    }
}
