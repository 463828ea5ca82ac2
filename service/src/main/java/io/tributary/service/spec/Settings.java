package io.tributary.service.spec;


import io.tributary.ingest.IngestSettings;
import io.tributary.ingest.TransformSettings;
import io.tributary.kafka.KafkaSourceSettings;
import io.tributary.schema.CrashPoint;
import io.tributary.service.bench.BenchStats;
import io.tributary.settings.Setting;
import io.tributary.sink.SinkSettings;
import io.tributary.source.DeltaSourceSettings;
import io.tributary.topology.AggregationSettings;
import io.tributary.topology.DedupSettings;
import java.util.ArrayList;
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
    /** The prefixes under which the spec composes each stage's settings. */
    public static final String FILES = "source.files";
    public static final String DELTA = "source.delta";
    public static final String KAFKA_SOURCE = "source.kafka";
    public static final String SINK = "sink.delta";
    public static final String AGGREGATE = "aggregate";
    public static final String TRANSFORM = "transform";
    public static final String NAME = "name";
    public static final String STATE = "state";
    public static final String TRIGGER_KEY = "trigger";
    public static final String FILES_PATH = IngestSettings.PATH.under(FILES).key();
    public static final String FILES_FORMAT = IngestSettings.FORMAT.under(FILES).key();
    public static final String FILES_SCHEMA = IngestSettings.SCHEMA.under(FILES).key();
    public static final String FILES_OPTIONS = IngestSettings.OPTIONS.under(FILES).key();
    public static final String SCHEMA_EVOLUTION = IngestSettings.SCHEMA_EVOLUTION.under(FILES).key();
    public static final String SCHEMA_HINTS = IngestSettings.SCHEMA_HINTS.under(FILES).key();
    public static final String INFER_COLUMN_TYPES = IngestSettings.INFER_COLUMN_TYPES.under(FILES).key();
    public static final String MAX_FILES = IngestSettings.MAX_FILES.under(FILES).key();
    public static final String MAX_BYTES = IngestSettings.MAX_BYTES.under(FILES).key();
    public static final String BAD_RECORD = IngestSettings.ON_BAD_RECORD.under(FILES).key();
    public static final String FILE_MIN_AGE = IngestSettings.FILE_MIN_AGE.under(FILES).key();
    public static final String FILE_SETTLE_TIME = IngestSettings.FILE_SETTLE_TIME.under(FILES).key();
    public static final String IGNORE_CORRUPT_FILES = IngestSettings.IGNORE_CORRUPT_FILES.under(FILES).key();
    public static final String FILES_TIME_ZONE = IngestSettings.TIME_ZONE.under(FILES).key();
    public static final String MAX_LINE = IngestSettings.MAX_LINE.under(FILES).key();
    public static final String ROWS_PER_RECORD = IngestSettings.ROWS_PER_RECORD.under(FILES).key();
    public static final String CLEAN_SOURCE = IngestSettings.CLEAN_SOURCE.under(FILES).key();
    public static final String ARCHIVE_DIR = IngestSettings.ARCHIVE_DIR.under(FILES).key();
    public static final String TRANSFORM_WHERE = TransformSettings.WHERE.under(TRANSFORM).key();
    public static final String TRANSFORM_SELECT = TransformSettings.SELECT.under(TRANSFORM).key();
    public static final String TRANSFORM_JOIN = TransformSettings.JOIN.under(TRANSFORM).key();
    public static final String TRANSFORM_WITH_COLUMNS = TransformSettings.WITH_COLUMNS.under(TRANSFORM).key();
    public static final String TRANSFORM_WITH_COLUMNS_RENAMED = TransformSettings.WITH_COLUMNS_RENAMED.under(TRANSFORM).key();
    public static final String TRANSFORM_DROP = TransformSettings.DROP.under(TRANSFORM).key();
    public static final String TRANSFORM_LATERAL_VIEW = TransformSettings.LATERAL_VIEW.under(TRANSFORM).key();
    public static final String TRANSFORM_JOIN_MAX_ROWS = TransformSettings.JOIN_MAX_ROWS.under(TRANSFORM).key();
    public static final String SQL = TransformSettings.SQL.key();
    public static final String DEDUP_KEYS = DedupSettings.KEYS.under(TRANSFORM).key();
    public static final String DEDUP_EVENT_TIME = DedupSettings.EVENT_TIME.under(TRANSFORM).key();
    public static final String DEDUP_WITHIN_WATERMARK = DedupSettings.WITHIN_WATERMARK.under(TRANSFORM).key();
    public static final String DEDUP_WATERMARK = DedupSettings.WATERMARK.under(TRANSFORM).key();
    /** The keys of {@code transform.dropDuplicates}, in the order the documentation lists them. */
    public static final List<String> TRANSFORM_DEDUP = List.of(DEDUP_KEYS, DEDUP_EVENT_TIME, DEDUP_WITHIN_WATERMARK, DEDUP_WATERMARK);
    public static final String DELTA_PATH = DeltaSourceSettings.PATH.under(DELTA).key();
    public static final String DELTA_STARTING_VERSION = DeltaSourceSettings.STARTING_VERSION.under(DELTA).key();
    public static final String DELTA_SKIP_CHANGE_COMMITS = DeltaSourceSettings.SKIP_CHANGE_COMMITS.under(DELTA).key();
    public static final String DELTA_IGNORE_DELETES = DeltaSourceSettings.IGNORE_DELETES.under(DELTA).key();
    public static final String DELTA_READ_CHANGE_FEED = DeltaSourceSettings.READ_CHANGE_FEED.under(DELTA).key();
    public static final String DELTA_MAX_FILES = DeltaSourceSettings.MAX_FILES.under(DELTA).key();
    public static final String DELTA_MAX_BYTES = DeltaSourceSettings.MAX_BYTES.under(DELTA).key();
    public static final String DELTA_ROWS_PER_RECORD = DeltaSourceSettings.ROWS_PER_RECORD.under(DELTA).key();
    public static final String KAFKA_TOPICS = KafkaSourceSettings.TOPICS.under(KAFKA_SOURCE).key();
    public static final String KAFKA_SCHEMA = KafkaSourceSettings.SCHEMA.under(KAFKA_SOURCE).key();
    public static final String KAFKA_TOPIC_PATTERN = KafkaSourceSettings.TOPIC_PATTERN.under(KAFKA_SOURCE).key();
    public static final String KAFKA_FORMAT = KafkaSourceSettings.FORMAT.under(KAFKA_SOURCE).key();
    public static final String KAFKA_SCHEMA_EVOLUTION = KafkaSourceSettings.SCHEMA_EVOLUTION.under(KAFKA_SOURCE).key();
    public static final String KAFKA_STARTING_OFFSETS = KafkaSourceSettings.STARTING_OFFSETS.under(KAFKA_SOURCE).key();
    public static final String KAFKA_STARTING_TIMESTAMP = KafkaSourceSettings.STARTING_TIMESTAMP.under(KAFKA_SOURCE).key();
    public static final String KAFKA_INCLUDE_METADATA = KafkaSourceSettings.INCLUDE_METADATA.under(KAFKA_SOURCE).key();
    public static final String KAFKA_AVRO_SCHEMA = KafkaSourceSettings.AVRO_SCHEMA.under(KAFKA_SOURCE).key();
    public static final String KAFKA_AVRO_SCHEMA_FILE = KafkaSourceSettings.AVRO_SCHEMA_FILE.under(KAFKA_SOURCE).key();
    public static final String KAFKA_PROTOBUF_DESCRIPTOR_FILE = KafkaSourceSettings.PROTOBUF_DESCRIPTOR_FILE.under(KAFKA_SOURCE).key();
    public static final String KAFKA_PROTOBUF_MESSAGE = KafkaSourceSettings.PROTOBUF_MESSAGE.under(KAFKA_SOURCE).key();
    public static final String KAFKA_SCHEMA_REGISTRY_URL = KafkaSourceSettings.SCHEMA_REGISTRY_URL.under(KAFKA_SOURCE).key();
    public static final String KAFKA_SCHEMA_REGISTRY_SUBJECT = KafkaSourceSettings.SCHEMA_REGISTRY_SUBJECT.under(KAFKA_SOURCE).key();
    public static final String KAFKA_BAD_RECORD = IngestSettings.ON_BAD_RECORD.under(KAFKA_SOURCE).key();
    public static final String SINK_PATH = SinkSettings.PATH.under(SINK).key();
    public static final String SINK_MODE = SinkSettings.MODE.under(SINK).key();
    public static final String SINK_KEYS = SinkSettings.KEYS.under(SINK).key();
    public static final String SINK_ORDER = SinkSettings.ORDER.under(SINK).key();
    public static final String SINK_PROPERTIES = SinkSettings.PROPERTIES.under(SINK).key();
    public static final String SINK_PARTITION_BY = SinkSettings.PARTITION_BY.under(SINK).key();
    public static final String SINK_OPTIMIZE_EVERY = SinkSettings.OPTIMIZE_EVERY.under(SINK).key();
    public static final String SINK_TARGET_FILE_SIZE = SinkSettings.TARGET_FILE_SIZE.under(SINK).key();
    public static final String SINK_ALLOWED_LATENCY = SinkSettings.ALLOWED_LATENCY.under(SINK).key();
    public static final String SINK_ALLOW_NON_EMPTY_PATH = SinkSettings.ALLOW_NON_EMPTY_PATH.under(SINK).key();
    public static final String SINK_MERGE_SCHEMA = SinkSettings.MERGE_SCHEMA.under(SINK).key();
    public static final String EVENT_TIME = AggregationSettings.EVENT_TIME.under(AGGREGATE).key();
    public static final String WATERMARK = AggregationSettings.WATERMARK.under(AGGREGATE).key();
    public static final String WINDOW = AggregationSettings.WINDOW.under(AGGREGATE).key();
    public static final String SLIDE = AggregationSettings.SLIDE.under(AGGREGATE).key();
    public static final String GROUP_BY = AggregationSettings.GROUP_BY.under(AGGREGATE).key();
    public static final String SELECT = AggregationSettings.SELECT.under(AGGREGATE).key();
    public static final String LATE_ROWS = AggregationSettings.LATE_ROWS.under(AGGREGATE).key();
    public static final String CLOSE_IDLE = AggregationSettings.CLOSE_IDLE.under(AGGREGATE).key();
    public static final String STANDBY_REPLICAS = AggregationSettings.STANDBY_REPLICAS.under(AGGREGATE).key();
    public static final String OUTPUT_MODE = AggregationSettings.OUTPUT_MODE.key();
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

    private static final List<Setting<?>> SERVICE_FIRST = List.of(
            Setting.string(NAME, "the pipeline's name: names its topics, state folder and sink id ([A-Za-z0-9_-]+)").required(),
            Setting.path(STATE, "the pipeline's local state (embedded broker, Kafka Streams state); default .tributary/<name>/ beside the spec"),
            Setting.custom(TRIGGER_KEY, Setting.Kind.TRIGGER, (k, v) -> Trigger.parse(v),
                    "availableNow | once | processingTime: <interval>; absent: the next batch starts when the previous ends (Spark's default)"));

    private static final List<Setting<?>> SERVICE_LAST = List.of(
            Setting.map(KAFKA, "Kafka client settings, passed through untouched (bootstrap.servers, security...); no bootstrap.servers: an embedded broker."
                    + " The producers that write rows compress with LZ4 unless `compression.type` is given here;"
                    + " with the embedded broker, clients retry after 10 ms (at most 100 ms) unless `retry.backoff.ms` or `retry.backoff.max.ms` is"),
            Setting.map(STORAGE, "settings of the file systems the paths live on, passed through untouched"
                    + " (Hadoop S3A's names: fs.s3a.endpoint, fs.s3a.endpoint.region, fs.s3a.path.style.access, fs.s3a.access.key,"
                    + " fs.s3a.secret.key...); without keys, AWS's default credentials chain (docs/object-storage.md)"),
            Setting.integer(PARTITIONS, "partitions of the topics the pipeline creates").withDefault("1").within(1, Integer.MAX_VALUE),
            Setting.integer(REPLICATION_FACTOR, "replicas of the topics the pipeline creates (its own and Kafka Streams' changelogs);"
                    + " absent: the broker's default.replication.factor. A production cluster: 3, with min.insync.replicas 2").within(1, Short.MAX_VALUE),
            Setting.bool(TOPIC_TRIM, "delete the records of the events and results "
                    + "topics once the stage reading them committed past them; false keeps them (they have no time retention)").withDefault("true"),
            Setting.integer(BROKER_PORT, "the embedded broker's port on 127.0.0.1 (0: any free port)").withDefault("0").within(0, 65535),
            Setting.integer(HTTP_PORT, "the port of the live page (/), /health/live, /health/ready, /metrics and /progress; absent: 8080 for the default "
                    + "and processingTime triggers, none for availableNow and once; 0: any free port (logged); -1: none").within(-1, 65535),
            Setting.string(HTTP_HOST, "the address the HTTP endpoints listen on; 0.0.0.0 in a container").withDefault("127.0.0.1"),
            Setting.list(HTTP_ALLOWED_HOSTS, "the host names a request's Host header may give besides localhost, 127.0.0.1, [::1] and"
                    + " http.host (* for any); other requests get 403. Absent: with http.host 0.0.0.0 or ::, any (docs/operations.md)"),
            Setting.oneOf(LOG_FORMAT, "log lines on stderr: text, or one JSON object per line", "text", "json").withDefault("text"),
            Setting.string(INSTANCE_ID, "this process among the instances of the pipeline that share its work (a Kafka cluster and a"
                    + " continuous trigger, docs/operations.md): its member id in the pipeline's consumer groups and its sink's txn id"
                    + " (tributary-<name>-sink@<id>); absent: the host name. Give each instance its own ([A-Za-z0-9._-]+)"));

    /**
     * Every key a spec takes: the service's own, and each stage's settings under its prefix (the
     * stage defines them: {@code IngestSettings}, {@code DeltaSourceSettings}, {@code KafkaSourceSettings}, {@code SinkSettings},
     * {@code AggregationSettings}), in the order docs/configuration.md lists them.
     */
    public static final List<Setting<?>> ALL = compose();

    private static List<Setting<?>> compose() {
        List<Setting<?>> all = new ArrayList<>(SERVICE_FIRST);
        IngestSettings.ALL.forEach(s -> all.add(s.under(FILES)));
        DeltaSourceSettings.ALL.forEach(s -> all.add(s.under(DELTA)));
        KafkaSourceSettings.ALL.forEach(s -> all.add(s.under(KAFKA_SOURCE)));
        all.add(IngestSettings.ON_BAD_RECORD.under(KAFKA_SOURCE)); // the file source's modes, for the records of a topic
        all.add(TransformSettings.SQL); // the transform as one query, at the top: sql
        TransformSettings.ALL.forEach(s -> all.add(s.under(TRANSFORM)));
        DedupSettings.ALL.forEach(s -> all.add(s.under(TRANSFORM)));
        SinkSettings.ALL.forEach(s -> all.add(s.under(SINK)));
        AggregationSettings.ALL.forEach(s -> all.add(s.under(AGGREGATE)));
        all.add(AggregationSettings.OUTPUT_MODE);
        all.addAll(SERVICE_LAST);
        return List.copyOf(all);
    }

    /** The key of the pipeline's bad-record mode: its source's {@code onBadRecord}. */
    public static String badRecordKey(java.util.function.Predicate<String> has) {
        return kafkaSource(has) ? KAFKA_BAD_RECORD : BAD_RECORD;
    }

    /** True when the spec's source is Kafka topics: {@code source.kafka.topics} or {@code source.kafka.topicPattern}. */
    public static boolean kafkaSource(java.util.function.Predicate<String> has) {
        return has.test(KAFKA_TOPICS) || has.test(KAFKA_TOPIC_PATTERN);
    }

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

    private static final Map<String, Setting<?>> BY_KEY = new LinkedHashMap<>();

    static {
        for (Setting<?> s : ALL) {
            BY_KEY.put(s.key(), s);
        }
    }

    private Settings() {
    }

    public static Setting<?> get(String key) {
        return BY_KEY.get(key);
    }

    /** The declared setting a key belongs to: itself, or a MAP setting it lies under; null if none. */
    public static Setting<?> find(String key) {
        Setting<?> s = BY_KEY.get(key);
        if (s != null) {
            return s;
        }
        for (Setting<?> p : ALL) {
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
}
