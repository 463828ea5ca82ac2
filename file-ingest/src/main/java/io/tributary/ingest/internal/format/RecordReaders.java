package io.tributary.ingest.internal.format;

import io.tributary.expressions.CsvInputVariants;
import io.tributary.expressions.JsonTextVariants;
import io.tributary.expressions.XmlInput;
import io.tributary.schema.CsvValues;
import io.tributary.schema.DebeziumEvents;
import io.tributary.ingest.FileFormat;
import io.tributary.ingest.IngestConfig;
import io.tributary.ingest.SchemaEvolution;
import io.tributary.schema.RowJson;
import io.tributary.schema.Schema;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.List;

/** Opens the {@link RecordReader} of an input file for the ingest's format, schema and options. */
public final class RecordReaders {
    private final FileFormat format;
    private final Schema schema;
    private final InputJson rows;
    private final CsvValues csv;
    /** How a CSV file's VARIANT columns read DATE and TIMESTAMP values; null dates when the schema has no VARIANT column. */
    private final TimeFormats csvDates;
    private final TimeFormats csvTimes;
    private final DebeziumEvents debezium;
    private final XmlInput xml;
    private final int maxLineBytes;
    private final SchemaEvolution evolution;
    private final Leftover.Collected collected;

    public RecordReaders(FileFormat format, Schema schema, ZoneId sessionZone, int maxLineBytes) {
        this(format, schema, sessionZone, maxLineBytes, SchemaEvolution.NONE, null, List.of(io.tributary.schema.DebeziumEvents.DEFAULT_SEQUENCE));
    }

    /** The readers of {@code config}'s files. */
    public RecordReaders(IngestConfig config) {
        this(config.format(), config.schema(), config.timeZone(), config.maxLineBytes(), config.schemaEvolution(), null,
                config.debeziumSequence());
    }

    /**
     * Readers that collect the new columns of {@code config}'s files instead of stopping at the first
     * ({@link SchemaEvolution#ADD_NEW_COLUMNS}); {@link #newColumns()} gives them.
     */
    public static RecordReaders collecting(IngestConfig config) {
        return new RecordReaders(config.format(), config.schema(), config.timeZone(), config.maxLineBytes(), SchemaEvolution.ADD_NEW_COLUMNS,
                new Leftover.Collected(config.inferColumnTypes()), config.debeziumSequence());
    }

    private RecordReaders(FileFormat format, Schema schema, ZoneId sessionZone, int maxLineBytes, SchemaEvolution evolution,
                          Leftover.Collected collected, List<String> debeziumSequence) {
        this.evolution = evolution;
        this.collected = collected;
        this.format = format;
        this.schema = schema;
        TimeFormats times = format.times(sessionZone);
        this.rows = new InputJson(schema, times, format.singleVariantColumn());
        this.csv = format.kind() == FileFormat.Kind.CSV ? new CsvValues(schema, times, key -> format.option(key, null)) : null;
        this.csvTimes = times;
        // a CSV VARIANT value is a DATE by the dateFormat alone (yyyy-MM-dd by default), as Spark's reader tries it
        this.csvDates = csv != null && schema.fields().stream().anyMatch(f -> f.type().isVariant())
                ? TimeFormats.of(sessionZone, null, null, format.option("dateformat", "yyyy-MM-dd")) : null;
        this.debezium = format.kind() == FileFormat.Kind.DEBEZIUM_JSON ? new DebeziumEvents(schema, times, debeziumSequence,
                JsonTextVariants.INSTANCE) : null;
        this.xml = format.kind() == FileFormat.Kind.XML ? format.xmlInput() : null;
        this.maxLineBytes = maxLineBytes;
    }

    /** True for readers that collect new columns ({@link #collecting}). */
    public boolean collects() {
        return collected != null;
    }

    /** The new columns collected so far and their types ({@link #collecting}); empty otherwise. */
    public java.util.Map<String, io.tributary.schema.DataType> newColumns() {
        return collected == null ? java.util.Map.of() : collected.columns();
    }

    /** The JSON of the rows: how a JSON file reads, and how every row is written to the events topic. */
    public RowJson rowJson() {
        return rows.rowJson();
    }

    /**
     * The records of the file {@code name} whose stored bytes {@code raw} gives, decompressed by
     * its extension. A Parquet file is read from {@code localPath} once {@code raw} is read whole
     * (a local file), or from a temporary copy of {@code raw} when {@code localPath} is null.
     */
    public RecordReader open(String name, RawInput raw, Path localPath) throws IOException {
        return open(name, name, name, raw, localPath);
    }

    /**
     * As {@link #open(String, RawInput, Path)}; {@code display} names the file in errors and
     * {@code location} (its path or URI) in {@code _rescued_data}.
     */
    public RecordReader open(String name, String display, String location, RawInput raw, Path localPath) throws IOException {
        Leftover leftover = evolution == SchemaEvolution.NONE ? null
                : new Leftover(evolution, schema, display, location, schema.indexOf(io.tributary.schema.RescuedData.COLUMN), collected);
        return switch (format.kind()) {
            case PARQUET -> parquet(name, raw, localPath);
            case CSV -> new CsvReader(Compression.decompress(name, raw), format, csv, maxLineBytes,
                    csvDates == null ? null : new CsvInputVariants(schema.size(), csvDates, csvTimes));
            case TEXT -> new TextReader(Compression.decompress(name, raw), format.flag("wholetext", false), maxLineBytes);
            case JSON -> format.flag("multiline", false)
                    ? new JsonDocumentReader(Compression.decompress(name, raw), rows, maxLineBytes, leftover)
                    : new JsonLinesReader(Compression.decompress(name, raw), rows, maxLineBytes, leftover);
            case XML -> new XmlRecordReader(Compression.decompress(name, raw), xml, schema, format.singleVariantColumn() != null);
            case DEBEZIUM_JSON -> new DebeziumReader(Compression.decompress(name, raw), debezium, format.flag("multiline", false),
                    maxLineBytes, display);
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
