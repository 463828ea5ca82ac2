package io.tributary.service.spec;

import static io.tributary.service.spec.Setting.Type.BYTES;
import static io.tributary.service.spec.Setting.Type.DURATION;
import static io.tributary.service.spec.Setting.Type.ENUM;
import static io.tributary.service.spec.Setting.Type.INT;
import static io.tributary.service.spec.Setting.Type.LIST;
import static io.tributary.service.spec.Setting.Type.MAP;
import static io.tributary.service.spec.Setting.Type.PATH;
import static io.tributary.service.spec.Setting.Type.STRING;
import static io.tributary.service.spec.Setting.Type.TRIGGER;

import io.tributary.schema.CrashPoint;
import io.tributary.service.bench.BenchStats;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every key a pipeline spec takes, in one place. Keys that have a Spark option mirror its name
 * ({@code maxFilesPerTrigger}, {@code trigger}, {@code outputMode}); service settings are dotted
 * lowercase with unit suffixes.
 */
public final class Settings {
    public static final String NAME = "name";
    public static final String STATE = "state";
    public static final String TRIGGER_KEY = "trigger";
    public static final String FILES_PATH = "source.files.path";
    public static final String FILES_FORMAT = "source.files.format";
    public static final String FILES_SCHEMA = "source.files.schema";
    public static final String FILES_OPTIONS = "source.files.options";
    public static final String SCHEMA_EVOLUTION = "source.files.schemaEvolution";
    public static final String SCHEMA_HINTS = "source.files.schemaHints";
    public static final String INFER_COLUMN_TYPES = "source.files.inferColumnTypes";
    public static final String MAX_FILES = "source.files.maxFilesPerTrigger";
    public static final String MAX_BYTES = "source.files.maxBytesPerTrigger";
    public static final String BAD_RECORD = "source.files.onBadRecord";
    public static final String FILE_MIN_AGE = "source.files.fileMinAge";
    public static final String FILE_SETTLE_TIME = "source.files.fileSettleTime";
    public static final String IGNORE_CORRUPT_FILES = "source.files.ignoreCorruptFiles";
    public static final String FILES_TIME_ZONE = "source.files.timeZone";
    public static final String MAX_LINE = "source.files.maxLineBytes";
    public static final String ROWS_PER_RECORD = "source.files.rowsPerRecord";
    public static final String CLEAN_SOURCE = "source.files.cleanSource";
    public static final String ARCHIVE_DIR = "source.files.sourceArchiveDir";
    public static final String DELTA_PATH = "source.delta.path";
    public static final String DELTA_STARTING_VERSION = "source.delta.startingVersion";
    public static final String DELTA_SKIP_CHANGE_COMMITS = "source.delta.skipChangeCommits";
    public static final String DELTA_IGNORE_DELETES = "source.delta.ignoreDeletes";
    public static final String DELTA_READ_CHANGE_FEED = "source.delta.readChangeFeed";
    public static final String DELTA_MAX_FILES = "source.delta.maxFilesPerTrigger";
    public static final String DELTA_MAX_BYTES = "source.delta.maxBytesPerTrigger";
    public static final String DELTA_ROWS_PER_RECORD = "source.delta.rowsPerRecord";
    public static final String SINK_PATH = "sink.delta.path";
    public static final String SINK_MODE = "sink.delta.mode";
    public static final String SINK_KEYS = "sink.delta.keys";
    public static final String SINK_ORDER = "sink.delta.order";
    public static final String SINK_PROPERTIES = "sink.delta.properties";
    public static final String SINK_PARTITION_BY = "sink.delta.partitionBy";
    public static final String SINK_OPTIMIZE_EVERY = "sink.delta.optimizeEvery";
    public static final String SINK_TARGET_FILE_SIZE = "sink.delta.targetFileSize";
    public static final String SINK_ALLOWED_LATENCY = "sink.delta.allowedLatency";
    public static final String SINK_ALLOW_NON_EMPTY_PATH = "sink.delta.allowNonEmptyPath";
    public static final String SINK_MERGE_SCHEMA = "sink.delta.mergeSchema";
    public static final String EVENT_TIME = "aggregate.eventTime";
    public static final String WATERMARK = "aggregate.watermark";
    public static final String WINDOW = "aggregate.window";
    public static final String SLIDE = "aggregate.slide";
    public static final String GROUP_BY = "aggregate.groupBy";
    public static final String SELECT = "aggregate.select";
    public static final String LATE_ROWS = "aggregate.lateRows";
    public static final String CLOSE_IDLE = "aggregate.closeIdleWindowsAfter";
    public static final String STANDBY_REPLICAS = "aggregate.standbyReplicas";
    public static final String OUTPUT_MODE = "outputMode";
    public static final String KAFKA = "kafka";
    public static final String STORAGE = "storage";
    public static final String PARTITIONS = "topic.partitions";
    public static final String TOPIC_TRIM = "topic.trim";
    public static final String REPLICATION_FACTOR = "topic.replicationFactor";
    public static final String BROKER_PORT = "broker.port";
    public static final String HTTP_PORT = "http.port";
    public static final String HTTP_HOST = "http.host";
    public static final String HTTP_ALLOWED_HOSTS = "http.allowedHosts";
    public static final String LOG_FORMAT = "log.format";
    public static final String INSTANCE_ID = "instance.id";

    public static final List<Setting> ALL = List.of(
            req(NAME, STRING, "the pipeline's name: names its topics, state folder and sink id ([A-Za-z0-9_-]+)"),
            opt(STATE, PATH, null, "the pipeline's local state (embedded broker, Kafka Streams state); default .tributary/<name>/ beside the spec"),
            new Setting(TRIGGER_KEY, TRIGGER, null, false, List.of(),
                    "availableNow | once | processingTime: <interval>; absent: the next batch starts when the previous ends (Spark's default)"),
            opt(FILES_PATH, PATH, null, "a file source: the folder of input files; new files are new data (Spark's readStream...json(path))"),
            new Setting(FILES_FORMAT, ENUM, "json", false, List.of("json", "csv", "parquet", "text"), "the input format, as Spark's"
                    + " readStream.format(...): json (JSON Lines; one document per file with multiLine), csv, parquet or text; files named"
                    + " .gz, .bz2 or .zst are decompressed (docs/formats.md)"),
            opt(FILES_SCHEMA, STRING, null, "a file source's schema as a Spark DDL string, e.g. \"id INT, user STRING, amt DOUBLE, ts TIMESTAMP\";"
                    + " absent: inferred from the first files (Spark's schemaInference), recorded with the first batch and kept by later runs"),
            new Setting(FILES_OPTIONS, MAP, null, false, List.of(), "the format's options, Spark's names: csv header, sep, quote, escape,"
                    + " nullValue, comment, multiLine, timestampFormat, dateFormat, inferSchema...; json multiLine, timestampFormat, dateFormat, inferTimestamp; text wholetext"
                    + " (docs/formats.md)"),
            opt(SCHEMA_HINTS, STRING, null, "without a schema: the types of some columns, overriding what inference finds (Auto Loader's"
                    + " schemaHints), e.g. \"ts TIMESTAMP, amt DECIMAL(10,2)\""),
            new Setting(SCHEMA_EVOLUTION, ENUM, null, false, List.of("none", "addNewColumns", "rescue", "failOnNewColumns"),
                    "JSON fields the schema lacks (Auto Loader's schemaEvolutionMode; default none with a schema, addNewColumns without):"
                    + " ignored; added as nullable columns (the batch runs"
                    + " again with the grown schema, recorded with the ingest's progress; needs sink.delta.mergeSchema); kept in a"
                    + " _rescued_data column with wrongly typed values; or stop the run (docs/formats.md)"),
            new Setting(INFER_COLUMN_TYPES, ENUM, "true", false, List.of("true", "false"), "schemaEvolution addNewColumns: new columns"
                    + " get the types of their JSON values as Spark infers them (BIGINT, DOUBLE, BOOLEAN, STRING, STRUCT, ARRAY);"
                    + " false: STRING, as Auto Loader's default cloudFiles.inferColumnTypes"),
            opt(MAX_FILES, INT, null, "at most this many new files per batch (Spark's maxFilesPerTrigger)"),
            opt(MAX_BYTES, BYTES, null, "at most about this many bytes of new files per batch, at least one file (Spark's maxBytesPerTrigger)"),
            new Setting(BAD_RECORD, ENUM, "deadLetter", false, List.of("deadLetter", "drop", "fail"),
                    "a malformed row, or one the table cannot hold (a null in a NOT NULL column): to the dead-letter topic (Spark's"
                            + " PERMISSIVE), counted and dropped (DROPMALFORMED), or stop the run (FAILFAST)"),
            opt(FILE_MIN_AGE, DURATION, "0 seconds", "hold back files modified more recently than this"),
            opt(FILE_SETTLE_TIME, DURATION, "1 second", "beyond Spark, a folder where files grow in place (local, NFS) and no"
                    + " fileMinAge: take a new file once its size and modification time held still across two listings this far"
                    + " apart (on a local disk, also once it was last modified this long ago), so a file still being written is not"
                    + " read half; an availableNow or once run looks again once, then"
                    + " leaves a file still changing to a later run; 0: at first sight (Spark). Object storage: always at first sight"),
            new Setting(IGNORE_CORRUPT_FILES, ENUM, "false", false, List.of("true", "false"), "a file whose data cannot be decoded"
                    + " (a .gz, .bz2 or .zst cut short or damaged, a damaged Parquet file): keep the rows before the break, skip the"
                    + " rest and count it (true, Spark's ignoreCorruptFiles), or stop the run naming the file, the codec and where (false)"),
            opt(FILES_TIME_ZONE, STRING, "UTC", "the zone of a TIMESTAMP written without an offset (Spark's spark.sql.session.timeZone):"
                    + " a region such as America/New_York, an offset such as +01:00, or UTC. Spark's default is the JVM's zone; UTC here, so"
                    + " that a file gives the same rows on every host (a container's JVM runs in UTC anyway)"),
            opt(MAX_LINE, BYTES, "16m", "a longer line is a bad record"),
            opt(ROWS_PER_RECORD, INT, "1000", "rows packed into one events record, as JSON lines (fewer Kafka records, less work"
                    + " per row); 1: a record per row, as a Kafka consumer of the events topic may expect"),
            new Setting(CLEAN_SOURCE, ENUM, "off", false, List.of("off", "archive", "delete"),
                    "once a file's batch committed (never before): leave it, move it to sourceArchiveDir, or delete it (Spark's cleanSource)"),
            opt(ARCHIVE_DIR, PATH, null, "cleanSource archive: the folder files move to, keeping their path relative to the input folder"
                    + " (Spark keeps their full path); must not be inside the input folder"),
            opt(DELTA_PATH, PATH, null, "a Delta source: the table to read as a stream (Spark's readStream.format(\"delta\").load(path))"),
            opt(DELTA_STARTING_VERSION, STRING, null, "a number or latest; absent: the table's current rows, then new commits (Spark's startingVersion)"),
            new Setting(DELTA_SKIP_CHANGE_COMMITS, ENUM, "false", false, List.of("true", "false"), "skip commits that update or delete rows (Spark's skipChangeCommits)"),
            new Setting(DELTA_IGNORE_DELETES, ENUM, "false", false, List.of("true", "false"), "skip commits that only remove whole files (Spark's ignoreDeletes)"),
            new Setting(DELTA_READ_CHANGE_FEED, ENUM, "false", false, List.of("true", "false"), "read the change data feed: rows with _change_type, _commit_version, _commit_timestamp (Spark's readChangeFeed)"),
            opt(DELTA_MAX_FILES, INT, "1000", "at most this many table files per batch (Spark's maxFilesPerTrigger)"),
            opt(DELTA_MAX_BYTES, BYTES, null, "at most about this many bytes of table files per batch (Spark's maxBytesPerTrigger)"),
            opt(DELTA_ROWS_PER_RECORD, INT, "1000", "rows packed into one events record, as source.files.rowsPerRecord; 1: a record per row"),
            req(SINK_PATH, PATH, "the Delta table's folder; created on the first write"),
            new Setting(SINK_MODE, ENUM, "append", false, List.of("append", "upsert"), "append every row, or MERGE by key (upsert)"),
            opt(SINK_KEYS, LIST, null, "the key columns of mode upsert"),
            opt(SINK_ORDER, STRING, null, "mode upsert: the column whose largest value wins among rows of one key (default: the last in Kafka order)"),
            new Setting(SINK_PROPERTIES, MAP, null, false, List.of(), "Delta table properties set when the table is created, e.g. delta.checkpointInterval"),
            opt(SINK_PARTITION_BY, LIST, null, "partition columns, set when the table is created: a column, or a day of an event time, e.g. date(ts) as day (UTC); Hive-style col=value/ folders"),
            opt(SINK_OPTIMIZE_EVERY, INT, "0", "compact the table's small files (tributary optimize, dataChange=false) in the background after every N sink commits; 0: never"),
            opt(SINK_TARGET_FILE_SIZE, BYTES, "128m", "the size of the Parquet files the sink writes (a batch larger than this is split) and that sink.delta.optimizeEvery compacts to"),
            opt(SINK_ALLOWED_LATENCY, DURATION, "0 seconds", "beyond Spark, continuous triggers only: let new rows wait up to this long in the topic to fill a file of targetFileSize, so a slow stream writes fewer, larger files; 0: commit every batch (Spark)"),
            new Setting(SINK_ALLOW_NON_EMPTY_PATH, ENUM, "false", false, List.of("true", "false"), "create the table in a folder that holds other files but no _delta_log (refused by default: they are not the table's); vacuum never deletes them"),
            new Setting(SINK_MERGE_SCHEMA, ENUM, "false", false, List.of("true", "false"), "add the pipeline's new columns to an existing"
                    + " table, nullable, in the commit of the first rows that carry them (Delta's mergeSchema); false: such a table is refused"
                    + " with both schemas shown. A table's columns the pipeline lacks are written null either way"),
            opt(EVENT_TIME, STRING, null, "the event-time column of the aggregation"),
            opt(WATERMARK, DURATION, null, "how late data may arrive (Spark's withWatermark delay); absent: no row is ever late and no state is dropped (update and complete only, as Spark)"),
            opt(WINDOW, DURATION, null, "the window length (Spark's window(ts, length))"),
            opt(SLIDE, DURATION, null, "the slide of hopping windows (Spark's window(ts, length, slide)); absent: tumbling"),
            opt(GROUP_BY, LIST, null, "the grouping columns besides the window"),
            new Setting(SELECT, MAP, null, false, List.of(), "the aggregates by output name: sum(col), count(*), count(col), min, max, avg, first, last"),
            new Setting(LATE_ROWS, ENUM, "drop", false, List.of("drop", "deadLetter"), "rows later than the watermark: dropped and counted (Spark), or also kept in the late-rows topic"),
            opt(CLOSE_IDLE, DURATION, null, "beyond Spark: after this much wall-clock time with no new file, close every open window (later rows for them are late); absent: windows wait for later events, as in Spark"),
            opt(STANDBY_REPLICAS, INT, null, "Kafka Streams' num.standby.replicas: warm copies of each aggregation task's state on other"
                    + " instances, so a task that moves does not restore its changelog first; absent: 1 when instances share the pipeline"
                    + " (a Kafka cluster and a continuous trigger), else 0").within(0, 10),
            new Setting(OUTPUT_MODE, ENUM, "append", false, List.of("append", "update", "complete"), "Spark's output modes of an aggregation"),
            new Setting(KAFKA, MAP, null, false, List.of(), "Kafka client settings, passed through untouched (bootstrap.servers, security...); no bootstrap.servers: an embedded broker."
                    + " The producers that write rows compress with LZ4 unless `compression.type` is given here;"
                    + " with the embedded broker, clients retry after 10 ms (at most 100 ms) unless `retry.backoff.ms` or `retry.backoff.max.ms` is"),
            new Setting(STORAGE, MAP, null, false, List.of(), "settings of the file systems the paths live on, passed through untouched"
                    + " (Hadoop S3A's names: fs.s3a.endpoint, fs.s3a.endpoint.region, fs.s3a.path.style.access, fs.s3a.access.key,"
                    + " fs.s3a.secret.key...); without keys, AWS's default credentials chain (docs/object-storage.md)"),
            opt(PARTITIONS, INT, "1", "partitions of the topics the pipeline creates").within(1, Integer.MAX_VALUE),
            opt(REPLICATION_FACTOR, INT, null, "replicas of the topics the pipeline creates (its own and Kafka Streams' changelogs);"
                    + " absent: the broker's default.replication.factor. A production cluster: 3, with min.insync.replicas 2").within(1, Short.MAX_VALUE),
            new Setting(TOPIC_TRIM, ENUM, "true", false, List.of("true", "false"), "delete the records of the events and results "
                    + "topics once the stage reading them committed past them; false keeps them (they have no time retention)"),
            opt(BROKER_PORT, INT, "0", "the embedded broker's port on 127.0.0.1 (0: any free port)").within(0, 65535),
            opt(HTTP_PORT, INT, null, "the port of the live page (/), /health/live, /health/ready, /metrics and /progress; absent: 8080 for the default "
                    + "and processingTime triggers, none for availableNow and once; 0: any free port (logged); -1: none").within(-1, 65535),
            opt(HTTP_HOST, STRING, "127.0.0.1", "the address the HTTP endpoints listen on; 0.0.0.0 in a container"),
            opt(HTTP_ALLOWED_HOSTS, LIST, null, "the host names a request's Host header may give besides localhost, 127.0.0.1, [::1] and"
                    + " http.host (* for any); other requests get 403. Absent: with http.host 0.0.0.0 or ::, any (docs/operations.md)"),
            new Setting(LOG_FORMAT, ENUM, "text", false, List.of("text", "json"), "log lines on stderr: text, or one JSON object per line"),
            opt(INSTANCE_ID, STRING, null, "this process among the instances of the pipeline that share its work (a Kafka cluster and a"
                    + " continuous trigger, docs/operations.md): its member id in the pipeline's consumer groups and its sink's txn id"
                    + " (tributary-<name>-sink@<id>); absent: the host name. Give each instance its own ([A-Za-z0-9._-]+)"));

    /**
     * The settings that may differ between the instances of one pipeline (docs/operations.md): where
     * each process keeps its state and serves, how it reaches Kafka and storage, and how it paces
     * and compacts its own commits. Every other setting defines the pipeline's output, and an
     * instance whose value differs from its pipeline's is refused at start.
     */
    public static final java.util.Set<String> PER_INSTANCE = java.util.Set.of(NAME, STATE, INSTANCE_ID, TRIGGER_KEY,
            HTTP_PORT, HTTP_HOST, LOG_FORMAT, BROKER_PORT, KAFKA, STORAGE, STANDBY_REPLICAS,
            SINK_OPTIMIZE_EVERY, SINK_TARGET_FILE_SIZE, SINK_ALLOWED_LATENCY);

    /**
     * Environment variables named {@code TRIBUTARY_*} that are not keys: those of the launcher
     * ({@code bin/tributary}) and of test and benchmark tools. Any other {@code TRIBUTARY_*}
     * variable must name a key, or the spec is refused.
     */
    public static final Map<String, String> NOT_KEYS = notKeys(
            "TRIBUTARY_JAVA_OPTS", "the JVM flags bin/tributary starts Java with, instead of its own",
            "TRIBUTARY_CDS", "off: bin/tributary neither records nor maps its class-data archive",
            BenchStats.ENV, "a file a run benchmarked by tributary bench writes its heap and JVM times to at exit",
            CrashPoint.ENV, "tests only: the point at which the process halts, as if killed");

    private static final Map<String, Setting> BY_KEY = new LinkedHashMap<>();

    static {
        for (Setting s : ALL) {
            BY_KEY.put(s.key(), s);
        }
    }

    private Settings() {
    }

    public static Setting get(String key) {
        return BY_KEY.get(key);
    }

    /** The declared setting a key belongs to: itself, or a MAP setting it lies under; null if none. */
    public static Setting find(String key) {
        Setting s = BY_KEY.get(key);
        if (s != null) {
            return s;
        }
        for (Setting p : ALL) {
            if (p.isPrefix() && key.startsWith(p.key() + ".")) {
                return p;
            }
        }
        return null;
    }

    private static Map<String, String> notKeys(String... nameAndDoc) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < nameAndDoc.length; i += 2) {
            m.put(nameAndDoc[i], nameAndDoc[i + 1]);
        }
        return Collections.unmodifiableMap(m);
    }

    private static Setting req(String key, Setting.Type type, String doc) {
        return new Setting(key, type, null, true, List.of(), doc);
    }

    private static Setting opt(String key, Setting.Type type, String def, String doc) {
        return new Setting(key, type, def, false, List.of(), doc);
    }
}
