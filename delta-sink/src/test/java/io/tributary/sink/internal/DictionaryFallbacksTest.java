package io.tributary.sink.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.delta.KernelEngines;
import io.tributary.delta.KernelSchemas;
import io.tributary.schema.Schema;
import io.tributary.sink.DeltaTables;
import io.tributary.sink.SinkOffsets;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.parquet.format.converter.ParquetMetadataConverter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Columns of unique values skip the dictionary after it fell back; the rows stay the same. */
class DictionaryFallbacksTest {
    private static final Schema SCHEMA = Schema.parse("id INT, user STRING, ts TIMESTAMP");
    /** The sink's writer checks the file's size every 10,000 rows: a 1-byte target rolls a file each time. */
    private static final int ROWS_PER_FILE = 10_000;

    @TempDir
    Path dir;

    private static Object[] row(int i) {
        return new Object[] {i, "user_" + (i * 7919 % 100), 1_700_000_000_000_000L + i * 1_000_000L};
    }

    @Test
    void aColumnWhoseDictionaryFellBackIsWrittenPlainUntilItsNextTry() throws IOException {
        DictionaryFallbacks fallbacks = new DictionaryFallbacks();
        var files = new DirectParquetFiles.Rolling(DataFileTargets.local(dir), dir.toString(), SCHEMA, KernelSchemas.toKernel(SCHEMA),
                List.of(), 1, "%s-%03d.parquet", fallbacks);
        List<Set<String>> plainPerFile = new ArrayList<>();
        int filesWritten = DictionaryFallbacks.FILES_WITHOUT + 2;
        for (int i = 0; i < filesWritten * ROWS_PER_FILE; i++) {
            if (i % ROWS_PER_FILE == 0) {
                plainPerFile.add(fallbacks.plainColumns());
            }
            files.write(row(i));
        }
        assertThat(files.finish()).hasSize(filesWritten);

        assertThat(plainPerFile.get(0)).as("the first file tries every dictionary").isEmpty();
        for (int f = 1; f <= DictionaryFallbacks.FILES_WITHOUT; f++) {
            assertThat(plainPerFile.get(f)).as("file %d", f).containsExactlyInAnyOrder("id", "ts");
        }
        assertThat(plainPerFile.get(DictionaryFallbacks.FILES_WITHOUT + 1)).as("tried again").isEmpty();
        assertThat(fallbacks.plainColumns()).as("and it fell back again").containsExactlyInAnyOrder("id", "ts");

        try (Stream<Path> written = Files.list(dir)) {
            for (Path file : written.filter(p -> p.toString().endsWith(".parquet")).toList()) {
                for (ColumnChunkMetaData column : ParquetFileReader.readFooter(new LocalInputFile(file), ParquetMetadataConverter.NO_FILTER)
                        .getBlocks().get(0).getColumns()) {
                    boolean user = column.getPath().toDotString().equals("user");
                    assertThat(column.getEncodingStats().hasNonDictionaryEncodedPages()).as("%s in %s", column.getPath(), file)
                            .isEqualTo(!user);
                }
            }
        }
    }

    @Test
    void aTableWrittenInManyFilesReadsBackEveryRow() {
        String table = dir.resolve("t").toString();
        DeltaTableWriter writer = new DeltaTableWriter(KernelEngines.create(), table, Map.of(), Partitioning.none(SCHEMA), 1);
        List<Object[]> expected = new ArrayList<>();
        for (int batch = 0; batch < 3; batch++) {
            List<Object[]> rows = new ArrayList<>();
            for (int i = batch * 25_000; i < (batch + 1) * 25_000; i++) {
                rows.add(row(i));
            }
            writer.append("app", batch, rows, batch == 0 ? Map.of() : Map.of(0, batch * 25_000L), new SinkOffsets("app", "events", "id", Map.of(0, (batch + 1) * 25_000L)));
            expected.addAll(rows);
        }
        List<Object[]> read = new ArrayList<>(DeltaTables.readRows(table));
        read.sort(Comparator.comparingInt(r -> (Integer) r[0]));
        assertThat(read).hasSize(expected.size());
        for (int i = 0; i < read.size(); i++) {
            assertThat(read.get(i)).as("row %d", i).containsExactly(expected.get(i));
        }
    }
}
