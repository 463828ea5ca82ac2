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
 * Tributary's own Parquet writer for local tables: rows go through parquet-mr's record writer
 * ({@link RowWriteSupport}) into {@code <uuid>-000.parquet} files of at most about the target
 * size of data each, Snappy-compressed as Spark
 * writes them; each file's statistics come from its footer ({@link ParquetFooterStats}), read back as
 * Kernel does, without reading the data again.
 */
final class DirectParquetFiles {
    private static final int SIZE_CHECK_ROWS = 10_000;

    private DirectParquetFiles() {
    }

    /**
     * Writes {@code rows} into {@code dir}; {@code dirName} is the same folder as Kernel names it
     * (the returned paths start with it, so Kernel can make them relative to the table). A new file
     * starts once {@code targetFileBytes} of data are buffered or written in the current one.
     */
    static List<DataFileStatus> write(Path dir, String dirName, Schema schema, StructType kernelSchema, List<Object[]> rows,
                                      List<Column> statsColumns, long targetFileBytes) throws IOException {
        Files.createDirectories(dir);
        String prefix = dirName.endsWith("/") ? dirName : dirName + "/";
        String id = UUID.randomUUID().toString();
        List<DataFileStatus> files = new ArrayList<>();
        int next = 0;
        while (next < rows.size()) {
            String name = String.format("%s-%03d.parquet", id, files.size());
            Path file = dir.resolve(name);
            RowWriteSupport support = new RowWriteSupport(schema);
            ParquetWriter<Object[]> writer = new Builder(new LocalOutputFile(file), support)
                    .withConf(new PlainParquetConfiguration())
                    .withCompressionCodec(CompressionCodecName.SNAPPY)
                    .build();
            try (writer) {
                do {
                    writer.write(rows.get(next++));
                } while (next < rows.size() && (next % SIZE_CHECK_ROWS != 0 || writer.getDataSize() < targetFileBytes));
            }
            files.add(new DataFileStatus(prefix + name, Files.size(file), Files.getLastModifiedTime(file).toMillis(),
                    Optional.of(ParquetFooterStats.of(footer(file), kernelSchema, statsColumns))));
        }
        return files;
    }

    /**
     * The footer as a reader sees it: parquet-mr adjusts statistics on the way to the file (no
     * min/max for a column with NaN, 0.0 bounds as -0.0), and Kernel's statistics are those of the file.
     */
    private static ParquetMetadata footer(Path file) throws IOException {
        return ParquetFileReader.readFooter(new LocalInputFile(file), ParquetMetadataConverter.NO_FILTER);
    }

    private static final class Builder extends ParquetWriter.Builder<Object[], Builder> {
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
