package io.tributary.sink.internal;

import static io.tributary.sink.internal.CopyOnWriteUpsertTest.SCHEMA;
import static io.tributary.sink.internal.CopyOnWriteUpsertTest.r;
import static io.tributary.sink.internal.UpsertTables.batch;
import static io.tributary.sink.internal.UpsertTables.tombstone;
import static io.tributary.sink.internal.UpsertTables.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.delta.kernel.Snapshot;
import io.delta.kernel.engine.Engine;
import io.tributary.delta.DeletionVectorFormat;
import io.tributary.delta.DeletionVectorStore;
import io.tributary.delta.KernelEngines;
import io.tributary.sink.maintenance.SparkTables;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.roaringbitmap.longlong.Roaring64NavigableMap;

/**
 * Deletion vectors Spark 4.2 wrote (the fixtures of compat/spark's SparkFixtures and SparkConcurrentCommits) read
 * by Tributary's reader as the rows Spark deleted, byte for byte what Tributary writes for the same rows; and
 * the upsert on a table Spark made with deletion vectors merges its marks into Spark's vectors.
 */
class SparkDeletionVectorsTest {
    @TempDir
    Path dir;

    private final Engine engine = KernelEngines.create();

    private Snapshot snapshot(Path table) {
        return new DeltaTableWriter(engine, table.toString(), SCHEMA, Map.of()).latestSnapshot().orElseThrow();
    }

    private TableFile file(Path table, String logPath) {
        return TableFile.listWithStatistics(engine, snapshot(table)).stream().filter(f -> f.logPath().equals(logPath)).findFirst().orElseThrow();
    }

    private long[] deletedRows(Path table, String logPath) {
        return new DeletionVectorStore(engine, snapshot(table).getPath()).deletedRows(file(table, logPath).scanFile()).toArray();
    }

    private static Roaring64NavigableMap bitmap(long... rows) {
        Roaring64NavigableMap b = new Roaring64NavigableMap();
        b.add(rows);
        return b;
    }

    @Test
    void sparksDeletionVectorsReadAsTheRowsItsDeletesMarked() throws IOException {
        // ids 1..10 in file A; DELETE of ids 2, 3, then 5: the rows at positions 1, 2, 4 (the second vector, from a V2 checkpoint)
        Path v2 = SparkTables.copy("dv-v2-checkpoint", dir);
        assertThat(deletedRows(v2, "part-00000-69bb25e5-a09f-4fb6-a3d6-bf93c2755566-c000.snappy.parquet")).containsExactly(1, 2, 4);
        Path multipart = SparkTables.copy("dv-multipart-checkpoint", dir);
        assertThat(deletedRows(multipart, "part-00000-0c60ed01-eeaf-42ec-bfbf-cc041c54faa4-c000.snappy.parquet")).containsExactly(1, 2, 4);

        // Spark's MERGE updated id 6 of file A (ids 1..10): position 5
        Path merge = SparkTables.copy("concurrent/merge-dv", dir);
        landSparksCommit("merge-dv", merge);
        assertThat(deletedRows(merge, FILE_A)).containsExactly(5);
        byte[] stored = Files.readAllBytes(merge.resolve("deletion_vector_48207119-e69f-4cc6-9402-7761a9b7aca1.bin"));
        assertThat(DeletionVectorFormat.file(List.of(DeletionVectorFormat.serialize(bitmap(5)))))
                .as("Spark's deletion vector file and Tributary's for the same row").isEqualTo(stored);
    }

    private static final String FILE_A = "part-00000-309c04cb-b198-4c2a-8e28-367553f31242-c000.snappy.parquet";

    @Test
    void anUpsertOnSparksDeletionVectorTableMergesItsMarksIntoSparksVector() {
        Path table = SparkTables.copy("concurrent/merge-dv", dir);
        landSparksCommit("merge-dv", table);
        Map<Integer, String> expected = DeletionVectorUpsertTest.rows(table);
        assertThat(expected).hasSize(21).containsEntry(6, "merged/6.5");

        DeltaTableWriter w = new DeltaTableWriter(engine, table.toString(), SCHEMA, Map.of());
        CopyOnWriteUpsert upsert = new CopyOnWriteUpsert(w, new RewriteCommitter(w), new KeyColumns(SCHEMA, List.of("id")), null, 100);
        CommitResult result = write(upsert, 0, batch(r(2, "ours", 2.5), r(15, "ours", 15.5), tombstone("[40]")));
        expected.put(2, "ours/2.5");
        expected.put(15, "ours/15.5");
        expected.remove(40);

        assertThat(DeletionVectorUpsertTest.rows(table)).isEqualTo(expected);
        assertThat(result.metrics()).containsEntry("numTargetDeletionVectorsUpdated", 1L).containsEntry("numTargetRowsCopied", 0L);
        assertThat(deletedRows(table, FILE_A)).as("Spark's mark of id 6 and ours of id 2").containsExactly(1, 5);
        DeletionVectorUpsertTest.keepForSpark("spark-and-tributary-dv", table, expected);
    }

    /**
     * The sink's table of {@link DeletionVectorUpsertTest} after its batch 2 (file A: ids 1..10, 3, 4, 5 and 7
     * marked), then Spark's {@code DELETE WHERE id IN (1, 8)} and {@code MERGE} updating 9 and inserting 50
     * (compat/spark's SparkDmlOnTributaryTable): Spark read the sink's vector and merged its marks into it.
     */
    @Test
    void sparksDeleteAndMergeOnTheSinksVectorsKeepBothWritersMarks() {
        Path table = SparkTables.copy("tributary-then-spark", dir);
        Map<Integer, String> expected = new java.util.TreeMap<>(Map.of(2, "u2/2.0", 3, "x/3.5", 4, "y/4.5", 6, "u6/6.0", 7, "x/7.5",
                9, "spark/9.5", 10, "u10/10.0", 11, "newer/11.5", 50, "spark/50.5"));
        assertThat(DeletionVectorUpsertTest.rows(table)).isEqualTo(expected);
        String fileA = TableFile.listWithStatistics(engine, snapshot(table)).stream()
                .filter(f -> f.numRecords().orElse(0) == 10).findFirst().orElseThrow().logPath();
        assertThat(deletedRows(table, fileA)).as("the sink's marks (ids 3, 4, 5, 7) and Spark's (1, 8, 9)").containsExactly(0, 2, 3, 4, 6, 7, 8);

        DeltaTableWriter w = new DeltaTableWriter(engine, table.toString(), SCHEMA, Map.of());
        CopyOnWriteUpsert upsert = new CopyOnWriteUpsert(w, new RewriteCommitter(w), new KeyColumns(SCHEMA, List.of("id")), null, 100);
        CommitResult result = write(upsert, 3, batch(r(2, "ours", 2.5), r(6, "ours", 6.5), r(10, "ours", 10.5), tombstone("[50]")));
        expected.put(2, "ours/2.5");
        expected.put(6, "ours/6.5");
        expected.put(10, "ours/10.5");
        expected.remove(50);
        assertThat(DeletionVectorUpsertTest.rows(table)).isEqualTo(expected);
        assertThat(result.metrics()).as("file A lost its last rows, Spark's MERGE file of id 50 its only one").containsEntry("numTargetFilesRemoved", 2L);
        assertThat(TableFile.listWithStatistics(engine, snapshot(table))).extracting(TableFile::logPath).doesNotContain(fileA);
    }

    private static void landSparksCommit(String fixture, Path table) {
        try {
            Files.copy(SparkTables.resource("concurrent/" + fixture + ".commit.json"),
                    table.resolve("_delta_log").resolve(String.format("%020d.json", 3)));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
