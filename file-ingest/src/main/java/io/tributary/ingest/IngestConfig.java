package io.tributary.ingest;

import io.tributary.expressions.CheckConstraints;
import io.tributary.expressions.Transform;
import io.tributary.schema.Schema;
import io.tributary.schema.Topics;
import io.tributary.storage.Storage;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Objects;

/**
 * What one file-ingest stage reads and where it publishes: immutable, built with
 * {@link #builder(String, Path, Schema)}. Option names mirror Spark's file source where Spark
 * has one ({@code maxFilesPerTrigger}, {@code maxBytesPerTrigger}).
 */
public final class IngestConfig {
    /** The longest line read by default: 16 MiB. */
    public static final int DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;
    /** Rows per events record by default ({@link io.tributary.schema.RowPack}). */
    public static final int DEFAULT_ROWS_PER_RECORD = 1000;

    private final String pipeline;
    private final Path inputDir;
    private final String inputLocation;
    private final Storage storage;
    private final Schema schema;
    private final Schema specSchema;
    private final SchemaEvolution schemaEvolution;
    private final List<String> debeziumSequence;
    private final boolean inferColumnTypes;
    private final boolean schemaInferred;
    private final FileFormat format;
    private final String eventTime;
    private final Duration watermarkDelay;
    private final List<String> groupBy;
    private final boolean marksBatches;
    private final int maxFilesPerTrigger;
    private final long maxBytesPerTrigger;
    private final BadRecordPolicy onBadRecord;
    private final int maxLineBytes;
    private final int rowsPerRecord;
    private final boolean binaryRows;
    private final Duration fileMinAge;
    private final Duration fileSettleTime;
    private final Duration maxFileAge;
    private final boolean ignoreCorruptFiles;
    private final ZoneId timeZone;
    private final CleanSource cleanSource;
    private final Duration closeIdleWindowsAfter;
    private final Duration idleWatermarkAdvance;
    private final String eventsTopic;
    private final String ingestLogTopic;
    private final String deadLetterTopic;
    private final String transactionalId;
    private final Optional<Short> replicationFactor;
    private final TransformSpec transformSpec;
    private final Transform transform;
    private final Joins joins;
    private final CheckConstraints constraints;

    IngestConfig(IngestConfigBuilder b) {
        this.pipeline = b.pipeline;
        this.inputDir = b.inputDir;
        this.inputLocation = b.inputLocation;
        this.storage = b.storage;
        this.schema = b.schema;
        this.specSchema = b.specSchema;
        this.schemaEvolution = b.schemaEvolution;
        this.inferColumnTypes = b.inferColumnTypes;
        this.schemaInferred = b.schemaInferred;
        this.format = b.fileFormat;
        this.debeziumSequence = List.copyOf(b.debeziumSequence);
        this.eventTime = b.eventTime;
        this.watermarkDelay = b.watermarkDelay;
        this.groupBy = List.copyOf(b.groupBy);
        this.marksBatches = b.marksBatches;
        this.maxFilesPerTrigger = b.maxFilesPerTrigger;
        this.maxBytesPerTrigger = b.maxBytesPerTrigger;
        this.onBadRecord = b.onBadRecord;
        this.maxLineBytes = b.maxLineBytes;
        this.rowsPerRecord = b.rowsPerRecord;
        this.binaryRows = b.binaryRows;
        this.fileMinAge = b.fileMinAge;
        this.fileSettleTime = b.fileSettleTime;
        this.maxFileAge = b.maxFileAge;
        this.ignoreCorruptFiles = b.ignoreCorruptFiles;
        this.timeZone = b.timeZone;
        this.cleanSource = b.cleanSource;
        this.closeIdleWindowsAfter = b.closeIdleWindowsAfter;
        this.idleWatermarkAdvance = b.idleWatermarkAdvance;
        this.eventsTopic = b.eventsTopic != null ? b.eventsTopic : Topics.events(pipeline);
        this.ingestLogTopic = b.ingestLogTopic != null ? b.ingestLogTopic : Topics.ingestLog(pipeline);
        this.deadLetterTopic = b.deadLetterTopic != null ? b.deadLetterTopic : Topics.deadLetter(pipeline);
        this.transactionalId = b.transactionalId != null ? b.transactionalId : "tributary-" + pipeline + "-ingest";
        this.replicationFactor = b.replicationFactor;
        this.transformSpec = b.transformSpec.copy();
        this.transform = b.transform != null ? b.transform : transformSpec.compile(b.schema);
        this.joins = transformSpec.joins(b.schema);
        this.constraints = transformSpec.constraints(transform.output());
    }

    /** Starts a config for pipeline {@code pipeline} reading JSON-lines files of {@code schema} from {@code inputDir}. */
    public static IngestConfigBuilder builder(String pipeline, Path inputDir, Schema schema) {
        return new IngestConfigBuilder(pipeline, inputDir, inputDir == null ? null : inputDir.toString(), schema);
    }

    /**
     * As {@link #builder(String, Path, Schema)}, the input folder a local path or a URI of object
     * storage ({@code s3a://bucket/landing/}), read with the {@link IngestConfigBuilder#storage storage} settings.
     */
    public static IngestConfigBuilder builder(String pipeline, String inputLocation, Schema schema) {
        boolean remote = Storage.isObjectStore(inputLocation);
        return new IngestConfigBuilder(pipeline, remote || inputLocation == null ? null : Path.of(inputLocation), inputLocation, schema);
    }

    public String pipeline() {
        return pipeline;
    }

    /** The local input folder; null for one in object storage ({@link #inputLocation()}). */
    public Path inputDir() {
        return inputDir;
    }

    /** The input folder as given: a local path, or a URI of object storage. */
    public String inputLocation() {
        return inputLocation;
    }

    /** The settings of the input's file system (object storage): the spec's {@code storage:} map. */
    public Storage storage() {
        return storage;
    }

    /** The schema the files are read with: the spec's, with {@code _rescued_data} for rescue, or as it grew. */
    public Schema schema() {
        return schema;
    }

    /** The schema as the spec gives it (and {@code _rescued_data} for rescue), before it grew. */
    public Schema specSchema() {
        return specSchema;
    }

    /** Spark's where then selectExpr, applied to each row as it is read (the identity without {@code transform.where/select}). */
    public Transform transform() {
        return transform;
    }

    /**
     * The {@code sql:} query's {@code LIMIT}: the most rows the ingest publishes over all its batches (Spark's streaming limit),
     * or -1 without one.
     */
    public long limit() {
        return transformSpec.limit == null ? -1 : transformSpec.limit.rows();
    }

    /** Spark's stream-static joins ({@code transform.join}), applied to each row before {@link #transform()}; empty without. */
    public Joins joins() {
        return joins;
    }

    /** The sink table's CHECK constraints, checked on each row published ({@link IngestConfigBuilder#tableConstraints}); none without. */
    public CheckConstraints constraints() {
        return constraints;
    }

    /** The schema of the rows published to the events topic: {@link #schema()} after the transform. */
    public Schema outputSchema() {
        return transform.output();
    }

    public SchemaEvolution schemaEvolution() {
        return schemaEvolution;
    }

    /** Format debezium-json: the {@code source} fields whose values make the {@code lsn} column, in order. */
    public List<String> debeziumSequence() {
        return debeziumSequence;
    }

    /** True (the default): new columns get the types of their JSON values, as Spark infers them; false: STRING. */
    public boolean inferColumnTypes() {
        return inferColumnTypes;
    }

    /**
     * The same ingest reading with {@code grown}: the schema after new columns were added
     * ({@link SchemaEvolution#ADD_NEW_COLUMNS}), whose events then name it ({@link #schemaHeader()}).
     */
    public IngestConfig withSchema(Schema grown) {
        IngestConfigBuilder b = toBuilder();
        b.schema = grown;
        b.transform = null; // compiled again over the grown schema
        return new IngestConfig(b);
    }

    /** A builder holding this config's settings, validated already. */
    private IngestConfigBuilder toBuilder() {
        IngestConfigBuilder b = new IngestConfigBuilder(pipeline, inputDir, inputLocation, schema);
        b.storage = storage;
        b.specSchema = specSchema;
        b.schemaEvolution = schemaEvolution;
        b.inferColumnTypes = inferColumnTypes;
        b.schemaInferred = schemaInferred;
        b.fileFormat = format;
        b.debeziumSequence = debeziumSequence;
        b.eventTime = eventTime;
        b.watermarkDelay = watermarkDelay;
        b.groupBy = new ArrayList<>(groupBy);
        b.marksBatches = marksBatches;
        b.maxFilesPerTrigger = maxFilesPerTrigger;
        b.maxBytesPerTrigger = maxBytesPerTrigger;
        b.onBadRecord = onBadRecord;
        b.maxLineBytes = maxLineBytes;
        b.rowsPerRecord = rowsPerRecord;
        b.binaryRows = binaryRows;
        b.fileMinAge = fileMinAge;
        b.fileSettleTime = fileSettleTime;
        b.maxFileAge = maxFileAge;
        b.ignoreCorruptFiles = ignoreCorruptFiles;
        b.timeZone = timeZone;
        b.cleanSource = cleanSource;
        b.closeIdleWindowsAfter = closeIdleWindowsAfter;
        b.idleWatermarkAdvance = idleWatermarkAdvance;
        b.eventsTopic = eventsTopic;
        b.ingestLogTopic = ingestLogTopic;
        b.deadLetterTopic = deadLetterTopic;
        b.transactionalId = transactionalId;
        b.transformSpec = transformSpec.copy();
        b.transform = transform;
        return b;
    }

    /**
     * The {@link io.tributary.schema.Topics#SCHEMA_HEADER} of the events records: the DDL of the rows
     * published ({@link #outputSchema()}) when the schema is not the spec's (it grew, or was inferred),
     * so that readers of the topic learn its new columns; else null.
     */
    public byte[] schemaHeader() {
        return schema.equals(specSchema) && !schemaInferred ? null : outputSchema().toDdl().getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    /** True when the schema was inferred from the input files (the spec gives none). */
    public boolean schemaInferred() {
        return schemaInferred;
    }

    /** The format of the input files and its options ({@code json} unless set). */
    public FileFormat format() {
        return format;
    }

    /** The event-time column, or null. */
    public String eventTime() {
        return eventTime;
    }

    /** Spark's {@code withWatermark} delay, or null when no watermark is kept. */
    public Duration watermarkDelay() {
        return watermarkDelay;
    }

    /** True when event time and a delay are set: the markers then carry Spark's watermark. */
    public boolean hasWatermark() {
        return eventTime != null && watermarkDelay != null;
    }

    /**
     * True when an event-time column is set, that is when an aggregation reads the events: every
     * batch then ends with a marker on every events partition, with the watermark when a delay is
     * set and none without one. The aggregation writes a batch's output at its marker (complete and
     * update modes need no watermark for that), so a batch without one would never be written. Also
     * when asked for without an event time ({@link IngestConfigBuilder#marksBatches}: a deduplication
     * without a watermark commits at each marker).
     */
    public boolean marksBatches() {
        return eventTime != null || marksBatches;
    }

    /** The columns whose values, as a JSON array, key every events record; empty for a null key. */
    public List<String> groupBy() {
        return groupBy;
    }

    /** At most this many new files per batch; {@link Integer#MAX_VALUE} for no limit. */
    public int maxFilesPerTrigger() {
        return maxFilesPerTrigger;
    }

    /** At most about this many bytes per batch, but always at least one file; {@link Long#MAX_VALUE} for no limit. */
    public long maxBytesPerTrigger() {
        return maxBytesPerTrigger;
    }

    public BadRecordPolicy onBadRecord() {
        return onBadRecord;
    }

    /** A longer line is a bad record, and is never held in memory whole. */
    public int maxLineBytes() {
        return maxLineBytes;
    }

    /**
     * The most rows packed into one events record ({@link io.tributary.schema.RowPack}), rows of
     * one partition and one file; a record also ends past 128 KiB. 1 gives a record per row.
     */
    public int rowsPerRecord() {
        return rowsPerRecord;
    }

    /** True when the events records hold their rows in binary ({@link io.tributary.schema.RowBinary}), not JSON Lines. */
    public boolean binaryRows() {
        return binaryRows;
    }

    /**
     * Tributary's option beyond Spark: after this much wall-clock time with no new file, a
     * no-data batch moves the watermark to the largest event time plus
     * {@link #idleWatermarkAdvance()}, so the windows of a quiet stream close. Null: never (Spark).
     */
    public Duration closeIdleWindowsAfter() {
        return closeIdleWindowsAfter;
    }

    /** How far past the largest event time an idle batch moves the watermark: the window length. */
    public Duration idleWatermarkAdvance() {
        return idleWatermarkAdvance;
    }

    /** Files modified more recently than this are left for a later batch (0: take everything). */
    public Duration fileMinAge() {
        return fileMinAge;
    }

    /**
     * Without {@link #fileMinAge()}, on a file system where files grow in place (a local folder,
     * NFS): a new file is taken once its size and modification time held still across two looks
     * at least this far apart (0: at first sight, as Spark). Objects in object storage appear whole
     * and are taken at first sight. 0 unless set; the service sets 1 second.
     */
    public Duration fileSettleTime() {
        return fileSettleTime;
    }

    /** Spark's {@code maxFileAge} (7 days): the span of modification times, back from the newest file, of the files remembered. */
    public Duration maxFileAge() {
        return maxFileAge;
    }

    /**
     * Spark's {@code ignoreCorruptFiles}: a file whose data cannot be decoded (a compressed file cut
     * short or damaged, a damaged Parquet file) gives the rows read before the break, and the rest
     * of it is skipped, counted and named; false (the default): the batch stops, naming the file.
     */
    public boolean ignoreCorruptFiles() {
        return ignoreCorruptFiles;
    }

    /** The zone of a timestamp written without an offset (Spark's {@code spark.sql.session.timeZone}); UTC by default. */
    public ZoneId timeZone() {
        return timeZone;
    }

    /** What becomes of a file once its batch committed (Spark's cleanSource); {@link CleanSource#OFF} by default. */
    public CleanSource cleanSource() {
        return cleanSource;
    }

    public String eventsTopic() {
        return eventsTopic;
    }

    public String ingestLogTopic() {
        return ingestLogTopic;
    }

    public String deadLetterTopic() {
        return deadLetterTopic;
    }

    /** The producer's {@code transactional.id}: one ingest of a pipeline at a time, the older fenced. */
    public String transactionalId() {
        return transactionalId;
    }

    /** The replicas of the topics {@link FileIngest#createTopics} creates; empty: the broker's default. */
    public Optional<Short> replicationFactor() {
        return replicationFactor;
    }
}
