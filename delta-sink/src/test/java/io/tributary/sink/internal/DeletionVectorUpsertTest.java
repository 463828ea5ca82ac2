package io.tributary.sink.internal;

import static io.tributary.sink.internal.CopyOnWriteUpsertTest.SCHEMA;
import static io.tributary.sink.internal.CopyOnWriteUpsertTest.r;
import static io.tributary.sink.internal.UpsertTables.batch;
import static io.tributary.sink.internal.UpsertTables.tombstone;
import static io.tributary.sink.internal.UpsertTables.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.delta.kernel.Snapshot;
import io.delta.kernel.engine.Engine;
import io.tributary.delta.DeletionVectorStore;
import io.tributary.delta.KernelEngines;
import io.tributary.sink.DeltaTables;
import io.tributary.sink.maintenance.Optimize;
import io.tributary.sink.maintenance.OptimizeOptions;
import io.tributary.sink.maintenance.OptimizeResult;
import io.tributary.sink.maintenance.TableDescription;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The upsert on a table with {@code delta.enableDeletionVectors=true}: the rows a batch replaces or deletes are
 * marked in their file's deletion vector (merged with the one it has), the file is kept, and only the batch's
 * rows are written; Kernel's scan reads exactly the expected rows after each batch, compaction purges the
 * marked rows, and describe counts them.
 */
class DeletionVectorUpsertTest {
    static final Map<String, String> DV = Map.of("delta.enableDeletionVectors", "true");

    @TempDir
    Path dir;

    private final Engine engine = KernelEngines.create();

    private Path table() {
        return dir.resolve("t");
    }

    private CopyOnWriteUpsert upsert() {
        DeltaTableWriter w = new DeltaTableWriter(engine, table().toString(), SCHEMA, DV);
        return new CopyOnWriteUpsert(w, new RewriteCommitter(w), new KeyColumns(SCHEMA, List.of("id")), null, 100);
    }

    /**
     * With {@code -Dtributary.dv.keep=FOLDER}: a copy of the table in FOLDER/NAME and FOLDER/NAME.args, the arguments
     * of compat/spark's SparkRead that expect {@code rows} (one a line), for Spark to read (compat/spark README).
     */
    static void keepForSpark(String name, Path table, Map<Integer, String> rows) {
        List<String> args = new ArrayList<>(List.of("--count", String.valueOf(rows.size()), "--schema", "id INT, user STRING, amt DOUBLE"));
        rows.forEach((id, value) -> {
            String[] userAmt = value.split("/");
            args.add("--row");
            args.add("{\"id\":" + id + ",\"user\":\"" + userAmt[0] + "\",\"amt\":" + userAmt[1] + "}");
        });
        keepForSpark(name, table, args);
    }

    /**
     * With {@code -Dtributary.dv.keep=FOLDER}: a copy of the table in FOLDER/NAME and FOLDER/NAME.args, SparkRead's
     * {@code --table} of that copy followed by {@code expectations} (its other options, one a line).
     */
    static void keepForSpark(String name, Path table, List<String> expectations) {
        String keep = System.getProperty("tributary.dv.keep");
        if (keep == null) {
            return;
        }
        try {
            Path target = Path.of(keep).resolve(name);
            try (Stream<Path> files = Files.walk(table)) {
                for (Path p : files.toList()) {
                    Path t = target.resolve(table.relativize(p).toString());
                    if (Files.isDirectory(p)) {
                        Files.createDirectories(t);
                    } else {
                        Files.copy(p, t, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                    }
                }
            }
            List<String> args = new ArrayList<>(List.of("--table", target.toAbsolutePath().toString()));
            args.addAll(expectations);
            Files.write(Path.of(keep).resolve(name + ".args"), args);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Every row by id, as Kernel's scan reads the table; a key held twice fails. */
    static Map<Integer, String> rows(Path table) {
        Map<Integer, String> out = new TreeMap<>();
        for (Object[] row : DeltaTables.readRows(table.toString())) {
            assertThat(out.put((Integer) row[0], row[1] + "/" + row[2])).as("id %s held twice", row[0]).isNull();
        }
        return out;
    }

    private List<TableFile> files() {
        Snapshot s = new DeltaTableWriter(engine, table().toString(), SCHEMA, DV).latestSnapshot().orElseThrow();
        return TableFile.listWithStatistics(engine, s);
    }

    private TableFile file(String logPath) {
        return files().stream().filter(f -> f.logPath().equals(logPath)).findFirst().orElseThrow();
    }

    private long[] deletedRows(TableFile f) {
        Snapshot s = new DeltaTableWriter(engine, table().toString(), SCHEMA, DV).latestSnapshot().orElseThrow();
        return new DeletionVectorStore(engine, s.getPath()).deletedRows(f.scanFile()).toArray();
    }

    private List<String> deletionVectorFiles() throws IOException {
        try (Stream<Path> files = Files.list(table())) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("deletion_vector_")).toList();
        }
    }

    @Test
    void upsertsMarkReplacedRowsInDeletionVectorsAndKernelReadsExactlyTheExpectedRows() throws IOException {
        Map<Integer, String> expected = new TreeMap<>();
        List<Object[]> first = new ArrayList<>();
        for (int id = 1; id <= 10; id++) {
            first.add(r(id, "u" + id, id));
            expected.put(id, "u" + id + "/" + (double) id);
        }
        write(upsert(), 0, UpsertTables.batchOf(first));
        String fileA = files().get(0).logPath();

        CommitResult b1 = write(upsert(), 1, batch(r(3, "x", 3.5), r(7, "x", 7.5), r(11, "new", 11)));
        expected.put(3, "x/3.5");
        expected.put(7, "x/7.5");
        expected.put(11, "new/11.0");
        assertThat(rows(table())).isEqualTo(expected);
        assertThat(b1.metrics()).containsEntry("numTargetRowsUpdated", 2L).containsEntry("numTargetRowsInserted", 1L)
                .containsEntry("numTargetRowsCopied", 0L).containsEntry("numTargetFilesRemoved", 0L)
                .containsEntry("numTargetFilesAdded", 1L).containsEntry("numTargetDeletionVectorsAdded", 1L);
        assertThat(b1.files()).as("files written: the new rows only").isEqualTo(1);
        assertThat(files()).hasSize(2);
        assertThat(file(fileA).deletedRows()).as("file A keeps its path, ids 3 and 7 marked deleted").isEqualTo(2);
        assertThat(deletedRows(file(fileA))).containsExactly(2, 6);
        assertThat(deletionVectorFiles()).hasSize(1);
        assertThat(Files.readString(table().resolve("_delta_log/00000000000000000001.json")))
                .containsPattern("\"add\":\\{\"path\":\"" + fileA + "\"[^\\n]*\"deletionVector\":\\{\"storageType\":\"u\"")
                .contains("\\\"tightBounds\\\":false");

        CommitResult b2 = write(upsert(), 2, batch(r(4, "y", 4.5), tombstone("[5]"), r(11, "newer", 11.5)));
        expected.put(4, "y/4.5");
        expected.remove(5);
        expected.put(11, "newer/11.5");
        assertThat(rows(table())).isEqualTo(expected);
        assertThat(b2.metrics()).containsEntry("numTargetDeletionVectorsUpdated", 1L).containsEntry("numTargetDeletionVectorsAdded", 1L)
                .containsEntry("numTargetRowsDeleted", 1L).containsEntry("numTargetFilesRemoved", 0L);
        assertThat(deletedRows(file(fileA))).as("the new marks merged with the old").containsExactly(2, 3, 4, 6);
        keepForSpark("tributary-dv", table(), expected);

        List<Object[]> rest = new ArrayList<>();
        for (int id : new int[] {1, 2, 6, 8, 9, 10}) {
            rest.add(tombstone("[" + id + "]"));
            expected.remove(id);
        }
        CommitResult b3 = write(upsert(), 3, UpsertTables.batchOf(rest));
        assertThat(rows(table())).isEqualTo(expected);
        assertThat(b3.metrics()).as("file A lost its last rows: removed whole").containsEntry("numTargetFilesRemoved", 1L)
                .containsEntry("numTargetDeletionVectorsRemoved", 1L);
        assertThat(files()).extracting(TableFile::logPath).doesNotContain(fileA);
    }

    /**
     * The key lookup reads the key column alone and tests it against the batch's keys as primitive values (or
     * strings): keys 0 and negative ones, a batch of more keys than the files' statistics tell apart, and a
     * STRING key each replace exactly their rows.
     */
    @Test
    void theKeyLookupOfIntegralAndStringKeysFindsEveryReplacedRowAndNoOther() {
        for (String key : List.of("id", "user")) {
            Path table = dir.resolve("lookup-" + key);
            DeltaTableWriter w = new DeltaTableWriter(engine, table.toString(), SCHEMA, DV);
            CopyOnWriteUpsert upsert = new CopyOnWriteUpsert(w, new RewriteCommitter(w), new KeyColumns(SCHEMA, List.of(key)), null, 100);
            Map<Integer, String> expected = new TreeMap<>();
            List<Object[]> first = new ArrayList<>();
            for (int id = -500; id < 500; id++) {
                first.add(r(id, "k" + id, id));
                expected.put(id, "k" + id + "/" + (double) id);
            }
            write(upsert, 0, UpsertTables.batchOf(first));
            List<Object[]> changes = new ArrayList<>();
            long updated = 0;
            for (int id = -497; id < 700; id += 7) { // 0 and -7 among them, and new keys above 499
                changes.add(r(id, "k" + id, id + 0.5));
                updated += expected.put(id, "k" + id + "/" + (id + 0.5)) == null ? 0 : 1;
            }
            changes.add(tombstone(key.equals("id") ? "[-500]" : "[\"k-500\"]"));
            expected.remove(-500);
            CommitResult b1 = write(upsert, 1, UpsertTables.batchOf(changes));
            assertThat(rows(table)).as("key %s", key).isEqualTo(expected);
            assertThat(b1.metrics()).as("key %s", key).containsEntry("numTargetRowsUpdated", updated)
                    .containsEntry("numTargetRowsDeleted", 1L).containsEntry("numTargetRowsCopied", 0L)
                    .containsEntry("numTargetFilesRemoved", 0L);
        }
    }

    @Test
    void changeDataMarksUpdatesAndDeletesAndSkipsAnOlderChangeByTheSequenceItReads() {
        io.tributary.sink.SinkConfig c = ChangeUpsertTest.config(table(), ChangeUpsertTest.CDC);
        WriteMode cdc = WriteMode.forConfig(c, new DeltaTableWriter(engine, c.tablePath(), c.tableSchema(), DV));
        write(cdc, 0, batch(ChangeUpsertTest.c(1, "a", "i", 10), ChangeUpsertTest.c(2, "b", "i", 11), ChangeUpsertTest.c(3, "c", "i", 12)));
        CommitResult b1 = write(cdc, 1, batch(ChangeUpsertTest.c(1, "a2", "u", 20), ChangeUpsertTest.c(2, null, "d", 21),
                ChangeUpsertTest.c(3, "c-old", "u", 5)));
        assertThat(b1.metrics()).containsEntry("numTargetRowsUpdated", 1L).containsEntry("numTargetRowsDeleted", 1L)
                .containsEntry("numSourceKeysSkippedOutOfOrder", 1L).containsEntry("numTargetRowsCopied", 0L)
                .containsEntry("numTargetDeletionVectorsAdded", 1L);
        assertThat(DeltaTables.readRows(table().toString())).extracting(r -> r[0] + ":" + r[1] + ":" + r[2])
                .containsExactlyInAnyOrder("1:a2:20", "3:c:12");
    }

    @Test
    void compactionPurgesTheMarkedRowsAndDescribeCountsThem() {
        List<Object[]> first = new ArrayList<>();
        for (int id = 1; id <= 40; id++) {
            first.add(r(id, "u" + id, id));
        }
        write(upsert(), 0, UpsertTables.batchOf(first));
        write(upsert(), 1, batch(r(1, "x", 1.5), tombstone("[2]"), tombstone("[3]")));
        Map<Integer, String> before = rows(table());
        assertThat(before).hasSize(38);
        TableDescription d = TableDescription.of(table().toString(), OptimizeOptions.DEFAULT_TARGET_FILE_SIZE);
        assertThat(d.deletedRows()).isEqualTo(3);
        assertThat(d.rows()).isEqualTo(38);

        OptimizeResult r = Optimize.run(table().toString(), OptimizeOptions.defaults());
        assertThat(r.version()).isEqualTo(2);
        assertThat(rows(table())).isEqualTo(before);
        assertThat(files()).hasSize(1).allMatch(f -> f.deletedRows() == 0);
        assertThat(files().get(0).numRecords()).hasValue(38);
        assertThat(TableDescription.of(table().toString(), OptimizeOptions.DEFAULT_TARGET_FILE_SIZE).deletedRows()).isZero();
    }

    @Test
    void aLargeFileWithManyMarkedRowsIsCompactedAlone() {
        List<Object[]> first = new ArrayList<>();
        for (int id = 1; id <= 100; id++) {
            first.add(r(id, "u" + id, id));
        }
        write(upsert(), 0, UpsertTables.batchOf(first));
        List<Object[]> deletes = new ArrayList<>();
        for (int id = 1; id <= 10; id++) {
            deletes.add(tombstone("[" + id + "]"));
        }
        write(upsert(), 1, UpsertTables.batchOf(deletes));
        long size = files().get(0).size();

        OptimizeResult r = Optimize.run(table().toString(), OptimizeOptions.defaults().withTargetFileSize(size));
        assertThat(r.version()).as("one file, not small, with 10% of its rows deleted").isEqualTo(2);
        assertThat(files()).hasSize(1).allMatch(f -> f.deletedRows() == 0 && f.numRecords().getAsLong() == 90);
        assertThat(rows(table())).hasSize(90);
    }

    @Test
    void vacuumKeepsTheDeletionVectorsTheTableReadsAndDeletesReplacedOnes() throws IOException {
        List<Object[]> first = new ArrayList<>();
        for (int id = 1; id <= 10; id++) {
            first.add(r(id, "u" + id, id));
        }
        write(upsert(), 0, UpsertTables.batchOf(first));
        write(upsert(), 1, batch(r(3, "x", 3.5)));
        write(upsert(), 2, batch(tombstone("[4]")));
        Map<Integer, String> expected = rows(table());
        assertThat(deletionVectorFiles()).hasSize(2);

        new io.tributary.sink.maintenance.Vacuum(table().toString()).run(java.time.Duration.ZERO, false, true);
        assertThat(deletionVectorFiles()).as("the replaced vector's file is gone, the live one stays").hasSize(1);
        assertThat(rows(table())).isEqualTo(expected).hasSize(9);
    }

    @Test
    void aCrashBeforeTheCommitLeavesAnOrphanVectorFileAndTheBatchRedoneMarksItsRowOnce() throws IOException {
        List<Object[]> first = new ArrayList<>();
        for (int id = 1; id <= 10; id++) {
            first.add(r(id, "u" + id, id));
        }
        write(upsert(), 0, UpsertTables.batchOf(first));
        Map<Integer, String> before = rows(table());
        String fileA = files().get(0).logPath();
        DeltaTableWriter w = new DeltaTableWriter(engine, table().toString(), SCHEMA, DV);
        CopyOnWriteUpsert crashing = new CopyOnWriteUpsert(w, new RewriteCommitter(w, attempt -> {
            throw new IllegalStateException("crash");
        }), new KeyColumns(SCHEMA, List.of("id")), null, 100);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> write(crashing, 1, batch(r(3, "x", 3.5)))).hasMessage("crash");
        assertThat(DeltaTables.latestVersion(table().toString())).isZero();
        assertThat(rows(table())).isEqualTo(before);
        assertThat(deletionVectorFiles()).as("the crashed attempt's vector file, which no commit names").hasSize(1);

        write(upsert(), 1, batch(r(3, "x", 3.5)));
        before.put(3, "x/3.5");
        assertThat(rows(table())).isEqualTo(before);
        assertThat(deletedRows(file(fileA))).containsExactly(2);
        assertThat(deletionVectorFiles()).hasSize(2);
        new io.tributary.sink.maintenance.Vacuum(table().toString()).run(java.time.Duration.ZERO, false, true);
        assertThat(deletionVectorFiles()).as("vacuum deletes the orphan, keeps the live one").hasSize(1);
        assertThat(rows(table())).isEqualTo(before);
    }
}
