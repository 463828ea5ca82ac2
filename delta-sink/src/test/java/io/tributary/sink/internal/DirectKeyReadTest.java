package io.tributary.sink.internal;

import static io.tributary.sink.internal.UpsertTables.batchOf;
import static io.tributary.sink.internal.UpsertTables.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.delta.kernel.Snapshot;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.expressions.AlwaysTrue;
import io.tributary.delta.DeletionVectorStore;
import io.tributary.delta.KernelEngines;
import io.tributary.delta.KernelSchemas;
import io.tributary.schema.Schema;
import io.tributary.settings.Values;
import io.tributary.sink.SinkConfig;
import io.tributary.sink.SinkSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.format.converter.ParquetMetadataConverter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.LocalOutputFile;
import org.junit.jupiter.api.Test;
import org.roaringbitmap.longlong.Roaring64NavigableMap;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The key lookup's direct read of a file's Parquet columns ({@link DirectKeyRead}) against Kernel's reader of the same
 * files: the same rows of the batch's keys, at the same positions, and the same count of live rows, whatever the key's
 * columns (multi-byte UTF-8 and null keys among them), with and without column mapping; a file whose row groups are
 * many counts its rows across them; a file without a key column is left to Kernel.
 */
class DirectKeyReadTest {
    private static final Schema SCHEMA = Schema.parse("id INT, name STRING, at TIMESTAMP, amt DOUBLE, op STRING");
    private static final long TS = 1_700_000_000_000_000L;

    @TempDir
    Path dir;

    private final Engine engine = KernelEngines.create();

    private static Object[] row(int i, String op) {
        String name = i % 17 == 0 ? null : switch (i % 4) {
            case 0 -> "é" + i;
            case 1 -> "日本" + i;
            case 2 -> "\uD83D\uDE00" + i;
            default -> "n" + i;
        };
        return new Object[] {i, name, TS + i, i * 0.5, op};
    }

    private WriteMode mode(Path table, String keys, Map<String, String> properties) {
        Map<String, String> spec = Map.of("sink.delta.mode", "upsert", "sink.delta.keys", keys, "sink.delta.deleteWhen", "op = 'd'",
                "sink.delta.exceptColumns", "op", "sink.delta.rowsPerFile", "50");
        Values values = Values.localized(SinkSettings.ALL, s -> s.under("sink.delta"), spec::get, (s, text, e) -> e);
        SinkConfig c = SinkConfig.builder(table.toString(), SCHEMA, "events", UpsertTables.APP, "test/sink").settings(values).build();
        return WriteMode.forConfig(c, new DeltaTableWriter(engine, c.tablePath(), c.tableSchema(), properties));
    }

    /** 200 rows in files of 50, then a batch that updates every 7th and deletes every 11th: most files get a deletion vector. */
    private Snapshot table(Path table, String keys, Map<String, String> more) {
        Map<String, String> properties = new HashMap<>(DeletionVectorUpsertTest.DV);
        properties.putAll(more);
        WriteMode mode = mode(table, keys, properties);
        List<Object[]> first = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            first.add(row(i, "i"));
        }
        write(mode, 0, batchOf(first));
        List<Object[]> second = new ArrayList<>();
        for (int i = 0; i < 200; i += 7) {
            second.add(row(i, "u"));
        }
        for (int i = 3; i < 200; i += 11) {
            second.add(row(i, "d"));
        }
        write(mode, 1, batchOf(second));
        return snapshot(table);
    }

    private Snapshot snapshot(Path table) {
        return new DeltaTableWriter(engine, table.toString(), SCHEMA, Map.of()).latestSnapshot().orElseThrow();
    }

    @ParameterizedTest
    @CsvSource({"name, none", "'id,name', none", "id, none", "'name,at', none", "name, name", "'id,name', id"})
    void theDirectReadFindsTheRowsPositionsAndLiveRowsKernelsReaderFinds(String keyList, String mapping) throws IOException {
        Snapshot snapshot = table(dir.resolve(keyList.replace(',', '-') + "-" + mapping), keyList,
                "none".equals(mapping) ? Map.of() : Map.of("delta.columnMapping.mode", mapping));
        Schema table = KernelSchemas.fromKernel(snapshot.getPath(), snapshot.getSchema());
        KeyColumns keys = new KeyColumns(table, List.of(keyList.split(",")));
        List<Key> batch = new ArrayList<>();
        for (int i = 0; i < 230; i += 3) { // keys held, deleted, replaced and never held; the null name among them
            batch.add(keys.of(Arrays.copyOf(row(i, "u"), table.size())));
        }
        Set<Key> wanted = new HashSet<>(batch);
        KeyProbe probe = KeyProbe.of(keys, batch);
        DirectKeyRead direct = DirectKeyRead.of(engine, snapshot, table, snapshot.getSchema(), probe);
        assertThat(direct).as("a direct read of flat columns").isNotNull();
        int[] files = {0};
        FileScan.read(engine, snapshot, AlwaysTrue.ALWAYS_TRUE, true, null, file -> {
            List<String> expected = new ArrayList<>();
            for (int i = 0; i < file.rows().size(); i++) {
                if (wanted.contains(keys.of(file.rows().get(i)))) {
                    expected.add(file.rowIndexes()[i] + " " + Arrays.toString(file.rows().get(i)));
                }
            }
            DirectKeyRead.Result r;
            try {
                r = direct.read(file.scanFile());
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            assertThat(r).as("file %s read directly", file.identity()).isNotNull();
            List<String> found = new ArrayList<>();
            for (int i = 0; i < r.rows().size(); i++) {
                found.add(r.positions()[i] + " " + Arrays.toString(r.rows().get(i)));
            }
            assertThat(found).as("rows of the batch's keys in %s", file.identity()).isEqualTo(expected);
            assertThat(r.liveRows()).as("live rows of %s", file.identity()).isEqualTo(file.rows().size());
            files[0]++;
        });
        assertThat(files[0]).isGreaterThanOrEqualTo(2);
    }

    /**
     * The lookup hands each file's deletion vector, as its direct read loaded it, to the upsert's marks, which add the
     * batch's rows to that bitmap: a touched file's vector is loaded once per batch.
     */
    @Test
    void theLookupHandsTheDeletionVectorItLoadedToTheMarks() {
        Snapshot snapshot = table(dir.resolve("handed-over"), "id", Map.of());
        Schema table = KernelSchemas.fromKernel(snapshot.getPath(), snapshot.getSchema());
        KeyColumns keys = new KeyColumns(table, List.of("id"));
        List<Key> batch = new ArrayList<>();
        for (int i = 1; i < 200; i += 10) {
            batch.add(keys.of(Arrays.copyOf(row(i, "u"), table.size())));
        }
        DeletionVectorStore store = new DeletionVectorStore(engine, snapshot.getPath());
        DeletionVectorMarks marks = new DeletionVectorMarks(engine, snapshot);
        int[] withVector = {0};
        FileScan.read(engine, snapshot, AlwaysTrue.ALWAYS_TRUE, true, Set.of("id"), KeyProbe.of(keys, batch), null, file -> {
            Roaring64NavigableMap stored = store.deletedRows(file.scanFile());
            assertThat(file.deleted()).as("the vector of %s as the lookup loaded it", file.identity()).isEqualTo(stored);
            withVector[0] += stored.isEmpty() ? 0 : 1;
            if (file.rows().isEmpty()) {
                return;
            }
            List<Integer> hits = new ArrayList<>();
            for (int i = 0; i < file.rows().size(); i++) {
                hits.add(i);
                stored.addLong(file.rowIndexes()[i]);
            }
            marks.replace(file, List.of(), hits);
            assertThat(file.deleted()).as("the old marks of %s and the batch's, in the bitmap handed over", file.identity())
                    .isEqualTo(stored);
        });
        assertThat(withVector[0]).as("files with a deletion vector").isPositive();
        marks.removes();
        assertThat(marks.readds()).isNotEmpty();
    }

    /**
     * A file of 1,000 rows rewritten with row groups of 64 rows (the same rows in the same order, as another writer may
     * cut them) and a deletion vector that marks every 5th row: the positions count the rows of every row group before.
     */
    @Test
    void positionsCountTheRowsOfEveryRowGroupBefore() throws IOException {
        Path tablePath = dir.resolve("groups");
        WriteMode mode = mode(tablePath, "id", DeletionVectorUpsertTest.DV);
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            rows.add(row(i, "i"));
        }
        write(mode, 0, batchOf(rows));
        List<Object[]> deletes = new ArrayList<>();
        for (int i = 0; i < 1000; i += 5) {
            deletes.add(row(i, "d"));
        }
        write(mode, 1, batchOf(deletes));
        Snapshot snapshot = snapshot(tablePath);
        Schema table = KernelSchemas.fromKernel(snapshot.getPath(), snapshot.getSchema());
        List<Path> parquet;
        try (Stream<Path> files = Files.list(tablePath)) {
            parquet = files.filter(p -> p.toString().endsWith(".parquet")).toList();
        }
        assertThat(parquet).hasSize(1);
        Path file = parquet.get(0);
        Files.delete(file);
        try (ParquetWriter<Object[]> w = new DirectParquetFiles.Builder(new LocalOutputFile(file), new RowWriteSupport(table))
                .withConf(new PlainParquetConfiguration()).withRowGroupRowCountLimit(64).build()) {
            for (Object[] r : rows) {
                w.write(Arrays.copyOf(r, table.size()));
            }
        }
        assertThat(ParquetFileReader.readFooter(new LocalInputFile(file), ParquetMetadataConverter.NO_FILTER).getBlocks()).hasSizeGreaterThan(10);

        KeyColumns keys = new KeyColumns(table, List.of("id"));
        List<Key> batch = new ArrayList<>();
        List<String> expected = new ArrayList<>();
        for (int i = 1; i < 1000; i += 37) {
            batch.add(keys.of(new Object[] {i, null, null, null}));
        }
        for (int i = 0; i < 1000; i += 5) { // deleted rows: none found
            batch.add(keys.of(new Object[] {i, null, null, null}));
        }
        for (int i = 1; i < 1000; i += 37) {
            if (i % 5 != 0) {
                expected.add(i + " " + Arrays.toString(Arrays.copyOf(row(i, "i"), table.size())));
            }
        }
        DirectKeyRead direct = DirectKeyRead.of(engine, snapshot, table, snapshot.getSchema(), KeyProbe.of(keys, batch));
        List<String> found = new ArrayList<>();
        long[] live = {0};
        FileScan.list(engine, snapshot, AlwaysTrue.ALWAYS_TRUE, scanFile -> {
            try {
                DirectKeyRead.Result r = direct.read(scanFile);
                for (int i = 0; i < r.rows().size(); i++) {
                    found.add(r.positions()[i] + " " + Arrays.toString(r.rows().get(i)));
                }
                live[0] += r.liveRows();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        assertThat(found).isEqualTo(expected);
        assertThat(live[0]).isEqualTo(800);
    }

    /** A file written before its table had the key column holds no such Parquet column: Kernel reads it (its nulls). */
    @Test
    void aFileWithoutTheKeyColumnIsLeftToKernel() throws IOException {
        Path tablePath = dir.resolve("evolved");
        Schema narrow = Schema.parse("id INT, amt DOUBLE, op STRING");
        Map<String, String> spec = Map.of("sink.delta.mode", "upsert", "sink.delta.keys", "id", "sink.delta.deleteWhen", "op = 'd'",
                "sink.delta.exceptColumns", "op");
        Values values = Values.localized(SinkSettings.ALL, s -> s.under("sink.delta"), spec::get, (s, text, e) -> e);
        SinkConfig c = SinkConfig.builder(tablePath.toString(), narrow, "events", UpsertTables.APP, "test/sink").settings(values).build();
        write(WriteMode.forConfig(c, new DeltaTableWriter(engine, c.tablePath(), c.tableSchema(), DeletionVectorUpsertTest.DV)), 0,
                batchOf(List.<Object[]>of(new Object[] {1, 1.5, "i"}, new Object[] {2, 2.5, "i"})));
        Map<String, String> merge = Map.of("sink.delta.mode", "upsert", "sink.delta.keys", "id", "sink.delta.deleteWhen", "op = 'd'",
                "sink.delta.exceptColumns", "op", "sink.delta.mergeSchema", "true");
        Values mergeValues = Values.localized(SinkSettings.ALL, s -> s.under("sink.delta"), merge::get, (s, text, e) -> e);
        Schema wide = Schema.parse("id INT, amt DOUBLE, op STRING, name STRING");
        SinkConfig w = SinkConfig.builder(tablePath.toString(), wide, "events", UpsertTables.APP, "test/sink").settings(mergeValues).build();
        write(WriteMode.forConfig(w, new DeltaTableWriter(engine, w.tablePath(), w.tableSchema(), DeletionVectorUpsertTest.DV)), 1,
                batchOf(List.<Object[]>of(new Object[] {3, 3.5, "i", "c"})));
        Snapshot snapshot = snapshot(tablePath);
        Schema table = KernelSchemas.fromKernel(snapshot.getPath(), snapshot.getSchema());
        assertThat(table.fields()).extracting(f -> f.name()).containsExactly("id", "amt", "name");
        KeyColumns keys = new KeyColumns(table, List.of("name"));
        DirectKeyRead direct = DirectKeyRead.of(engine, snapshot, table, snapshot.getSchema(),
                KeyProbe.of(keys, List.of(keys.of(new Object[] {null, null, "c"}), keys.of(new Object[] {null, null, null}))));
        List<Boolean> read = new ArrayList<>();
        FileScan.list(engine, snapshot, AlwaysTrue.ALWAYS_TRUE, scanFile -> {
            try {
                read.add(direct.read(scanFile) != null);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        assertThat(read).as("the old file left to Kernel, the new one read directly").containsExactlyInAnyOrder(false, true);
    }
}
