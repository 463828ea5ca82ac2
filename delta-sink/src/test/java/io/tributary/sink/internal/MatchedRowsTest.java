package io.tributary.sink.internal;

import static io.tributary.sink.internal.UpsertTables.batchOf;
import static io.tributary.sink.internal.UpsertTables.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.delta.kernel.engine.Engine;
import io.tributary.delta.KernelEngines;
import io.tributary.schema.Schema;
import io.tributary.settings.Values;
import io.tributary.sink.DeltaTables;
import io.tributary.sink.SinkConfig;
import io.tributary.sink.SinkSettings;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.parquet.format.converter.ParquetMetadataConverter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An upsert on a table with deletion vectors and the change data feed ({@link MatchedRows}): the lookup reads the key
 * columns of the files the key statistics keep, and only the files where it matched a key are read whole, for the old
 * values the feed records.
 */
class MatchedRowsTest {
    private static final Schema SCHEMA = Schema.parse("id INT, note STRING, amt DOUBLE, op STRING");

    @TempDir
    Path dir;

    private final Engine engine = KernelEngines.create();

    /**
     * Three files of 20 rows (even ids 0 to 118, one batch each); a batch updates id 2 (first file), deletes id 84 (third) and inserts
     * ids 41 and 61, which the statistics place in the second file, which holds neither. The second file's {@code note}
     * column is made unreadable for the batch: the upsert still commits, with the old values of ids 2 and 84 whole in
     * its change files and the deletion vectors of the first and third files.
     */
    @Test
    void aFileThatHoldsNoMatchedKeyIsNotReadWholeForTheChangeFeed() throws IOException {
        Path table = dir.resolve("t");
        WriteMode mode = mode(table, SCHEMA, Map.of(), Map.of("delta.enableDeletionVectors", "true", "delta.enableChangeDataFeed", "true"));
        for (int batch = 0; batch < 3; batch++) {
            List<Object[]> rows = new ArrayList<>();
            for (int id = batch * 40; id < batch * 40 + 40; id += 2) {
                rows.add(new Object[] {id, "n" + id, id * 0.5, "i"});
            }
            write(mode, batch, batchOf(rows));
        }
        Path second = dataFileHolding(table, 40);
        byte[] intact = Files.readAllBytes(second);
        spoilColumn(second, "note");

        CommitResult r = write(mode, 3, batchOf(List.of(new Object[] {2, "v1", 9.0, "u"}, new Object[] {84, null, null, "d"},
                new Object[] {41, "v1", 1.0, "i"}, new Object[] {61, "v1", 2.0, "i"})));

        assertThat(KeyProbeTest.changes(engine, table, Schema.parse("id INT, note STRING, amt DOUBLE"), 3)).containsExactlyInAnyOrder(
                "[2, n2, 1.0] update_preimage", "[2, v1, 9.0] update_postimage", "[84, n84, 42.0] delete",
                "[41, v1, 1.0] insert", "[61, v1, 2.0] insert");
        assertThat(r.metrics()).containsEntry("numTargetRowsUpdated", 1L).containsEntry("numTargetRowsDeleted", 1L)
                .containsEntry("numTargetRowsInserted", 2L).containsEntry("numTargetDeletionVectorsAdded", 2L)
                .containsEntry("numTargetRowsCopied", 0L);
        Files.write(second, intact);
        List<String> expected = new ArrayList<>();
        for (int id = 0; id < 120; id += 2) {
            if (id != 84) {
                expected.add(Arrays.toString(id == 2 ? new Object[] {2, "v1", 9.0} : new Object[] {id, "n" + id, id * 0.5}));
            }
        }
        expected.add("[41, v1, 1.0]");
        expected.add("[61, v1, 2.0]");
        assertThat(DeltaTables.readRows(table.toString()).stream().map(Arrays::toString).toList())
                .containsExactlyInAnyOrderElementsOf(expected);
    }

    /**
     * The same with {@code history}: a batch reads the versions of its keys whole, and only the key columns of a file
     * the statistics keep that holds none of them (its {@code note} made unreadable again): id 2's version ends at 2
     * and its next one starts, id 84's ends at its delete, ids 41 and 61 start theirs.
     */
    @Test
    void aHistoryBatchReadsOnlyTheKeysOfAFileThatHoldsNoneOfItsKeys() throws IOException {
        Path table = dir.resolve("h");
        Schema schema = Schema.parse("id INT, note STRING, amt DOUBLE, op STRING, lsn BIGINT");
        WriteMode mode = mode(table, schema, Map.of("sink.delta.history", "true", "sink.delta.sequenceBy", "lsn"),
                Map.of("delta.enableDeletionVectors", "true"));
        for (int batch = 0; batch < 3; batch++) {
            List<Object[]> rows = new ArrayList<>();
            for (int id = batch * 40; id < batch * 40 + 40; id += 2) {
                rows.add(new Object[] {id, "n" + id, id * 0.5, "i", 1L});
            }
            write(mode, batch, batchOf(rows));
        }
        Path second = dataFileHolding(table, 40);
        byte[] intact = Files.readAllBytes(second);
        spoilColumn(second, "note");

        CommitResult r = write(mode, 3, batchOf(List.of(new Object[] {2, "v1", 9.0, "u", 2L}, new Object[] {84, null, null, "d", 2L},
                new Object[] {41, "v1", 1.0, "i", 2L}, new Object[] {61, "v1", 2.0, "i", 2L})));

        assertThat(r.metrics()).containsEntry("numTargetRowsUpdated", 2L).containsEntry("numTargetRowsInserted", 3L)
                .containsEntry("numTargetDeletionVectorsAdded", 2L);
        Files.write(second, intact);
        List<String> expected = new ArrayList<>();
        for (int id = 0; id < 120; id += 2) {
            boolean ended = id == 2 || id == 84;
            expected.add(Arrays.toString(new Object[] {id, "n" + id, id * 0.5, 1L, 1L, ended ? 2L : null}));
        }
        expected.add("[2, v1, 9.0, 2, 2, null]");
        expected.add("[41, v1, 1.0, 2, 2, null]");
        expected.add("[61, v1, 2.0, 2, 2, null]");
        assertThat(DeltaTables.readRows(table.toString()).stream().map(Arrays::toString).toList())
                .containsExactlyInAnyOrderElementsOf(expected);
    }

    /**
     * A history batch reads the other columns of the versions it ends alone: id 2 has a closed version in a file of its
     * own (its {@code note} made unreadable) and its current version in another; a batch that updates id 2 again reads
     * only the sequence and the versions' ends of the closed one, ends the current one and opens the next.
     */
    @Test
    void aHistoryBatchReadsTheOtherColumnsOfTheVersionsItEndsAlone() throws IOException {
        Path table = dir.resolve("c");
        Schema schema = Schema.parse("id INT, note STRING, amt DOUBLE, op STRING, lsn BIGINT");
        WriteMode mode = mode(table, schema, Map.of("sink.delta.history", "true", "sink.delta.sequenceBy", "lsn"),
                Map.of("delta.enableDeletionVectors", "true"));
        List<Object[]> rows = new ArrayList<>();
        for (int id = 0; id < 40; id += 2) {
            rows.add(new Object[] {id, "n" + id, id * 0.5, "i", 1L});
        }
        write(mode, 0, batchOf(rows));
        write(mode, 1, batchOf(List.<Object[]>of(new Object[] {2, "v2", 2.0, "u", 2L})));
        List<Path> before = dataFiles(table);
        write(mode, 2, batchOf(List.<Object[]>of(new Object[] {2, "v3", 3.0, "u", 3L})));
        // the file of batch 1 now holds id 2's version [2, 3) alone (its version from 2 on is marked deleted)
        Path loaded = dataFileHolding(table, 0);
        Path closed = dataFiles(table).stream().filter(before::contains).filter(f -> !f.equals(loaded)).findFirst().orElseThrow();
        byte[] intact = Files.readAllBytes(closed);
        spoilColumn(closed, "note");

        CommitResult r = write(mode, 3, batchOf(List.<Object[]>of(new Object[] {2, "v4", 4.0, "u", 4L})));

        assertThat(r.metrics()).containsEntry("numTargetRowsUpdated", 1L).containsEntry("numTargetRowsInserted", 1L)
                .containsEntry("numTargetDeletionVectorsAdded", 1L).containsEntry("numTargetRowsCopied", 0L);
        Files.write(closed, intact);
        List<String> expected = new ArrayList<>();
        for (int id = 0; id < 40; id += 2) {
            expected.add(Arrays.toString(new Object[] {id, "n" + id, id * 0.5, 1L, 1L, id == 2 ? 2L : null}));
        }
        expected.add("[2, v2, 2.0, 2, 2, 3]");
        expected.add("[2, v3, 3.0, 3, 3, 4]");
        expected.add("[2, v4, 4.0, 4, 4, null]");
        assertThat(DeltaTables.readRows(table.toString()).stream().map(Arrays::toString).toList())
                .containsExactlyInAnyOrderElementsOf(expected);
    }

    /**
     * A lookup reads a batch's next file whole once {@value MatchedRows#SEEN} files are read and three in four of them
     * held a matched key, or the files read held three matched rows each, and again key columns alone when neither holds.
     */
    @Test
    void theNextFileIsReadWholeWhileThreeInFourFilesHeldAMatchedKey() throws IOException {
        Path table = dir.resolve("w");
        WriteMode mode = mode(table, SCHEMA, Map.of(), Map.of("delta.enableDeletionVectors", "true", "delta.enableChangeDataFeed", "true"));
        write(mode, 0, batchOf(List.<Object[]>of(new Object[] {1, "n1", 0.5, "i"})));
        io.delta.kernel.Snapshot snapshot = TableSnapshots.latest(engine, table.toString()).orElseThrow();
        MatchedRows rows = MatchedRows.of(engine, snapshot, Schema.parse("id INT"), MatchedRows.lookupColumns(snapshot, Schema.parse("ID INT")));
        FileScan.ScannedFile file = new FileScan.ScannedFile("f", List.<Object[]>of(new Object[] {1, "n1", 0.5}), null, new long[] {0},
                null, 1, true);
        List<Boolean> whole = new ArrayList<>();
        for (boolean matched : new boolean[] {true, true, true, false, true, false, false}) {
            whole.add(rows.wholeNext());
            rows.fill(file, matched ? List.of(0) : List.of(), List.of(Key.single(1)));
        }
        whole.add(rows.wholeNext());
        assertThat(whole).containsExactly(false, false, true, true, true, true, false, false);
        assertThat(MatchedRows.of(engine, snapshot, Schema.parse("id INT"), null).wholeNext()).isFalse();
        MatchedRows dense = MatchedRows.of(engine, snapshot, Schema.parse("id INT"), MatchedRows.lookupColumns(snapshot, Schema.parse("id INT")));
        dense.fill(file, List.of(0, 0, 0), List.of(Key.single(1)));
        assertThat(dense.wholeNext()).as("three matched rows in the one file read").isTrue();
        dense.fill(file, List.of(), List.of());
        assertThat(dense.wholeNext()).as("three matched rows in two files").isFalse();
    }

    /**
     * Four files of 20 rows, a batch that updates a key in each: the lookup reads the first two files' keys and then the
     * other columns of their matched rows, and the last two whole; the change feed holds every old row whole either way.
     */
    @Test
    void filesReadWholeAfterTheSwitchGiveTheSameChangeFeed() throws IOException {
        Path table = dir.resolve("s");
        WriteMode mode = mode(table, SCHEMA, Map.of(), Map.of("delta.enableDeletionVectors", "true", "delta.enableChangeDataFeed", "true"));
        for (int batch = 0; batch < 4; batch++) {
            List<Object[]> rows = new ArrayList<>();
            for (int id = batch * 40; id < batch * 40 + 40; id += 2) {
                rows.add(new Object[] {id, "n" + id, id * 0.5, "i"});
            }
            write(mode, batch, batchOf(rows));
        }

        CommitResult r = write(mode, 4, batchOf(List.of(new Object[] {2, "v", 1.0, "u"}, new Object[] {42, "v", 2.0, "u"},
                new Object[] {82, null, null, "d"}, new Object[] {122, "v", 4.0, "u"})));

        assertThat(KeyProbeTest.changes(engine, table, Schema.parse("id INT, note STRING, amt DOUBLE"), 4)).containsExactlyInAnyOrder(
                "[2, n2, 1.0] update_preimage", "[2, v, 1.0] update_postimage", "[42, n42, 21.0] update_preimage",
                "[42, v, 2.0] update_postimage", "[82, n82, 41.0] delete", "[122, n122, 61.0] update_preimage",
                "[122, v, 4.0] update_postimage");
        assertThat(r.metrics()).containsEntry("numTargetFilesScanned", 4L).containsEntry("numTargetDeletionVectorsAdded", 4L);
    }

    private WriteMode mode(Path table, Schema schema, Map<String, String> more, Map<String, String> properties) {
        Map<String, String> spec = new java.util.HashMap<>(Map.of("sink.delta.mode", "upsert", "sink.delta.keys", "id",
                "sink.delta.deleteWhen", "op = 'd'", "sink.delta.exceptColumns", "op", "sink.delta.rowsPerFile", "20"));
        spec.putAll(more);
        Values values = Values.localized(SinkSettings.ALL, s -> s.under("sink.delta"), spec::get, (s, text, e) -> e);
        SinkConfig c = SinkConfig.builder(table.toString(), schema, "events", UpsertTables.APP, "test/sink").settings(values).build();
        return WriteMode.forConfig(c, new DeltaTableWriter(engine, c.tablePath(), c.tableSchema(), properties));
    }

    private static List<Path> dataFiles(Path table) throws IOException {
        try (Stream<Path> files = Files.list(table)) {
            return files.filter(p -> p.toString().endsWith(".parquet")).toList();
        }
    }

    /** The table's data file whose {@code id} column starts at {@code minId}. */
    private static Path dataFileHolding(Path table, int minId) throws IOException {
        try (Stream<Path> files = Files.list(table)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".parquet")).toList()) {
                ColumnChunkMetaData id = footerBlock(f).getColumns().get(0);
                if (((Number) id.getStatistics().genericGetMin()).intValue() == minId) {
                    return f;
                }
            }
        }
        throw new AssertionError("no data file starts at id " + minId);
    }

    /** Overwrites the bytes of {@code column}'s chunk in the file's (only) row group: reading that column fails. */
    private static void spoilColumn(Path file, String column) throws IOException {
        for (ColumnChunkMetaData chunk : footerBlock(file).getColumns()) {
            if (chunk.getPath().toDotString().equals(column)) {
                byte[] junk = new byte[(int) chunk.getTotalSize()];
                Arrays.fill(junk, (byte) 0x5a);
                try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
                    f.seek(chunk.getStartingPos());
                    f.write(junk);
                }
                return;
            }
        }
        throw new AssertionError("no column " + column + " in " + file);
    }

    private static BlockMetaData footerBlock(Path file) throws IOException {
        List<BlockMetaData> blocks = ParquetFileReader.readFooter(new LocalInputFile(file), ParquetMetadataConverter.NO_FILTER).getBlocks();
        assertThat(blocks).as("row groups of %s", file).hasSize(1);
        return blocks.get(0);
    }
}
