package io.tributary.connect;

import io.tributary.connect.internal.ConfigValues;
import io.tributary.ingest.BadRecordPolicy;
import io.tributary.ingest.CleanSource;
import io.tributary.ingest.IngestConfig;
import io.tributary.ingest.IngestConfigBuilder;
import io.tributary.schema.Schema;
import io.tributary.schema.Timestamps;
import io.tributary.schema.TributaryException;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;

/**
 * The {@link FileSourceConnector}'s settings: the keys of the pipeline spec's {@code source.files.*}
 * without their prefix, and the topics the rows and bad lines go to. Each value is checked by the
 * stage's own parsing, so a bad one is refused by the worker's REST API with the key named.
 */
public final class FileSourceConfig extends AbstractConfig {
    public static final String PATH = "path";
    public static final String SCHEMA = "schema";
    public static final String FORMAT = "format";
    public static final String TOPIC = "topic";
    public static final String DEAD_LETTER_TOPIC = "deadLetterTopic";
    public static final String ON_BAD_RECORD = "onBadRecord";
    public static final String MAX_FILES = "maxFilesPerTrigger";
    public static final String MAX_BYTES = "maxBytesPerTrigger";
    public static final String MAX_LINE = "maxLineBytes";
    public static final String ROWS_PER_RECORD = "rowsPerRecord";
    public static final String KEYS = "keys";
    public static final String FILE_MIN_AGE = "fileMinAge";
    public static final String TIME_ZONE = "timeZone";
    public static final String CLEAN_SOURCE = "cleanSource";
    public static final String ARCHIVE_DIR = "sourceArchiveDir";
    public static final String POLL_INTERVAL = "pollInterval";
    /** Set by the connector for each task: which share of the files it reads. */
    static final String TASK_INDEX = "tributary.task.index";
    static final String TASK_COUNT = "tributary.task.count";

    public static final ConfigDef DEF = new ConfigDef()
            .define(PATH, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, new ConfigDef.NonEmptyString(), Importance.HIGH,
                    "the folder of input files (on every worker: a shared volume, or a folder in object storage, s3a://bucket/folder/); new files are new data, as Spark's readStream.json(path)")
            .define(SCHEMA, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, ConfigValues.by(Schema::parse), Importance.HIGH,
                    "the rows' schema as a Spark DDL string, e.g. \"id INT, user STRING, amt DOUBLE, ts TIMESTAMP\"")
            .define(TOPIC, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, new ConfigDef.NonEmptyString(), Importance.HIGH,
                    "the topic the rows are published to, as JSON text (one row per record unless rowsPerRecord says more)")
            .define(FORMAT, Type.STRING, "json", ConfigDef.ValidString.in("json"), Importance.LOW,
                    "the input format: JSON Lines, one object per line")
            .define(ON_BAD_RECORD, Type.STRING, "deadLetter", ConfigValues.by(BadRecordPolicy::forName), Importance.MEDIUM,
                    "a malformed line: deadLetter (to deadLetterTopic, naming file:line, field and reason; Spark's PERMISSIVE), "
                            + "drop (counted and dropped; DROPMALFORMED) or fail (the task stops, nothing of the file is published; FAILFAST)")
            .define(DEAD_LETTER_TOPIC, Type.STRING, null, Importance.MEDIUM,
                    "the topic of bad lines with onBadRecord deadLetter; default: the topic's name + \".deadletter\"")
            .define(MAX_FILES, Type.INT, 10, ConfigDef.Range.atLeast(1), Importance.LOW,
                    "at most this many new files per transaction (Spark's maxFilesPerTrigger)")
            .define(MAX_BYTES, Type.STRING, "8m", ConfigValues.by(v -> ConfigValues.bytes(MAX_BYTES, v)), Importance.LOW,
                    "at most about this many bytes of files per transaction, at least one file (Spark's maxBytesPerTrigger); "
                            + "a transaction's records are held in memory, and must reach Kafka within the producer's transaction.timeout.ms")
            .define(MAX_LINE, Type.STRING, "16m", ConfigValues.by(v -> ConfigValues.bytes(MAX_LINE, v)), Importance.LOW,
                    "a longer line is a bad record")
            .define(ROWS_PER_RECORD, Type.INT, 1, ConfigDef.Range.atLeast(1), Importance.LOW,
                    "rows per Kafka record, as JSON lines; 1 (a record per row) is what most consumers expect; "
                            + "the Delta sink connector and tributary run read packed records too, "
                            + "and 1000 (tributary run's default) spares the worker most of its work per record")
            .define(KEYS, Type.LIST, java.util.List.of(), Importance.MEDIUM,
                    "columns whose values key each row's record (the JSON array of them, e.g. [3]), so that Kafka's default "
                            + "partitioner sends a key's rows to one partition, in file order, as the Delta sink connector's mode upsert "
                            + "needs; with rowsPerRecord 1")
            .define(FILE_MIN_AGE, Type.STRING, "0 seconds", ConfigValues.by(v -> ConfigValues.duration(FILE_MIN_AGE, v)), Importance.LOW,
                    "hold back files modified more recently than this")
            .define(TIME_ZONE, Type.STRING, "UTC", ConfigValues.by(v -> Timestamps.sessionZone(v, TIME_ZONE)), Importance.LOW,
                    "the zone of a TIMESTAMP written without an offset (Spark's spark.sql.session.timeZone)")
            .define(CLEAN_SOURCE, Type.STRING, "off", ConfigDef.CaseInsensitiveValidString.in("off", "archive", "delete"), Importance.LOW,
                    "once a file's transaction committed (never before): leave it, move it to sourceArchiveDir, or delete it (Spark's cleanSource)")
            .define(ARCHIVE_DIR, Type.STRING, null, Importance.LOW,
                    "cleanSource archive: the folder files move to, outside the input folder (a local folder, or s3a://... with an input in object storage)")
            .define(POLL_INTERVAL, Type.STRING, "1 second", ConfigValues.by(v -> ConfigValues.duration(POLL_INTERVAL, v)), Importance.LOW,
                    "how often a task lists the folder when it found no new file");

    public FileSourceConfig(Map<String, String> props) {
        super(DEF, props);
    }

    /**
     * The stage's config for connector {@code name}: every key checked together, as the stage
     * checks a spec; a problem names the key.
     *
     * @throws ConfigException naming the key at fault
     */
    public IngestConfig ingestConfig(String name) {
        String key = PATH;
        try {
            IngestConfigBuilder b = IngestConfig.builder(pipelineName(name), getString(PATH), Schema.parse(getString(SCHEMA)))
                    .storage(ConfigValues.storage(originalsStrings()))
                    .format(getString(FORMAT))
                    .eventsTopic(getString(TOPIC))
                    .deadLetterTopic(deadLetterTopic())
                    .onBadRecord(BadRecordPolicy.forName(getString(ON_BAD_RECORD)))
                    .maxFilesPerTrigger(getInt(MAX_FILES))
                    .maxBytesPerTrigger(ConfigValues.bytes(MAX_BYTES, getString(MAX_BYTES)))
                    .maxLineBytes((int) Math.min(Integer.MAX_VALUE, ConfigValues.bytes(MAX_LINE, getString(MAX_LINE))))
                    .rowsPerRecord(getInt(ROWS_PER_RECORD))
                    .fileMinAge(ConfigValues.duration(FILE_MIN_AGE, getString(FILE_MIN_AGE)))
                    .timeZone(getString(TIME_ZONE));
            key = CLEAN_SOURCE;
            String archive = getString(ARCHIVE_DIR);
            b.cleanSource(CleanSource.forLocation(getString(CLEAN_SOURCE), archive));
            return b.build();
        } catch (TributaryException e) {
            throw new ConfigException(key, originalsStrings().get(key), e.getMessage());
        }
    }

    /** The key columns of the records; empty: records have no key. */
    public java.util.List<String> keys() {
        return getList(KEYS);
    }

    /** What is wrong with {@code keys} given the schema and rowsPerRecord; null when nothing. */
    public String keysProblem() {
        java.util.List<String> keys = keys();
        if (keys.isEmpty()) {
            return null;
        }
        if (getInt(ROWS_PER_RECORD) > 1) {
            return "keys " + keys + " key each row's record, but rowsPerRecord is " + getInt(ROWS_PER_RECORD)
                    + " (rows of several keys in one record): set rowsPerRecord 1, or remove keys";
        }
        Schema schema = Schema.parse(getString(SCHEMA));
        for (String k : keys) {
            if (schema.indexOf(k) < 0) {
                return "keys names column '" + k + "', which is not in the schema " + schema.toDdl() + "; use columns of it";
            }
        }
        return null;
    }

    public String topic() {
        return getString(TOPIC);
    }

    public String deadLetterTopic() {
        String t = getString(DEAD_LETTER_TOPIC);
        return t != null ? t : getString(TOPIC) + ".deadletter";
    }

    public Duration pollInterval() {
        return ConfigValues.duration(POLL_INTERVAL, getString(POLL_INTERVAL));
    }

    /** The stage's pipeline name (it names the dead letters' pipeline): the connector's name, in the characters a pipeline name takes. */
    static String pipelineName(String connector) {
        String n = connector == null || connector.isBlank() ? "connect" : connector.replaceAll("[^A-Za-z0-9._-]", "_");
        return n;
    }
}
