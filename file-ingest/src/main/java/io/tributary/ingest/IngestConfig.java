package io.tributary.ingest;

import io.tributary.schema.DataType;
import io.tributary.schema.Schema;
import io.tributary.schema.Timestamps;
import io.tributary.schema.Topics;
import io.tributary.schema.TributaryException;
import io.tributary.storage.ObjectLocation;
import io.tributary.storage.Storage;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Locale;
import java.util.Objects;

/**
 * What one file-ingest stage reads and where it publishes: immutable, built with
 * {@link #builder(String, Path, Schema)}. Option names mirror Spark's file source where Spark
 * has one ({@code maxFilesPerTrigger}, {@code maxBytesPerTrigger}).
 */
public final class IngestConfig {
    /** The longest line read by default: 16 MiB. */
    public static final int DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;
    /** The column that {@link SchemaEvolution#RESCUE} puts what the schema does not take into (Auto Loader's name). */
    public static final String RESCUED_DATA = "_rescued_data";
    /** Rows per events record by default ({@link io.tributary.schema.RowPack}). */
    public static final int DEFAULT_ROWS_PER_RECORD = 1000;

    private final String pipeline;
    private final Path inputDir;
    private final String inputLocation;
    private final Storage storage;
    private final Schema schema;
    private final Schema specSchema;
    private final SchemaEvolution schemaEvolution;
    private final boolean inferColumnTypes;
    private final boolean schemaInferred;
    private final FileFormat format;
    private final String eventTime;
    private final Duration watermarkDelay;
    private final List<String> groupBy;
    private final int maxFilesPerTrigger;
    private final long maxBytesPerTrigger;
    private final BadRecordPolicy onBadRecord;
    private final int maxLineBytes;
    private final int rowsPerRecord;
    private final Duration fileMinAge;
    private final Duration fileSettleTime;
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

    private IngestConfig(Builder b) {
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
        this.eventTime = b.eventTime;
        this.watermarkDelay = b.watermarkDelay;
        this.groupBy = List.copyOf(b.groupBy);
        this.maxFilesPerTrigger = b.maxFilesPerTrigger;
        this.maxBytesPerTrigger = b.maxBytesPerTrigger;
        this.onBadRecord = b.onBadRecord;
        this.maxLineBytes = b.maxLineBytes;
        this.rowsPerRecord = b.rowsPerRecord;
        this.fileMinAge = b.fileMinAge;
        this.fileSettleTime = b.fileSettleTime;
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
    }

    /** Starts a config for pipeline {@code pipeline} reading JSON-lines files of {@code schema} from {@code inputDir}. */
    public static Builder builder(String pipeline, Path inputDir, Schema schema) {
        return new Builder(pipeline, inputDir, inputDir == null ? null : inputDir.toString(), schema);
    }

    /**
     * As {@link #builder(String, Path, Schema)}, the input folder a local path or a URI of object
     * storage ({@code s3a://bucket/landing/}), read with the {@link Builder#storage storage} settings.
     */
    public static Builder builder(String pipeline, String inputLocation, Schema schema) {
        boolean remote = Storage.isObjectStore(inputLocation);
        return new Builder(pipeline, remote || inputLocation == null ? null : Path.of(inputLocation), inputLocation, schema);
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

    public SchemaEvolution schemaEvolution() {
        return schemaEvolution;
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
        Builder b = toBuilder();
        b.schema = grown;
        return new IngestConfig(b);
    }

    /** A builder holding this config's settings, validated already. */
    private Builder toBuilder() {
        Builder b = new Builder(pipeline, inputDir, inputLocation, schema);
        b.storage = storage;
        b.specSchema = specSchema;
        b.schemaEvolution = schemaEvolution;
        b.inferColumnTypes = inferColumnTypes;
        b.schemaInferred = schemaInferred;
        b.fileFormat = format;
        b.eventTime = eventTime;
        b.watermarkDelay = watermarkDelay;
        b.groupBy = new ArrayList<>(groupBy);
        b.maxFilesPerTrigger = maxFilesPerTrigger;
        b.maxBytesPerTrigger = maxBytesPerTrigger;
        b.onBadRecord = onBadRecord;
        b.maxLineBytes = maxLineBytes;
        b.rowsPerRecord = rowsPerRecord;
        b.fileMinAge = fileMinAge;
        b.fileSettleTime = fileSettleTime;
        b.ignoreCorruptFiles = ignoreCorruptFiles;
        b.timeZone = timeZone;
        b.cleanSource = cleanSource;
        b.closeIdleWindowsAfter = closeIdleWindowsAfter;
        b.idleWatermarkAdvance = idleWatermarkAdvance;
        b.eventsTopic = eventsTopic;
        b.ingestLogTopic = ingestLogTopic;
        b.deadLetterTopic = deadLetterTopic;
        b.transactionalId = transactionalId;
        return b;
    }

    /**
     * The {@link io.tributary.schema.Topics#SCHEMA_HEADER} of the events records: the schema's DDL
     * when it is not the spec's (it grew), so that readers of the topic learn its new columns; else null.
     */
    public byte[] schemaHeader() {
        return schema.equals(specSchema) && !schemaInferred ? null : schema.toDdl().getBytes(java.nio.charset.StandardCharsets.UTF_8);
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
     * update modes need no watermark for that), so a batch without one would never be written.
     */
    public boolean marksBatches() {
        return eventTime != null;
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

    /** Collects the settings; {@link #build()} validates them together. */
    public static final class Builder {
        private final String pipeline;
        private final Path inputDir;
        private final String inputLocation;
        private Storage storage = Storage.NONE;
        private Schema schema;
        private Schema specSchema;
        private SchemaEvolution schemaEvolution = SchemaEvolution.NONE;
        private boolean inferColumnTypes = true;
        private boolean schemaInferred;
        private String format = "json";
        private java.util.Map<String, String> formatOptions = java.util.Map.of();
        private FileFormat fileFormat;
        private String eventTime;
        private Duration watermarkDelay;
        private List<String> groupBy = new ArrayList<>();
        private int maxFilesPerTrigger = Integer.MAX_VALUE;
        private long maxBytesPerTrigger = Long.MAX_VALUE;
        private BadRecordPolicy onBadRecord = BadRecordPolicy.DEAD_LETTER;
        private int maxLineBytes = DEFAULT_MAX_LINE_BYTES;
        private int rowsPerRecord = DEFAULT_ROWS_PER_RECORD;
        private Duration fileMinAge = Duration.ZERO;
        private Duration fileSettleTime = Duration.ZERO;
        private boolean ignoreCorruptFiles;
        private ZoneId timeZone = ZoneOffset.UTC;
        private CleanSource cleanSource = CleanSource.OFF;
        private Duration closeIdleWindowsAfter;
        private Duration idleWatermarkAdvance;
        private String eventsTopic;
        private String ingestLogTopic;
        private String deadLetterTopic;
        private String transactionalId;
        private Optional<Short> replicationFactor = Optional.empty();

        private Builder(String pipeline, Path inputDir, String inputLocation, Schema schema) {
            this.pipeline = pipeline;
            this.inputDir = inputDir;
            this.inputLocation = inputLocation;
            this.schema = schema;
        }

        /** The settings of the input's file system (object storage). */
        public Builder storage(Storage settings) {
            this.storage = settings == null ? Storage.NONE : settings;
            return this;
        }

        /** {@code json}, {@code csv}, {@code parquet} or {@code text} (Spark's format names). */
        public Builder format(String format) {
            this.format = format;
            return this;
        }

        /** Spark's options of the format ({@code header}, {@code sep}, {@code multiLine}...; {@link FileFormat}). */
        public Builder formatOptions(java.util.Map<String, String> options) {
            this.formatOptions = java.util.Map.copyOf(options);
            return this;
        }

        /** What a field the schema lacks does (Auto Loader's schemaEvolutionMode); {@link SchemaEvolution#NONE} by default. */
        public Builder schemaEvolution(SchemaEvolution mode) {
            this.schemaEvolution = mode;
            return this;
        }

        /** The schema was inferred from the files, not given: it is recorded with the first batch and named in the events' header. */
        public Builder schemaInferred(boolean inferred) {
            this.schemaInferred = inferred;
            return this;
        }

        /** New columns typed by their JSON values (true, Spark's inference) or STRING (false, Auto Loader's default). */
        public Builder inferColumnTypes(boolean typed) {
            this.inferColumnTypes = typed;
            return this;
        }

        /** The event-time column (TIMESTAMP or TIMESTAMP_NTZ); null for none. */
        public Builder eventTime(String column) {
            this.eventTime = column;
            return this;
        }

        /** Spark's {@code withWatermark} delay; needs {@link #eventTime}. */
        public Builder watermarkDelay(Duration delay) {
            this.watermarkDelay = delay;
            return this;
        }

        public Builder groupBy(List<String> columns) {
            this.groupBy = new ArrayList<>(columns);
            return this;
        }

        /** At most {@code n} files per batch (Spark's option of the same name); n >= 1. */
        public Builder maxFilesPerTrigger(int n) {
            this.maxFilesPerTrigger = n;
            return this;
        }

        /** At most about {@code bytes} per batch, at least one file (Spark's option of the same name). */
        public Builder maxBytesPerTrigger(long bytes) {
            this.maxBytesPerTrigger = bytes;
            return this;
        }

        public Builder onBadRecord(BadRecordPolicy policy) {
            this.onBadRecord = policy;
            return this;
        }

        public Builder maxLineBytes(int bytes) {
            this.maxLineBytes = bytes;
            return this;
        }

        /** See {@link IngestConfig#rowsPerRecord()}; n >= 1. */
        public Builder rowsPerRecord(int n) {
            if (n < 1) {
                throw new TributaryException("source.files.rowsPerRecord must be at least 1, got " + n);
            }
            this.rowsPerRecord = n;
            return this;
        }

        /** See {@link IngestConfig#closeIdleWindowsAfter()}; {@code advance} is the window length. */
        public Builder closeIdleWindowsAfter(Duration idle, Duration advance) {
            this.closeIdleWindowsAfter = idle;
            this.idleWatermarkAdvance = advance;
            return this;
        }

        public Builder fileMinAge(Duration age) {
            this.fileMinAge = age;
            return this;
        }

        /** See {@link IngestConfig#fileSettleTime()}. */
        public Builder fileSettleTime(Duration time) {
            this.fileSettleTime = time;
            return this;
        }

        /** See {@link IngestConfig#ignoreCorruptFiles()}. */
        public Builder ignoreCorruptFiles(boolean ignore) {
            this.ignoreCorruptFiles = ignore;
            return this;
        }

        /** See {@link IngestConfig#timeZone()}: a region ({@code America/New_York}), an offset ({@code +01:00}) or UTC. */
        public Builder timeZone(String zone) {
            this.timeZone = Timestamps.sessionZone(zone, "source.files.timeZone");
            return this;
        }

        /** Spark's {@code cleanSource} (with {@code sourceArchiveDir} for {@link CleanSource#archiveTo}). */
        public Builder cleanSource(CleanSource clean) {
            this.cleanSource = clean;
            return this;
        }

        public Builder eventsTopic(String topic) {
            this.eventsTopic = topic;
            return this;
        }

        public Builder ingestLogTopic(String topic) {
            this.ingestLogTopic = topic;
            return this;
        }

        public Builder deadLetterTopic(String topic) {
            this.deadLetterTopic = topic;
            return this;
        }

        /** The replicas of the topics the ingest creates (the pipeline's {@code topic.replicationFactor}); default: the broker's. */
        public Builder replicationFactor(short replicas) {
            this.replicationFactor = Optional.of(replicas);
            return this;
        }

        public Builder transactionalId(String id) {
            this.transactionalId = id;
            return this;
        }

        /** Validates every setting; an error names the setting and the fix. */
        public IngestConfig build() {
            if (pipeline == null || pipeline.isBlank() || !pipeline.matches("[A-Za-z0-9._-]+")) {
                throw new TributaryException("name: '" + pipeline + "' is not a valid pipeline name;"
                        + " use letters, digits, '.', '_' and '-' (it becomes part of the topic names)");
            }
            Objects.requireNonNull(inputLocation, "inputLocation");
            Objects.requireNonNull(schema, "schema");
            fileFormat = FileFormat.of(format, formatOptions);
            Objects.requireNonNull(schemaEvolution, "schemaEvolution");
            if (schemaEvolution != SchemaEvolution.NONE && fileFormat.kind() != FileFormat.Kind.JSON) {
                throw new TributaryException("source.files.schemaEvolution: " + schemaEvolution.specName() + " reads new fields of JSON files;"
                        + " the " + fileFormat.name() + " format reads with the schema as given: set schemaEvolution to none");
            }
            if (schemaEvolution == SchemaEvolution.RESCUE && schema.indexOf(RESCUED_DATA) < 0) {
                java.util.List<io.tributary.schema.Field> fields = new ArrayList<>(schema.fields());
                fields.add(new io.tributary.schema.Field(RESCUED_DATA, DataType.STRING, true));
                schema = new Schema(fields);
            }
            if (specSchema == null) {
                specSchema = schema;
            }
            fileFormat.checkSchema(schema);
            fileFormat.times(timeZone); // a bad timestampFormat or dateFormat fails here
            if (eventTime != null) {
                int i = schema.require(eventTime, "eventTime");
                DataType.Kind k = schema.field(i).type().kind();
                if (k != DataType.Kind.TIMESTAMP && k != DataType.Kind.TIMESTAMP_NTZ) {
                    throw new TributaryException("eventTime: column '" + eventTime + "' is " + schema.field(i).type().ddl()
                            + "; event time needs a TIMESTAMP column (as Spark's withWatermark)");
                }
            }
            if (watermarkDelay != null) {
                if (eventTime == null) {
                    throw new TributaryException("watermark: a watermark delay needs an eventTime column; set eventTime");
                }
                if (watermarkDelay.isNegative()) {
                    throw new TributaryException("watermark: the delay " + watermarkDelay + " is negative; use 0 or more");
                }
            }
            for (String g : groupBy) {
                schema.require(g, "groupBy");
            }
            if (maxFilesPerTrigger < 1) {
                throw new TributaryException("maxFilesPerTrigger: " + maxFilesPerTrigger + " is not a positive number of files");
            }
            if (maxBytesPerTrigger < 1) {
                throw new TributaryException("maxBytesPerTrigger: " + maxBytesPerTrigger + " is not a positive number of bytes");
            }
            Objects.requireNonNull(onBadRecord, "onBadRecord");
            if (maxLineBytes < 16) {
                throw new TributaryException("maxLineBytes: " + maxLineBytes + " is too small; use at least 16 (default 16 MiB)");
            }
            if (closeIdleWindowsAfter != null && (closeIdleWindowsAfter.isNegative() || idleWatermarkAdvance == null
                    || idleWatermarkAdvance.isZero() || idleWatermarkAdvance.isNegative() || watermarkDelay == null)) {
                throw new TributaryException("aggregate.closeIdleWindowsAfter: needs a watermark, a window length and a duration of 0 or more (got "
                        + closeIdleWindowsAfter + ")");
            }
            if (fileMinAge == null || fileMinAge.isNegative()) {
                throw new TributaryException("fileMinAge: " + fileMinAge + " must be 0 or more");
            }
            if (fileSettleTime == null || fileSettleTime.isNegative()) {
                throw new TributaryException("fileSettleTime: " + fileSettleTime + " must be 0 or more");
            }
            Objects.requireNonNull(cleanSource, "cleanSource");
            if (cleanSource instanceof CleanSource.Archive a) {
                if ((a.dir() == null) != (inputDir == null)) {
                    throw new TributaryException("source.files.sourceArchiveDir: " + a.location() + " is not on the file system of the input"
                            + " folder " + inputLocation + "; archive to a folder on the same one (an object is copied and deleted"
                            + " on the server, a local file moved)");
                }
                if (a.dir() != null) {
                    a.requireOutside(inputDir);
                } else {
                    requireOutside(ObjectLocation.parse(a.location()), ObjectLocation.parse(inputLocation));
                }
            }
            return new IngestConfig(this);
        }

        private static void requireOutside(ObjectLocation archive, ObjectLocation input) {
            if (archive.bucket().equals(input.bucket()) && archive.prefix().startsWith(input.prefix())) {
                throw new TributaryException("source.files.sourceArchiveDir: " + archive + " is inside the input folder " + input
                        + ", where archived files would sit among new ones (Spark refuses this too); choose a folder outside " + input);
            }
        }
    }
}
