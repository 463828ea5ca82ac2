package io.tributary.sink.internal;

import static io.tributary.sink.internal.UpsertTables.tombstone;
import static io.tributary.sink.internal.UpsertTables.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.delta.kernel.engine.Engine;
import io.tributary.delta.DeletionVectorStore;
import io.tributary.delta.KernelEngines;
import io.tributary.schema.Schema;
import io.tributary.sink.DeltaTables;
import io.tributary.storage.S3ServerExtension;
import io.tributary.storage.Storage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.parquet.format.converter.ParquetMetadataConverter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The upsert with deletion vectors on an {@code s3a://} table (a real S3 server, S3Proxy), whose key lookup reads the
 * key column of each file straight from its Parquet column chunk on the store ({@link DirectKeyRead}): a batch that
 * marks rows in every file keeps the files, writes one deletion vector file and its own rows, and a second batch merges
 * its marks with the vectors read back from the store; Kernel's scan reads exactly the expected rows after each.
 */
@Tag("integration")
class DeletionVectorOnObjectStorageTest {
    @RegisterExtension
    static final S3ServerExtension S3 = new S3ServerExtension();

    private static final Schema SCHEMA = Schema.parse("id INT, a STRING, b STRING, c STRING, d STRING");
    private static final int FILE_ROWS = 2_000;
    private static final int FILES = 3;

    /** A row of {@code id} whose STRING columns are {@code tag} and 32 hex digits made of the id. */
    private static Object[] row(int id, String tag) {
        Object[] row = new Object[SCHEMA.size()];
        row[0] = id;
        for (int c = 1; c < row.length; c++) {
            long h = mix(id * 31L + c);
            row[c] = String.format("%s%016x%016x", tag, h, mix(h));
        }
        return row;
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    private static List<String> named(Path folder, String prefix) throws IOException {
        try (Stream<Path> files = Files.list(folder)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.startsWith(prefix)).sorted().toList();
        }
    }

    /** The names of the data files in a table's folder. */
    private static List<String> dataFiles(Path folder) throws IOException {
        try (Stream<Path> files = Files.list(folder)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".parquet")).sorted().toList();
        }
    }

    private static Map<Integer, String> rows(String table, Storage storage) {
        Map<Integer, String> out = new TreeMap<>();
        for (Object[] r : DeltaTables.readRows(table, storage)) {
            assertThat(out.put((Integer) r[0], r[1] + "|" + r[4])).as("id %s held twice", r[0]).isNull();
        }
        return out;
    }

    private static CopyOnWriteUpsert upsert(Engine engine, String table, Map<String, String> properties) {
        DeltaTableWriter w = new DeltaTableWriter(engine, table, SCHEMA, properties);
        return new CopyOnWriteUpsert(w, new RewriteCommitter(w), new KeyColumns(SCHEMA, List.of("id")), null, FILE_ROWS);
    }

    /** Loads {@value #FILES} files of {@value #FILE_ROWS} rows (ids 0 up) into {@code table}; the rows by id. */
    private static Map<Integer, String> load(CopyOnWriteUpsert upsert, Map<Integer, String> expected) {
        List<Object[]> rows = new ArrayList<>();
        for (int id = 0; id < FILES * FILE_ROWS; id++) {
            Object[] r = row(id, "v0-");
            rows.add(r);
            expected.put(id, r[1] + "|" + r[4]);
        }
        write(upsert, 0, UpsertTables.batchOf(rows));
        return expected;
    }

    /**
     * Batch {@code batchId}: an update of every 997th id from {@code first} (in every file), a delete of the id 500 + {@code
     * first} past each file's first, and two new ids; {@code expected} follows.
     */
    private static TopicBatch changes(long batchId, int first, Map<Integer, String> expected) {
        List<Object[]> items = new ArrayList<>();
        for (int id = first; id < FILES * FILE_ROWS; id += 997) {
            Object[] r = row(id, "v" + batchId + "-");
            items.add(r);
            expected.put(id, r[1] + "|" + r[4]);
        }
        for (int f = 0; f < FILES; f++) {
            int id = f * FILE_ROWS + 500 + first;
            items.add(tombstone("[" + id + "]"));
            expected.remove(id);
        }
        for (int id = FILES * FILE_ROWS + 2 * (int) batchId; id < FILES * FILE_ROWS + 2 * batchId + 2; id++) {
            Object[] r = row(id, "new-");
            items.add(r);
            expected.put(id, r[1] + "|" + r[4]);
        }
        return UpsertTables.batchOf(items);
    }

    @Test
    void aDeletionVectorUpsertOnObjectStorageMarksEveryFileAndKeepsIt() throws IOException {
        Path bucket = S3.createBucket("lake");
        Storage storage = S3.storage();
        Engine engine = KernelEngines.create(storage);
        String table = "s3a://lake/silver/dv";
        Path folder = bucket.resolve("silver/dv");
        Map<String, String> dv = DeletionVectorUpsertTest.DV;
        Map<Integer, String> expected = load(upsert(engine, table, dv), new TreeMap<>());
        List<String> loaded = dataFiles(folder);
        assertThat(loaded).hasSize(FILES);

        CommitResult b1 = write(upsert(engine, table, dv), 1, changes(1, 0, expected));

        assertThat(rows(table, storage)).isEqualTo(expected);
        assertThat(b1.metrics()).containsEntry("numTargetFilesScanned", (long) FILES).containsEntry("numTargetFilesRemoved", 0L)
                .containsEntry("numTargetDeletionVectorsAdded", (long) FILES).containsEntry("numTargetRowsCopied", 0L)
                .containsEntry("numTargetRowsDeleted", (long) FILES).containsEntry("numTargetRowsInserted", 2L);
        assertThat(dataFiles(folder)).as("the loaded files are kept, the batch's rows in one more").containsAll(loaded).hasSize(FILES + 1);
        assertThat(named(folder, DeletionVectorStore.PREFIX)).hasSize(1);

        // the files' vectors are read back from their file on S3 and merged with the new marks
        CommitResult b2 = write(upsert(engine, table, dv), 2, changes(2, 1, expected));
        assertThat(rows(table, storage)).isEqualTo(expected);
        assertThat(b2.metrics()).containsEntry("numTargetDeletionVectorsUpdated", (long) FILES).containsEntry("numTargetFilesRemoved", 0L)
                .containsEntry("numTargetRowsCopied", 0L);
        assertThat(named(folder, DeletionVectorStore.PREFIX)).hasSize(2);
    }

    /**
     * What a batch takes from the store, counted by the file system's statistics: the key lookup of a table whose
     * other columns are wide reads each file's key column chunk and footer, a small part of the files, while a read of
     * the table takes every column chunk of every file.
     */
    @Test
    void theKeyLookupOfAWideTableReadsItsKeyColumnNotTheWholeFiles() throws IOException {
        S3.createBucket("wide");
        Storage storage = S3.storage();
        Engine engine = KernelEngines.create(storage);
        String table = "s3a://wide/silver/dv";
        Path folder = S3.bucketDir("wide").resolve("silver/dv");
        Map<Integer, String> expected = load(upsert(engine, table, DeletionVectorUpsertTest.DV), new TreeMap<>());
        long files = 0;
        long keyChunks = 0;
        long chunks = 0;
        for (String name : dataFiles(folder)) {
            Path file = folder.resolve(name);
            files += Files.size(file);
            for (ColumnChunkMetaData chunk : ParquetFileReader.readFooter(new LocalInputFile(file), ParquetMetadataConverter.NO_FILTER)
                    .getBlocks().stream().flatMap(b -> b.getColumns().stream()).toList()) {
                chunks += chunk.getTotalSize();
                keyChunks += chunk.getPath().toDotString().equals("id") ? chunk.getTotalSize() : 0;
            }
        }
        assertThat(keyChunks).as("the key column is a small part of the files").isLessThan(files / 20);

        long before = bytesRead();
        CommitResult b1 = write(upsert(engine, table, DeletionVectorUpsertTest.DV), 1, changes(1, 0, expected));
        long lookup = bytesRead() - before;

        assertThat(b1.metrics()).containsEntry("numTargetFilesScanned", (long) FILES).containsEntry("numTargetRowsCopied", 0L);
        assertThat(lookup).as("bytes a batch read of %,d bytes of data files, %,d of them key column chunks", files, keyChunks)
                .isGreaterThanOrEqualTo(keyChunks).isLessThan(files / 5);
        long read = bytesRead();
        assertThat(rows(table, storage)).isEqualTo(expected);
        assertThat(bytesRead() - read).as("bytes a read of the whole table took").isGreaterThanOrEqualTo(chunks);
    }

    /** The bytes Tributary's {@code s3a://} file system has read in this JVM. */
    private static long bytesRead() {
        return KernelEngines.objectStorageBytesRead();
    }
}
