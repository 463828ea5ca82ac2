package io.tributary.service.bench;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;

/**
 * The benchmark's input in a format: the rows of {@link BenchData} (the same ids, users, amounts
 * and timestamps) as JSON lines, as CSV with a header line ({@code id,user,amt,ts}, the timestamp
 * as ISO text) or as Parquet (INT32, STRING, DOUBLE, TIMESTAMP(MICROS, UTC); Snappy, as Spark
 * writes it), one file per part, and the source settings a pipeline reads them with.
 */
public final class BenchFiles {
    /** The formats the benchmark writes. */
    public static final List<String> FORMATS = List.of("json", "csv", "parquet");

    private static final MessageType PARQUET = Types.buildMessage()
            .required(PrimitiveTypeName.INT32).named("id")
            .required(PrimitiveTypeName.BINARY).as(LogicalTypeAnnotation.stringType()).named("user")
            .required(PrimitiveTypeName.DOUBLE).named("amt")
            .required(PrimitiveTypeName.INT64).as(LogicalTypeAnnotation.timestampType(true, LogicalTypeAnnotation.TimeUnit.MICROS)).named("ts")
            .named("spark_schema");

    private BenchFiles() {
    }

    /** Writes {@code rows} rows in {@code files} files {@code part-00000.FORMAT} into {@code dir}; returns the bytes written. */
    public static long write(String format, Path dir, long rows, int files, double repeatedIds) throws IOException {
        if ("json".equals(format)) {
            return BenchData.write(dir, "part", 0, rows, files, repeatedIds);
        }
        long distinct = Math.max(1, Math.round(rows * (1 - repeatedIds)));
        Files.createDirectories(dir);
        long bytes = 0;
        long index = 0;
        for (int f = 0; f < files; f++) {
            long count = rows / files + (f < rows % files ? 1 : 0);
            Path file = dir.resolve(String.format(Locale.ROOT, "part-%05d.%s", f, format));
            if ("csv".equals(format)) {
                csv(file, index, count, distinct);
            } else {
                parquet(file, index, count, distinct);
            }
            index += count;
            bytes += Files.size(file);
        }
        return bytes;
    }

    /** The lines of a pipeline spec's {@code source.files} block (indented four spaces) past {@code path}, for {@code format}. */
    public static List<String> sourceLines(String format) {
        return "csv".equals(format)
                ? List.of("    format: csv", "    options:", "      header: \"true\"", "    schema: \"" + BenchData.SCHEMA + "\"")
                : List.of("    format: " + format, "    schema: \"" + BenchData.SCHEMA + "\"");
    }

    private static void csv(Path file, long first, long count, long distinct) throws IOException {
        try (Writer out = new BufferedWriter(Files.newBufferedWriter(file, StandardCharsets.US_ASCII), 1 << 16)) {
            out.write("id,user,amt,ts\n");
            StringBuilder line = new StringBuilder(64);
            for (long i = first; i < first + count; i++) {
                line.setLength(0);
                line.append(BenchData.id(0, i, distinct)).append(',').append(BenchData.userName(i)).append(',')
                        .append(BenchData.amount(i)).append(',').append(io.tributary.schema.Timestamps.formatMicros(BenchData.micros(i))).append('\n');
                out.append(line);
            }
        }
    }

    private static void parquet(Path file, long first, long count, long distinct) throws IOException {
        SimpleGroupFactory groups = new SimpleGroupFactory(PARQUET);
        try (ParquetWriter<Group> out = ExampleParquetWriter.builder(new LocalOutputFile(file))
                .withConf(new PlainParquetConfiguration()).withType(PARQUET)
                .withCompressionCodec(CompressionCodecName.SNAPPY).build()) {
            for (long i = first; i < first + count; i++) {
                out.write(groups.newGroup().append("id", (int) BenchData.id(0, i, distinct)).append("user", BenchData.userName(i))
                        .append("amt", Double.parseDouble(BenchData.amount(i))).append("ts", BenchData.micros(i)));
            }
        }
    }
}
