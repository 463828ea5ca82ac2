package io.tributary.sink.internal;

import io.delta.kernel.expressions.Column;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.DataFileStatus;
import io.tributary.schema.Schema;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.format.converter.ParquetMetadataConverter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.OutputFile;

/**
 * Tributary's own Parquet writer: rows go through parquet-mr's record writer
 * ({@link RowWriteSupport}) into {@code <uuid>-000.parquet} files of at most about the target
 * size of data each, Snappy-compressed as Spark writes them; each file's statistics come from its
 * footer ({@link ParquetFooterStats}), read back from the local file as Kernel does, without
 * reading the data again. The files are written in place in a local table, or locally and then
 * uploaded for a table elsewhere ({@link DataFileTargets}).
 */
final class DirectParquetFiles {
    private static final int SIZE_CHECK_ROWS = 10_000;
    /**
     * A row group's pages stay in memory until it is full, so its size bounds the writer's heap
     * whatever the batch (Parquet's default, 128 MiB, is the whole of a default-sized file). They
     * outlive several young collections and are promoted, so the larger a row group the more of
     * the old generation a long batch fills with them.
     */
    private static final long ROW_GROUP_BYTES = 16L << 20;

    private DirectParquetFiles() {
    }

    /**
     * Files written into {@code target} one row at a time, a new one once about {@code targetFileBytes}
     * of data are buffered or written in the current one; not thread-safe. {@code dirName} is the
     * table's folder as Kernel names it (the returned paths start with it, so Kernel can make them
     * relative to the table).
     */
    static final class Rolling {
        private final DataFileTargets.Target target;
        private final String prefix;
        private final FileColumns columns;
        private final List<Column> statsColumns;
        private final long targetFileBytes;
        private final String id = UUID.randomUUID().toString();
        private final List<DataFileStatus> files = new ArrayList<>();
        private final List<String> names = new ArrayList<>();
        private ParquetWriter<Object[]> writer;
        private Path file;
        private String name;
        private long rowsInFile;
        private final String namePattern;
        private final DictionaryFallbacks fallbacks;
        private Set<String> plainColumns;

        Rolling(DataFileTargets.Target target, String dirName, Schema schema, StructType kernelSchema, List<Column> statsColumns,
                long targetFileBytes) {
            this(target, dirName, schema, kernelSchema, statsColumns, targetFileBytes, "%s-%03d.parquet", new DictionaryFallbacks());
        }

        /**
         * As above, the files named by {@code namePattern} from the writer's uuid and the file's number, the
         * columns whose dictionary fell back before (the table's earlier files) written plain.
         */
        Rolling(DataFileTargets.Target target, String dirName, Schema schema, StructType kernelSchema, List<Column> statsColumns,
                long targetFileBytes, String namePattern, DictionaryFallbacks fallbacks) {
            this(target, dirName, FileColumns.plain(schema, kernelSchema), statsColumns, targetFileBytes, namePattern, fallbacks);
        }

        /**
         * As above, the rows written as the files' {@code columns} (a partitioned or column-mapped table's); {@code statsColumns}
         * named as the files name them.
         */
        Rolling(DataFileTargets.Target target, String dirName, FileColumns columns, List<Column> statsColumns,
                long targetFileBytes, String namePattern, DictionaryFallbacks fallbacks) {
            this.namePattern = namePattern;
            this.fallbacks = fallbacks;
            this.target = target;
            this.prefix = dirName.endsWith("/") ? dirName : dirName + "/";
            this.columns = columns;
            this.statsColumns = statsColumns;
            this.targetFileBytes = targetFileBytes;
        }

        void write(Object[] row) throws IOException {
            if (writer == null) {
                name = String.format(namePattern, id, files.size());
                file = target.local(name);
                plainColumns = fallbacks.plainColumns();
                Builder builder = new Builder(new LocalOutputFile(file), new RowWriteSupport(columns))
                        .withConf(new PlainParquetConfiguration())
                        .withCompressionCodec(CompressionCodecName.SNAPPY)
                        .withRowGroupSize(ROW_GROUP_BYTES);
                for (String column : plainColumns) {
                    builder.withDictionaryEncoding(column, false);
                }
                writer = builder.build();
            }
            writer.write(row);
            if (++rowsInFile % SIZE_CHECK_ROWS == 0 && writer.getDataSize() >= targetFileBytes) {
                closeFile();
            }
        }

        private void closeFile() throws IOException {
            writer.close();
            writer = null;
            rowsInFile = 0;
            long size = Files.size(file);
            ParquetMetadata footer = footer(file);
            fallbacks.record(footer, plainColumns);
            var stats = ParquetFooterStats.of(footer, columns.physical(), statsColumns);
            long modified = target.publish(file, name);
            names.add(name);
            file = null;
            files.add(new DataFileStatus(prefix + name, size, modified, Optional.of(stats)));
        }

        /** Closes the last file; the files written, in order. */
        List<DataFileStatus> finish() throws IOException {
            if (writer != null) {
                closeFile();
            }
            target.finish();
            return files;
        }

        /** Closes and deletes what was written (no commit will name these files). */
        void abort() {
            try {
                if (writer != null) {
                    writer.close();
                }
            } catch (IOException | RuntimeException e) {
                // the file is deleted below either way
            }
            target.discard(file, names);
        }
    }

    /**
     * The footer as a reader sees it: parquet-mr adjusts statistics on the way to the file (no
     * min/max for a column with NaN, 0.0 bounds as -0.0), and Kernel's statistics are those of the file.
     */
    private static ParquetMetadata footer(Path file) throws IOException {
        return ParquetFileReader.readFooter(new LocalInputFile(file), ParquetMetadataConverter.NO_FILTER);
    }

    /** A parquet-mr writer of {@code Object[]} rows through {@link RowWriteSupport}. */
    static final class Builder extends ParquetWriter.Builder<Object[], Builder> {
        private final RowWriteSupport support;

        Builder(OutputFile file, RowWriteSupport support) {
            super(file);
            this.support = support;
        }

        @Override
        protected Builder self() {
            return this;
        }

        @Override
        protected WriteSupport<Object[]> getWriteSupport(org.apache.hadoop.conf.Configuration conf) {
            return support;
        }

        @Override
        protected WriteSupport<Object[]> getWriteSupport(org.apache.parquet.conf.ParquetConfiguration conf) {
            return support;
        }
    }
}
