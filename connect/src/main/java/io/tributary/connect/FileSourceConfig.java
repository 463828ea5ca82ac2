package io.tributary.connect;

import io.tributary.connect.internal.ConnectErrors;
import io.tributary.connect.internal.ConnectSettings;
import io.tributary.connect.internal.JoinTables;
import io.tributary.connect.internal.TransformKeys;
import io.tributary.ingest.FileFormat;
import io.tributary.ingest.IngestConfig;
import io.tributary.ingest.IngestSettings;
import io.tributary.ingest.TransformSettings;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import io.tributary.settings.Setting;
import io.tributary.settings.Values;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/**
 * The {@link FileSourceConnector}'s settings: the file source's own ({@link IngestSettings}, the
 * keys of a spec's {@code source.files.*} without their prefix), with the connector's defaults and
 * words, and the topics the rows and bad lines go to. Each value is parsed by the stage's own
 * definition, so a bad one is refused by the worker's REST API with the key named.
 */
public final class FileSourceConfig extends AbstractConfig {
    public static final String PATH = IngestSettings.PATH.key();
    public static final String KEYS = "keys";
    /** Set by the connector for each task: which share of the files it reads. */
    static final String TASK_INDEX = "tributary.task.index";
    static final String TASK_COUNT = "tributary.task.count";

    /** The stage's settings this connector takes, by the stage's names. */
    private static final Map<String, Setting<?>> STAGE = ConnectSettings.byKey(List.of(
            IngestSettings.PATH.required().withDoc("the folder of input files (on every worker: a shared volume, or a folder in object"
                    + " storage, s3a://bucket/folder/); new files are new data, as Spark's readStream.json(path)"),
            IngestSettings.SCHEMA.withDoc("the rows' schema as a Spark DDL string, e.g. \"id INT, user STRING, amt DOUBLE, ts TIMESTAMP\";"
                    + " required unless options.singleVariantColumn is given (then left out, or exactly NAME VARIANT)"),
            IngestSettings.FORMAT.allowing("json", "debezium-json").withDoc("the input format: JSON Lines, one object per line; or"
                    + " debezium-json, Debezium's change events one per line: rows of the schema's columns plus op and lsn (docs/cdc.md)"),
            IngestSettings.OPTIONS.withDoc("the JSON reader's options, Spark's names, as options.NAME: multiLine, timestampFormat,"
                    + " timestampNTZFormat, dateFormat, inferTimestamp, typedMapKeys (Tributary's), singleVariantColumn (each whole line"
                    + " one VARIANT column of that name, as Spark's option: e.g. options.singleVariantColumn=v, the schema then left out;"
                    + " format json; docs/formats.md)"),
            IngestSettings.DEBEZIUM_SEQUENCE,
            IngestSettings.ON_BAD_RECORD.withDoc("a malformed line: deadLetter (to deadLetterTopic, naming file:line, field and reason;"
                    + " Spark's PERMISSIVE), drop (counted and dropped; DROPMALFORMED) or fail (the task stops, nothing of the file is"
                    + " published; FAILFAST)"),
            IngestSettings.MAX_FILES.withDefault("10").withDoc("at most this many new files per transaction (Spark's maxFilesPerTrigger)"),
            IngestSettings.MAX_BYTES.withDefault("8m").withDoc("at most about this many bytes of files per transaction, at least one file"
                    + " (Spark's maxBytesPerTrigger); a transaction's records are held in memory, and must reach Kafka within the"
                    + " producer's transaction.timeout.ms"),
            IngestSettings.MAX_LINE,
            IngestSettings.ROWS_PER_RECORD.withDefault("1").withDoc("rows per Kafka record, as JSON lines; 1 (a record per row) is what"
                    + " most consumers expect; the Delta sink connector and tributary run read packed records too, and 1000 (tributary"
                    + " run's default) spares the worker most of its work per record"),
            IngestSettings.FILE_MIN_AGE,
            IngestSettings.TIME_ZONE.withDoc("the zone of a TIMESTAMP written without an offset (Spark's spark.sql.session.timeZone)"),
            IngestSettings.CLEAN_SOURCE.withDoc("once a file's transaction committed (never before): leave it, move it to sourceArchiveDir,"
                    + " or delete it (Spark's cleanSource)"),
            IngestSettings.ARCHIVE_DIR.withDoc("cleanSource archive: the folder files move to, outside the input folder (a local folder,"
                    + " or s3a://... with an input in object storage)")));

    /** Spark's where and selectExpr over each row read, by the stage's names (a spec's {@code transform.where}, {@code transform.select}). */
    private static final Map<String, Setting<?>> TRANSFORM = ConnectSettings.byKey(java.util.stream.Stream.concat(java.util.stream.Stream.of(
            TransformSettings.WHERE.withDoc("Spark's filter/where: a Spark SQL boolean expression; only the rows where it is true are"
                    + " published, e.g. \"amt > 0 AND user IS NOT NULL\"; a row it fails on is a bad line (onBadRecord)"),
            TransformSettings.SELECT.withDoc("Spark's selectExpr: the published columns, comma separated, each *, a column or"
                    + " \"expression AS name\", e.g. \"id, lower(trim(user)) AS user\"; applied after where; a row it fails on is a bad"
                    + " line (onBadRecord)"),
            TransformSettings.JOIN.withDoc("Spark's stream-static joins with Delta tables, applied before where and select:"
                    + " join.table (a path every worker reaches, or a URI such as s3a://...), join.as (the alias), join.on (e.g."
                    + " \"user = u.user\") and join.type (inner, left, left_semi or left_anti; default inner); several as join.0.table,"
                    + " join.1.table ...; each table is read again at a poll's start when it has a new version"),
            TransformSettings.LATERAL_VIEW.withDoc("Spark's LATERAL VIEW, applied after join and before where: lateralView.generator"
                    + " (a generator call, e.g. \"explode(tags)\"), lateralView.as (the view's name), lateralView.columns (its columns,"
                    + " comma separated; default the generator's own names) and lateralView.outer (true keeps a row the generator makes"
                    + " none of, with nulls; default false); several as lateralView.0.generator, lateralView.1.generator ..."),
            TransformSettings.SQL.withDoc("the transform as one Spark SQL query instead of join, where and select: SELECT ... FROM"
                    + " source [s] [JOIN, LEFT JOIN, LEFT SEMI JOIN or LEFT ANTI JOIN delta.`path` u ON ...] [WHERE ...], e.g."
                    + " \"SELECT s.id, lower(s.user) AS user, u.segment FROM source s LEFT JOIN delta.`/data/users` u ON lower(s.user) = u.user WHERE"
                    + " s.amt > 0\"; no GROUP BY (the connector runs no aggregation); a row it fails on is a bad line (onBadRecord)")), TransformKeys.COLUMN_STEPS.stream()).toList());

    /** Spark's dropDuplicates, which this connector refuses (the Delta sink connector's dropDuplicates.keys takes it). */
    private static final Setting<Map<String, String>> DROP_DUPLICATES = Setting.map("dropDuplicates", "refused (dropDuplicates.keys,"
            + " dropDuplicates.withinWatermark): the tasks share the files by name and keep no state of the keys seen that they could"
            + " update in their own transaction, so two tasks could both publish a key; use the Delta sink connector's"
            + " dropDuplicates.keys, exactly once where the rows are written");

    private static final Setting<String> TOPIC = Setting.string("topic",
            "the topic the rows are published to, as JSON text (one row per record unless rowsPerRecord says more)").required();
    private static final Setting<String> DEAD_LETTER_TOPIC = Setting.string("deadLetterTopic",
            "the topic of bad lines with onBadRecord deadLetter; default: the topic's name + \".deadletter\"");
    private static final Setting<List<String>> KEY_COLUMNS = Setting.list(KEYS, "columns whose values key each row's record (the JSON"
            + " array of them, e.g. [3]), so that Kafka's default partitioner sends a key's rows to one partition, in file order, as the"
            + " Delta sink connector's mode upsert needs; with rowsPerRecord 1");
    private static final Setting<Duration> POLL_INTERVAL = Setting.duration("pollInterval",
            "how often a task lists the folder when it found no new file").withDefault("1 second");

    /** The connector's own settings, by their names. */
    private static final Map<String, Setting<?>> OWN = ConnectSettings.byKey(List.of(TOPIC, DEAD_LETTER_TOPIC, KEY_COLUMNS, DROP_DUPLICATES, POLL_INTERVAL));

    public static final ConfigDef DEF = ConnectSettings.configDef(concat(concat(STAGE, TRANSFORM), OWN).values());

    private final Values stage;
    private final Values transform;
    private final Values own;

    public FileSourceConfig(Map<String, String> props) {
        super(DEF, props);
        this.stage = ConnectSettings.values(STAGE, originalsStrings());
        this.transform = ConnectSettings.values(TRANSFORM, originalsStrings());
        this.own = ConnectSettings.values(OWN, originalsStrings());
    }

    private static Map<String, Setting<?>> concat(Map<String, Setting<?>> a, Map<String, Setting<?>> b) {
        Map<String, Setting<?>> all = new java.util.LinkedHashMap<>(a);
        all.putAll(b);
        return all;
    }

    /**
     * The stage's config for connector {@code name}: every key checked together, as the stage
     * checks a spec; a problem names the key as this config writes it.
     *
     * @throws ConfigException naming the key at fault
     */
    public IngestConfig ingestConfig(String name) {
        if (own.has(DROP_DUPLICATES)) {
            String key = own.name(DROP_DUPLICATES);
            throw new ConfigException(key, originalsStrings().get(key), ConnectErrors.fileSourceDropDuplicates(key).getMessage());
        }
        ConfigException transformProblem = TransformKeys.problem(transform, originalsStrings(), "file source connector");
        if (transformProblem != null) {
            throw transformProblem;
        }
        try {
            return IngestConfig.builder(pipelineName(name), stage.get(IngestSettings.PATH), schema())
                    .storage(ConnectSettings.storage(originalsStrings()))
                    .eventsTopic(topic())
                    .deadLetterTopic(deadLetterTopic())
                    .settings(stage)
                    .transform(transform)
                    .staticTables(JoinTables.opener(ConnectSettings.storage(originalsStrings())))
                    .build();
        } catch (ConfigException e) {
            throw e;
        } catch (TributaryException e) {
            throw TransformKeys.onKey(e, concat(STAGE, TRANSFORM).keySet(), PATH, originalsStrings());
        }
    }

    /**
     * The rows' schema: {@code schema}, or with {@code options.singleVariantColumn} the one VARIANT column, as Spark's reader
     * gives it (a schema beside the option may only be that column: INVALID_SINGLE_VARIANT_COLUMN).
     */
    private Schema schema() {
        Schema given = stage.has(IngestSettings.SCHEMA) ? stage.get(IngestSettings.SCHEMA) : null;
        Map<String, String> options = stage.has(IngestSettings.OPTIONS) ? stage.map(IngestSettings.OPTIONS) : Map.of();
        String key = stage.name(IngestSettings.SCHEMA);
        Schema schema;
        try {
            schema = FileFormat.of(stage.get(IngestSettings.FORMAT), options).singleVariantSchema(given);
        } catch (TributaryException e) { // a schema beside singleVariantColumn that is not its one column
            throw new ConfigException(key, originalsStrings().get(key), e.getMessage());
        }
        if (schema == null) {
            throw new ConfigException(key, null, ConnectErrors.fileSourceNoSchema(key, stage.name(IngestSettings.OPTIONS)
                    + ".singleVariantColumn").getMessage());
        }
        return schema;
    }

    /** The key columns of the records; empty: records have no key. */
    public List<String> keys() {
        List<String> keys = own.get(KEY_COLUMNS);
        return keys == null ? List.of() : keys;
    }

    /** What is wrong with {@code keys} given the schema and rowsPerRecord; null when nothing. */
    public String keysProblem() {
        List<String> keys = keys();
        if (keys.isEmpty()) {
            return null;
        }
        int rowsPerRecord = stage.get(IngestSettings.ROWS_PER_RECORD);
        if (rowsPerRecord > 1) {
            return "keys " + keys + " key each row's record, but rowsPerRecord is " + rowsPerRecord
                    + " (rows of several keys in one record): set rowsPerRecord 1, or remove keys";
        }
        Schema schema;
        try {
            schema = ingestConfig(null).outputSchema(); // the select's columns
        } catch (ConfigException | TributaryException e) {
            schema = stage.has(IngestSettings.SCHEMA) ? stage.get(IngestSettings.SCHEMA) : null; // refused on its own key
        }
        if (schema == null) {
            return null;
        }
        for (String k : keys) {
            if (schema.indexOf(k) < 0) {
                return "keys names column '" + k + "', which is not in the schema " + schema.toDdl() + "; use columns of it";
            }
        }
        return null;
    }

    public String topic() {
        return own.get(TOPIC);
    }

    public String deadLetterTopic() {
        String t = own.get(DEAD_LETTER_TOPIC);
        return t != null ? t : topic() + ".deadletter";
    }

    public Duration pollInterval() {
        return own.get(POLL_INTERVAL);
    }

    /** The stage's pipeline name (it names the dead letters' pipeline): the connector's name, in the characters a pipeline name takes. */
    static String pipelineName(String connector) {
        return connector == null || connector.isBlank() ? "connect" : connector.replaceAll("[^A-Za-z0-9._-]", "_");
    }
}
