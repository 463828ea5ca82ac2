package io.tributary.ingest;

import io.tributary.ingest.internal.IngestErrors;
import io.tributary.kafka.DebeziumSequenceSetting;
import io.tributary.kafka.SchemaEvolutionSetting;
import io.tributary.schema.Schema;
import io.tributary.schema.Timestamps;
import io.tributary.schema.TributaryException;
import io.tributary.settings.Setting;
import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;

/**
 * The file source's settings under their own names; a spec writes them under {@code source.files.},
 * the file source connector as they are. {@link IngestConfigBuilder#settings} reads them.
 */
public final class IngestSettings {
    public static final Setting<String> PATH = Setting.path("path",
            "a file source: the folder of input files; new files are new data (Spark's readStream...json(path))");
    public static final Setting<String> FORMAT = Setting.oneOf("format", "the input format, as Spark's"
            + " readStream.format(...): json (JSON Lines; one document per file with multiLine), csv, parquet, text or xml (each"
            + " element of options.rowTag a row); files named"
            + " .gz, .bz2 or .zst are decompressed (docs/formats.md); beyond Spark, debezium-json: Debezium's JSON change events,"
            + " rows of the schema's columns plus op and lsn (docs/cdc.md)", "json", "csv", "parquet", "text", "xml", "debezium-json")
            .withDefault("json");
    public static final Setting<Schema> SCHEMA = Setting.custom("schema", Setting.Kind.STRING, (k, v) -> schema(k, v),
            "a file source's schema as a Spark DDL string, e.g."
            + " \"id INT, user STRING, amt DOUBLE, ts TIMESTAMP\"; absent: inferred from the first files (Spark's schemaInference),"
            + " recorded with the first batch and kept by later runs; a VARIANT column reads as Spark's JSON, CSV and Parquet readers"
            + " read one, in debezium-json as parse_json of a JSON column's text (docs/formats.md); with options.singleVariantColumn v:"
            + " v VARIANT");
    public static final Setting<Map<String, String>> OPTIONS = Setting.map("options", "the format's options, Spark's names: csv"
            + " header, sep, quote, escape, nullValue, comment, multiLine, timestampFormat, dateFormat, inferSchema...; json multiLine,"
            + " timestampFormat, dateFormat, inferTimestamp, typedMapKeys (Tributary's); json, csv and xml singleVariantColumn (each whole"
            + " record one VARIANT column of that name, the schema then left out); text wholetext; xml rowTag (required),"
            + " attributePrefix, valueTag, ignoreSurroundingSpaces, nullValue, timestampFormat, dateFormat, rowValidationXSDPath..."
            + " (docs/formats.md)");
    public static final Setting<List<String>> DEBEZIUM_SEQUENCE = DebeziumSequenceSetting.SEQUENCE;
    public static final Setting<Schema> SCHEMA_HINTS = Setting.custom("schemaHints", Setting.Kind.STRING,
            (k, v) -> ddl(k, v, " (hints are DDL columns, e.g. \"ts TIMESTAMP, amt DECIMAL(10,2)\")"), "without a schema: the types of some columns,"
            + " overriding what inference finds (Auto Loader's schemaHints), e.g. \"ts TIMESTAMP, amt DECIMAL(10,2)\"");
    public static final Setting<SchemaEvolution> SCHEMA_EVOLUTION = SchemaEvolutionSetting.MODE.parsedBy((k, v) -> SchemaEvolution.forName(v));
    public static final Setting<Boolean> INFER_COLUMN_TYPES = Setting.bool("inferColumnTypes", "schemaEvolution addNewColumns: new"
            + " columns get the types of their JSON values as Spark infers them (BIGINT, DOUBLE, BOOLEAN, STRING, STRUCT, ARRAY);"
            + " false: STRING, as Auto Loader's default cloudFiles.inferColumnTypes").withDefault("true");
    public static final Setting<Integer> MAX_FILES = Setting.integer("maxFilesPerTrigger",
            "at most this many new files per batch (Spark's maxFilesPerTrigger)").within(1, Integer.MAX_VALUE);
    public static final Setting<Long> MAX_BYTES = Setting.bytes("maxBytesPerTrigger",
            "at most about this many bytes of new files per batch, at least one file (Spark's maxBytesPerTrigger)").within(1, Long.MAX_VALUE);
    public static final Setting<BadRecordPolicy> ON_BAD_RECORD = Setting.choice("onBadRecord", "a malformed row, or one the table"
            + " cannot hold (a null in a NOT NULL column, a CHECK constraint broken): to the dead-letter topic (Spark's PERMISSIVE), counted and dropped"
            + " (DROPMALFORMED), or stop the run (FAILFAST)", (k, v) -> BadRecordPolicy.forName(v), "deadLetter", "drop", "fail")
            .withDefault("deadLetter").explainingChoices("use deadLetter to keep bad lines in the dead-letter topic, drop to count"
                    + " and drop them, fail to stop the run and publish nothing of the batch");
    public static final Setting<Duration> FILE_MIN_AGE = Setting.duration("fileMinAge",
            "hold back files modified more recently than this").withDefault("0 seconds");
    public static final Setting<Duration> FILE_SETTLE_TIME = Setting.duration("fileSettleTime", "beyond Spark, a folder where files"
            + " grow in place (local, NFS) and no fileMinAge: take a new file once its size and modification time held still across"
            + " two listings this far apart (on a local disk, also once it was last modified this long ago; a file moved or renamed in"
            + " after its last write at first sight), so a file still being"
            + " written is not read half; an availableNow or once run looks again once, then leaves a file still changing to a later"
            + " run; 0: at first sight (Spark). Object storage: always at first sight").withDefault("1 second");
    public static final Setting<Duration> MAX_FILE_AGE = Setting.duration("maxFileAge", "the ingest remembers the files it read"
            + " that were modified within this span before the newest one and forgets older ones; a new file older than that is not"
            + " read (Spark's maxFileAge)").withDefault("7 days");
    public static final Setting<Boolean> IGNORE_CORRUPT_FILES = Setting.bool("ignoreCorruptFiles", "a file whose data cannot be"
            + " decoded (a .gz, .bz2 or .zst cut short or damaged, a damaged Parquet file): keep the rows before the break, skip the"
            + " rest and count it (true, Spark's ignoreCorruptFiles), or stop the run naming the file, the codec and where (false)")
            .withDefault("false");
    public static final Setting<ZoneId> TIME_ZONE = Setting.custom("timeZone", Setting.Kind.STRING, (k, v) -> Timestamps.sessionZone(v, k),
            "the zone of a TIMESTAMP written without an offset (Spark's spark.sql.session.timeZone): a region such as"
                    + " America/New_York, an offset such as +01:00, or UTC. Spark's default is the JVM's zone; UTC here, so that a file"
                    + " gives the same rows on every host (a container's JVM runs in UTC anyway)").withDefault("UTC");
    public static final Setting<Long> MAX_LINE = Setting.bytes("maxLineBytes", "a longer line is a bad record").withDefault("16m")
            .within(16, Integer.MAX_VALUE);
    public static final Setting<Integer> ROWS_PER_RECORD = Setting.integer("rowsPerRecord", "rows packed into one events record, as"
            + " JSON lines (fewer Kafka records, less work per row); 1: a record per row, as a Kafka consumer of the events topic may"
            + " expect").withDefault("1000").within(1, Integer.MAX_VALUE);
    public static final Setting<String> CLEAN_SOURCE = Setting.oneOf("cleanSource", "once a file's batch committed (never before):"
            + " leave it, move it to sourceArchiveDir, or delete it (Spark's cleanSource)", "off", "archive", "delete").withDefault("off");
    public static final Setting<String> ARCHIVE_DIR = Setting.path("sourceArchiveDir", "cleanSource archive: the folder files move"
            + " to, keeping their path relative to the input folder (Spark keeps their full path); must not be inside the input folder");

    /** Every setting, in the order the documentation lists them. */
    public static final List<Setting<?>> ALL = List.of(PATH, FORMAT, SCHEMA, OPTIONS, DEBEZIUM_SEQUENCE, SCHEMA_HINTS, SCHEMA_EVOLUTION, INFER_COLUMN_TYPES,
            MAX_FILES, MAX_BYTES, ON_BAD_RECORD, FILE_MIN_AGE, FILE_SETTLE_TIME, MAX_FILE_AGE, IGNORE_CORRUPT_FILES, TIME_ZONE, MAX_LINE,
            ROWS_PER_RECORD, CLEAN_SOURCE, ARCHIVE_DIR);

    private IngestSettings() {
    }

    /** The schema: a DDL whose columns may be VARIANT ({@link FileFormat#checkSchema} refuses them where the format reads none). */
    private static Schema schema(String key, String text) {
        try {
            return Schema.parseWithVariant(text);
        } catch (TributaryException e) {
            throw IngestErrors.badDdl(key, "", e);
        }
    }

    private static Schema ddl(String key, String text, String hint) {
        try {
            return Schema.parse(text);
        } catch (TributaryException e) {
            throw IngestErrors.badDdl(key, hint, e);
        }
    }
}
