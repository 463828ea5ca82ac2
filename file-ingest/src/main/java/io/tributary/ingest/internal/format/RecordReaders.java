package io.tributary.ingest.internal.format;

import io.tributary.ingest.FileFormat;
import io.tributary.schema.RowJson;
import io.tributary.schema.Schema;
import io.tributary.schema.TimeFormats;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;

/** Opens the {@link RecordReader} of an input file for the ingest's format, schema and options. */
public final class RecordReaders {
    private final FileFormat format;
    private final Schema schema;
    private final RowJson rows;
    private final CsvValues csv;
    private final int maxLineBytes;

    public RecordReaders(FileFormat format, Schema schema, ZoneId sessionZone, int maxLineBytes) {
        this.format = format;
        this.schema = schema;
        TimeFormats times = format.times(sessionZone);
        this.rows = new RowJson(schema, times);
        this.csv = format.kind() == FileFormat.Kind.CSV ? new CsvValues(schema, format, times) : null;
        this.maxLineBytes = maxLineBytes;
    }

    /** The JSON of the rows: how a JSON file reads, and how every row is written to the events topic. */
    public RowJson rowJson() {
        return rows;
    }

    /**
     * The records of the file {@code name} whose stored bytes {@code raw} gives, decompressed by
     * its extension. A Parquet file is read from {@code localPath} once {@code raw} is read whole
     * (a local file), or from a temporary copy of {@code raw} when {@code localPath} is null.
     */
    public RecordReader open(String name, RawInput raw, Path localPath) throws IOException {
        return switch (format.kind()) {
            case PARQUET -> parquet(name, raw, localPath);
            case CSV -> new CsvReader(Compression.decompress(name, raw), format, csv, maxLineBytes);
            case TEXT -> new TextReader(Compression.decompress(name, raw), format.flag("wholetext", false), maxLineBytes);
            case JSON -> format.flag("multiline", false)
                    ? new JsonDocumentReader(Compression.decompress(name, raw), rows, maxLineBytes)
                    : new JsonLinesReader(Compression.decompress(name, raw), rows, maxLineBytes);
        };
    }

    private RecordReader parquet(String name, RawInput raw, Path localPath) throws IOException {
        if (localPath != null) {
            raw.drain();
            return new ParquetRowReader(localPath, schema, name);
        }
        Path copy = Files.createTempFile("tributary-", ".parquet");
        try {
            try (OutputStream out = Files.newOutputStream(copy)) {
                raw.transferTo(out);
            }
            ParquetRowReader reader = new ParquetRowReader(copy, schema, name);
            return new RecordReader() {
                @Override
                public boolean next() throws IOException {
                    return reader.next();
                }

                @Override
                public Object[] row() {
                    return reader.row();
                }

                @Override
                public long line() {
                    return reader.line();
                }

                @Override
                public Text text(int maxBytes) {
                    return reader.text(maxBytes);
                }

                @Override
                public void close() throws IOException {
                    try {
                        reader.close();
                    } finally {
                        Files.deleteIfExists(copy);
                    }
                }
            };
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(copy);
            throw e;
        }
    }
}
