package io.tributary.sink.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.schema.TributaryException;
import io.tributary.delta.KernelEngines;
import io.tributary.schema.Timestamps;
import io.tributary.sink.DeltaTables;
import io.tributary.sink.SinkOffsets;
import io.tributary.sink.internal.AppendStream;
import io.tributary.sink.internal.CommitResult;
import io.tributary.sink.internal.DeltaTableWriter;
import io.tributary.sink.internal.Partitioning;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OptimizeTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private Path table() {
        return dir.resolve("table");
    }

    private static List<JsonNode> actions(Path commit) throws IOException {
        List<JsonNode> out = new ArrayList<>();
        for (String line : Files.readAllLines(commit)) {
            out.add(JSON.readTree(line));
        }
        return out;
    }

    @Test
    void twentySmallCommitsBecomeOneFileWithTheSameRows() throws IOException {
        TestTables.at(table()).commits(20, 5, 1);
        List<String> before = TestTables.rows(table());
        assertThat(DeltaTables.latestVersion(table().toString())).isEqualTo(19);

        OptimizeResult r = Optimize.run(table().toString(), OptimizeOptions.defaults());

        assertThat(r.version()).isEqualTo(20);
        assertThat(r.filesBefore()).isEqualTo(20);
        assertThat(r.filesRemoved()).isEqualTo(20);
        assertThat(r.filesAdded()).isEqualTo(1);
        assertThat(TestTables.rows(table())).isEqualTo(before).hasSize(100);
        assertThat(TableDescription.of(table().toString(), OptimizeOptions.DEFAULT_TARGET_FILE_SIZE).files()).isEqualTo(1);
        List<JsonNode> commit = actions(TestTables.commitFile(table(), 20));
        assertThat(commit.stream().filter(a -> a.has("add"))).hasSize(1).allMatch(a -> !a.get("add").get("dataChange").asBoolean());
        assertThat(commit.stream().filter(a -> a.has("remove"))).hasSize(20).allMatch(a -> !a.get("remove").get("dataChange").asBoolean());
        JsonNode info = commit.stream().filter(a -> a.has("commitInfo")).findFirst().orElseThrow().get("commitInfo");
        assertThat(info.get("operation").asText()).isEqualTo("Manual Update");
        assertThat(info.get("engineInfo").asText()).contains("OPTIMIZE");
        assertThat(commit.stream().filter(a -> a.has("txn") || a.has("domainMetadata"))).isEmpty();
        // the add keeps statistics, so readers can still skip the file
        JsonNode add = commit.stream().filter(a -> a.has("add")).findFirst().orElseThrow().get("add");
        assertThat(JSON.readTree(add.get("stats").asText()).get("numRecords").asLong()).isEqualTo(100);

        // the sink goes on appending after the compaction, and a second optimize finds nothing to do
        new TestTables(table().toString(), List.of(), Map.of()).commits(1, 5, 1);
        assertThat(TestTables.rows(table())).hasSize(105);
        assertThat(DeltaTables.transactionVersion(table().toString(), TestTables.APP)).contains(20L);
        OptimizeResult again = Optimize.run(table().toString(), OptimizeOptions.defaults());
        assertThat(again.version()).isEqualTo(22);
        OptimizeResult nothing = Optimize.run(table().toString(), OptimizeOptions.defaults());
        assertThat(nothing.committed()).isFalse();
        assertThat(DeltaTables.latestVersion(table().toString())).isEqualTo(22);
    }

    @Test
    void aTableWithCheckConstraintsIsCompactedAndKeepsThem() {
        Path t = io.tributary.sink.SparkCreatedTables.create(table(), List.of("id integer", "user string"),
                List.of(io.tributary.sink.SparkCreatedTables.CHECK_CONSTRAINTS), Map.of("delta.constraints.id_positive", "id > 0"));
        io.tributary.sink.PartitionSink sink = new io.tributary.sink.PartitionSink(t.toString(), io.tributary.schema.Schema.parse(
                "id INT, user STRING"), List.of(), OptimizeOptions.DEFAULT_TARGET_FILE_SIZE, Map.of(), "writer");
        org.apache.kafka.common.TopicPartition p0 = new org.apache.kafka.common.TopicPartition("rows", 0);
        for (int i = 1; i <= 3; i++) {
            try (io.tributary.sink.PartitionSink.Batch b = sink.begin()) {
                b.add(new Object[] {i, "u" + i});
                b.commit(Map.of(p0, (long) i - 1), Map.of(p0, (long) i));
            }
        }
        List<Object[]> before = DeltaTables.readRows(t.toString());

        OptimizeResult r = Optimize.run(t.toString(), OptimizeOptions.defaults());

        assertThat(r.version()).isEqualTo(4);
        assertThat(r.filesRemoved()).isEqualTo(3);
        assertThat(r.filesAdded()).isEqualTo(1);
        assertThat(DeltaTables.readRows(t.toString())).hasSize(3).containsExactlyInAnyOrderElementsOf(before);
        assertThat(DeltaTables.rowRules(t.toString(), io.tributary.storage.Storage.NONE).orElseThrow().constraints())
                .containsExactly(Map.entry("id_positive", "id > 0"));
    }

    @Test
    void filesAtHalfTheTargetOrLargerAreLeftAlone() {
        TestTables.at(table()).commits(6, 50, 1);
        long size = TestTables.parquetFiles(table()).stream().mapToLong(p -> p.toFile().length()).min().orElseThrow();

        OptimizeResult r = Optimize.run(table().toString(), OptimizeOptions.defaults().withTargetFileSize(size * 2));

        assertThat(r.committed()).isFalse();
        assertThat(r.filesBefore()).isEqualTo(6);
    }

    @Test
    void aTargetOfTwoFilesPacksSmallFilesIntoSeveralBins() {
        TestTables.at(table()).commits(12, 50, 1);
        List<String> before = TestTables.rows(table());
        long size = TestTables.parquetFiles(table()).stream().mapToLong(p -> p.toFile().length()).max().orElseThrow();

        // files are just under target/2, so each bin holds two of them
        OptimizeResult r = Optimize.run(table().toString(), OptimizeOptions.defaults().withTargetFileSize(size * 2 + 2));

        assertThat(r.filesRemoved()).isEqualTo(12);
        assertThat(r.filesAdded()).isEqualTo(6);
        assertThat(TestTables.rows(table())).isEqualTo(before);
    }

    @Test
    void eachPartitionIsCompactedOnItsOwn() {
        new TestTables(table().toString(), List.of("date(ts) as day"), Map.of()).commits(10, 9, 3);
        List<String> before = TestTables.rows(table());
        assertThat(TestTables.parquetFiles(table())).hasSize(30);

        OptimizeResult r = Optimize.run(table().toString(), OptimizeOptions.defaults());

        assertThat(r.partitions()).isEqualTo(3);
        assertThat(r.filesRemoved()).isEqualTo(30);
        assertThat(r.filesAdded()).isEqualTo(3);
        assertThat(TestTables.rows(table())).isEqualTo(before);
        TableDescription d = TableDescription.of(table().toString(), OptimizeOptions.DEFAULT_TARGET_FILE_SIZE);
        assertThat(d.partitions()).containsOnly(Map.entry("day=2024-05-01", 1), Map.entry("day=2024-05-02", 1), Map.entry("day=2024-05-03", 1));
    }

    @Test
    void whereCompactsOnlyTheNamedPartition() {
        new TestTables(table().toString(), List.of("date(ts) as day"), Map.of()).commits(4, 4, 2);
        List<String> before = TestTables.rows(table());

        OptimizeResult r = Optimize.run(table().toString(), OptimizeOptions.defaults().withWhere("day = '2024-05-02'"));

        assertThat(r.filesRemoved()).isEqualTo(4);
        assertThat(TableDescription.of(table().toString(), OptimizeOptions.DEFAULT_TARGET_FILE_SIZE).partitions())
                .containsOnly(Map.entry("day=2024-05-01", 4), Map.entry("day=2024-05-02", 1));
        assertThat(TestTables.rows(table())).isEqualTo(before);
        assertThatThrownBy(() -> Optimize.run(table().toString(), OptimizeOptions.defaults().withWhere("user = 'u1'")))
                .isInstanceOf(TributaryException.class).hasMessageContaining("'user' is not a partition column").hasMessageContaining("[day]");
        assertThatThrownBy(() -> Optimize.run(table().toString(), OptimizeOptions.defaults().withWhere("day > '2024-05-01'")))
                .isInstanceOf(TributaryException.class).hasMessageContaining("not an equality");
    }

    @Test
    void aSinkCommitDuringOptimizeKeepsItsRows() {
        TestTables.at(table()).commits(5, 5, 1);
        List<String> before = TestTables.rows(table());
        TestTables sink = new TestTables(table().toString(), List.of(), Map.of());

        OptimizeResult r = new Optimize(table().toString(), OptimizeOptions.defaults())
                .beforeCommit(attempt -> sink.commits(1, 5, 1))
                .run();

        assertThat(r.attempts()).isEqualTo(1);
        assertThat(r.version()).isEqualTo(6); // rebased over the sink's version 5
        List<String> after = TestTables.rows(table());
        assertThat(after).hasSize(30).containsAll(before);
        assertThat(TableDescription.of(table().toString(), OptimizeOptions.DEFAULT_TARGET_FILE_SIZE).files()).isEqualTo(2);
        assertThat(DeltaTables.transactionVersion(table().toString(), TestTables.APP)).contains(5L);
    }

    /**
     * Optimize against a live sink: the sink's commit takes the version optimize meant to commit, and
     * its checksum (.crc) is not written yet, as when the sink runs in another process. Optimize says
     * so in one INFO line and commits on top; no warning, no stack trace (Kernel's own retry logged
     * the conflict and the missing checksum as two WARN stack traces).
     */
    @Test
    void aSinkCommitDuringOptimizeIsOneInfoLineNotAWarning() throws IOException {
        TestTables.at(table()).commits(5, 5, 1);
        TestTables sink = new TestTables(table().toString(), List.of(), Map.of());
        Path crc = table().resolve("_delta_log").resolve(String.format("%020d.crc", 5));

        String log = stderrOf(() -> {
            OptimizeResult r = new Optimize(table().toString(), OptimizeOptions.defaults())
                    .beforeCommit(attempt -> {
                        sink.commits(1, 5, 1);
                        try {
                            Files.delete(crc);
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    })
                    .run();
            assertThat(r.version()).isEqualTo(6);
            assertThat(r.attempts()).isEqualTo(1);
        });

        assertThat(log).contains(": the table changed at version 5 during the rewrite; retrying the commit on top of it")
                .doesNotContain("WARN").doesNotContain("Exception").doesNotContain("\tat ");
        assertThat(TestTables.rows(table())).hasSize(30);
        assertThat(DeltaTables.transactionVersion(table().toString(), TestTables.APP)).contains(5L);
    }

    /**
     * The other side of the race: optimize commits while a sink batch is being written, and its
     * checksum is not there yet. The sink says so in one INFO line and commits the batch on top,
     * exactly once; no warning, no stack trace.
     */
    @Test
    void anOptimizeCommitDuringASinkBatchIsOneInfoLineNotAWarning() {
        TestTables.at(table()).commits(5, 5, 1);
        DeltaTableWriter writer = new DeltaTableWriter(KernelEngines.create(), table().toString(), Map.of(),
                Partitioning.parse(List.of(), TestTables.SCHEMA));
        Path crc = table().resolve("_delta_log").resolve(String.format("%020d.crc", 5));

        String log = stderrOf(() -> {
            try (AppendStream batch = writer.openAppend(TestTables.APP, 5, Map.of(0, 25L))) {
                for (int id = 25; id < 30; id++) {
                    batch.add(new Object[] {id, "u", 1.0, Timestamps.parseMicros("2024-05-01T10:00:00Z", true)});
                }
                assertThat(Optimize.run(table().toString(), OptimizeOptions.defaults()).version()).isEqualTo(5);
                try {
                    Files.delete(crc);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                CommitResult r = batch.commit(new SinkOffsets(TestTables.APP, "events", "topic-id", Map.of(0, 30L)));
                assertThat(r.committed()).isTrue();
                assertThat(r.version()).isEqualTo(6);
            }
        });

        assertThat(log).contains(": version 5 was committed by another writer while batch 5 of " + TestTables.APP
                        + " was written; committing the batch on top of it")
                .doesNotContain("WARN").doesNotContain("Exception").doesNotContain("\tat ");
        assertThat(TestTables.rows(table())).hasSize(30);
        assertThat(DeltaTables.transactionVersion(table().toString(), TestTables.APP)).contains(5L);
        assertThat(DeltaTables.sinkOffsets(table().toString()).orElseThrow().offsets()).containsEntry(0, 30L);
    }

    /** What {@code action} logs (slf4j-simple writes to System.err). */
    private static String stderrOf(Runnable action) {
        PrintStream err = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            action.run();
        } finally {
            System.setErr(err);
        }
        String text = captured.toString(StandardCharsets.UTF_8);
        err.print(text);
        return text;
    }

    @Test
    void aConcurrentCompactionOfTheSameFilesMakesOptimizeRedoItsWork() {
        new TestTables(table().toString(), List.of("date(ts) as day"), Map.of()).commits(5, 4, 2);
        List<String> before = TestTables.rows(table());
        int[] calls = {0};

        OptimizeResult r = new Optimize(table().toString(), OptimizeOptions.defaults())
                .beforeCommit(attempt -> {
                    if (attempt == 1) { // another optimize compacts one of the partitions first
                        calls[0]++;
                        Optimize.run(table().toString(), OptimizeOptions.defaults().withWhere("day = '2024-05-01'"));
                    }
                })
                .run();

        assertThat(calls[0]).isEqualTo(1);
        assertThat(r.attempts()).isEqualTo(2);
        assertThat(r.partitions()).isEqualTo(1);
        assertThat(r.filesRemoved()).isEqualTo(5);
        assertThat(TestTables.rows(table())).isEqualTo(before);
        assertThat(TableDescription.of(table().toString(), OptimizeOptions.DEFAULT_TARGET_FILE_SIZE).files()).isEqualTo(2);
        // the first attempt's files were deleted: 10 originals + one per compaction commit remain on disk
        assertThat(TestTables.parquetFiles(table())).hasSize(12);
    }

    @Test
    void noTableIsAClearError() {
        assertThatThrownBy(() -> Optimize.run(dir.resolve("missing").toString(), OptimizeOptions.defaults()))
                .isInstanceOf(TributaryException.class).hasMessageContaining("no Delta table at");
    }
}
