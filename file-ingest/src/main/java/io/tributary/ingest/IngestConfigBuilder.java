package io.tributary.ingest;

import io.tributary.expressions.SqlQuery;
import io.tributary.expressions.Transform;
import io.tributary.ingest.internal.IngestErrors;
import io.tributary.ingest.internal.SingleVariantErrors;
import io.tributary.schema.DebeziumEvents;
import io.tributary.schema.Schema;
import io.tributary.schema.Timestamps;
import io.tributary.settings.Setting;
import io.tributary.settings.Values;
import io.tributary.storage.Storage;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Objects;

/** Collects the settings of an {@link IngestConfig}; {@link #build()} validates them together. */
public final class IngestConfigBuilder {
    final String pipeline;
    final Path inputDir;
    final String inputLocation;
    Storage storage = Storage.NONE;
    Schema schema;
    Schema specSchema;
    SchemaEvolution schemaEvolution = SchemaEvolution.NONE;
    boolean inferColumnTypes = true;
    boolean schemaInferred;
    String format = "json";
    java.util.Map<String, String> formatOptions = java.util.Map.of();
    FileFormat fileFormat;
    List<String> debeziumSequence = List.of(io.tributary.schema.DebeziumEvents.DEFAULT_SEQUENCE);
    private boolean debeziumSequenceGiven;
    String eventTime;
    Duration watermarkDelay;
    List<String> groupBy = new ArrayList<>();
    boolean marksBatches;
    int maxFilesPerTrigger = Integer.MAX_VALUE;
    long maxBytesPerTrigger = Long.MAX_VALUE;
    BadRecordPolicy onBadRecord = BadRecordPolicy.DEAD_LETTER;
    int maxLineBytes = IngestConfig.DEFAULT_MAX_LINE_BYTES;
    int rowsPerRecord = IngestConfig.DEFAULT_ROWS_PER_RECORD;
    boolean binaryRows;
    Duration fileMinAge = Duration.ZERO;
    Duration fileSettleTime = Duration.ZERO;
    Duration maxFileAge = Duration.ofDays(7);
    boolean ignoreCorruptFiles;
    ZoneId timeZone = ZoneOffset.UTC;
    CleanSource cleanSource = CleanSource.OFF;
    Duration closeIdleWindowsAfter;
    Duration idleWatermarkAdvance;
    String eventsTopic;
    String ingestLogTopic;
    String deadLetterTopic;
    String transactionalId;
    Optional<Short> replicationFactor = Optional.empty();
    TransformSpec transformSpec = new TransformSpec();
    Transform transform;
    private Values names;

    IngestConfigBuilder(String pipeline, Path inputDir, String inputLocation, Schema schema) {
        this.pipeline = pipeline;
        this.inputDir = inputDir;
        this.inputLocation = inputLocation;
        this.schema = schema;
    }

    /**
     * Takes the {@link IngestSettings} given in {@code values} (a spec's {@code source.files.}, a
     * connector's config), parsed by their definitions; later errors name the keys as written there.
     * The folder and the schema are the builder's own arguments.
     */
    public IngestConfigBuilder settings(Values values) {
        this.names = values;
        values.ifGiven(IngestSettings.FORMAT, this::format);
        if (values.has(IngestSettings.OPTIONS)) {
            formatOptions(values.map(IngestSettings.OPTIONS));
        }
        if (values.has(IngestSettings.DEBEZIUM_SEQUENCE)) {
            debeziumSequence(values.get(IngestSettings.DEBEZIUM_SEQUENCE));
        }
        values.ifGiven(IngestSettings.SCHEMA_EVOLUTION, this::schemaEvolution);
        values.ifGiven(IngestSettings.INFER_COLUMN_TYPES, this::inferColumnTypes);
        values.ifGiven(IngestSettings.MAX_FILES, this::maxFilesPerTrigger);
        values.ifGiven(IngestSettings.MAX_BYTES, this::maxBytesPerTrigger);
        values.ifGiven(IngestSettings.ON_BAD_RECORD, this::onBadRecord);
        values.ifGiven(IngestSettings.FILE_MIN_AGE, this::fileMinAge);
        values.ifGiven(IngestSettings.FILE_SETTLE_TIME, this::fileSettleTime);
        values.ifGiven(IngestSettings.MAX_FILE_AGE, this::maxFileAge);
        values.ifGiven(IngestSettings.IGNORE_CORRUPT_FILES, this::ignoreCorruptFiles);
        values.ifGiven(IngestSettings.TIME_ZONE, z -> this.timeZone = z);
        values.ifGiven(IngestSettings.MAX_LINE, n -> maxLineBytes(Math.toIntExact(n)));
        values.ifGiven(IngestSettings.ROWS_PER_RECORD, this::rowsPerRecord);
        String clean = values.get(IngestSettings.CLEAN_SOURCE);
        if (clean != null) {
            String archive = values.get(IngestSettings.ARCHIVE_DIR);
            if ("archive".equals(clean) && archive == null) {
                throw IngestErrors.archiveNeedsDir(name(IngestSettings.CLEAN_SOURCE), name(IngestSettings.ARCHIVE_DIR));
            }
            cleanSource(CleanSource.forLocation(clean, archive));
        }
        return this;
    }

    /**
     * Spark's {@code where(...)} then {@code selectExpr(...)} on every row as it is read, before it is
     * published: the events topic, and all after it, see the rows and columns the select makes.
     *
     * @param where a boolean Spark SQL expression, or null
     * @param select select items ({@code *}, {@code expr AS name}), or null for the columns as they are
     */
    public IngestConfigBuilder transform(String where, List<String> select) {
        transformSpec.where = where;
        transformSpec.select = select == null ? null : List.copyOf(select);
        return this;
    }

    /**
     * Columns the aggregation groups by or aggregates that an expression computes ({@code "date_trunc('hour', ts) AS hour"}):
     * added after the select's columns ({@code *} when there is no select), so that the rows published carry them.
     *
     * @param key the setting they come from, for a refusal
     */
    public IngestConfigBuilder alsoSelect(List<String> items, String key) {
        items.forEach(i -> transformSpec.computed.put(i, key));
        return this;
    }

    /**
     * Spark's stream-static joins with Delta tables, before where and select ({@code transform.join}); the
     * tables are opened with {@code opener}.
     */
    public IngestConfigBuilder joins(List<JoinSpec> joins, long maxRows) {
        transformSpec.joins = List.copyOf(joins);
        transformSpec.joinMaxRows = maxRows;
        return this;
    }

    /**
     * The CHECK constraints and invariants of the Delta table the published rows are written to as they are
     * (name to Spark SQL expression): a row, after the transform, that breaks one is a bad record of its
     * file and line ({@code onBadRecord}); one that cannot be checked on the rows is refused at build.
     */
    public IngestConfigBuilder tableConstraints(String table, java.util.Map<String, String> constraints) {
        transformSpec.constraintTable = table;
        transformSpec.constraints = new java.util.TreeMap<>(constraints);
        return this;
    }

    /** How the tables of {@code transform.join} are read (the ingest does not read Delta itself). */
    public IngestConfigBuilder staticTables(StaticTable.Opener opener) {
        transformSpec.opener = opener;
        return this;
    }

    /**
     * Takes the {@link TransformSettings} given in {@code values} (a spec's {@code transform.}, and its {@code sql:} when
     * {@code values} places {@link TransformSettings#SQL}); errors name the keys as written there.
     */
    public IngestConfigBuilder transform(Values values) {
        transformSpec.values = values;
        Integer maxRows = values.get(TransformSettings.JOIN_MAX_ROWS);
        transformSpec.joinMaxRows = maxRows != null ? maxRows : TransformSettings.DEFAULT_JOIN_MAX_ROWS; // null: no joins where written
        SqlQuery query = values.get(TransformSettings.SQL);
        if (query != null) {
            transformSpec.sql(query, values.name(TransformSettings.SQL));
            return this;
        }
        transformSpec.whereKey = values.name(TransformSettings.WHERE);
        transformSpec.selectKey = values.name(TransformSettings.SELECT);
        transformSpec.block(values);
        return transform(values.get(TransformSettings.WHERE), values.get(TransformSettings.SELECT));
    }

    private static <T> void set(Values values, Setting<T> setting, java.util.function.Consumer<T> to) {
        T v = values.get(setting);
        if (v != null) {
            to.accept(v);
        }
    }

    /** The key of {@code setting} as the user wrote it, in errors. */
    String name(Setting<?> setting) {
        return names == null ? setting.key() : names.name(setting);
    }

    /** The settings of the input's file system (object storage). */
    public IngestConfigBuilder storage(Storage settings) {
        this.storage = settings == null ? Storage.NONE : settings;
        return this;
    }

    /** {@code json}, {@code csv}, {@code parquet} or {@code text} (Spark's format names). */
    public IngestConfigBuilder format(String format) {
        this.format = format;
        return this;
    }

    /** Spark's options of the format ({@code header}, {@code sep}, {@code multiLine}...; {@link FileFormat}). */
    public IngestConfigBuilder formatOptions(java.util.Map<String, String> options) {
        this.formatOptions = java.util.Map.copyOf(options);
        return this;
    }

    /**
     * Format {@code debezium-json}: the fields of the events' {@code source} block whose values,
     * in this order, make the {@code lsn} column (default {@code [lsn]}, PostgreSQL's).
     */
    public IngestConfigBuilder debeziumSequence(List<String> sourceFields) {
        this.debeziumSequence = List.copyOf(sourceFields);
        this.debeziumSequenceGiven = true;
        return this;
    }

    /** What a field the schema lacks does (Auto Loader's schemaEvolutionMode); {@link SchemaEvolution#NONE} by default. */
    public IngestConfigBuilder schemaEvolution(SchemaEvolution mode) {
        this.schemaEvolution = mode;
        return this;
    }

    /** The schema was inferred from the files, not given: it is recorded with the first batch and named in the events' header. */
    public IngestConfigBuilder schemaInferred(boolean inferred) {
        this.schemaInferred = inferred;
        return this;
    }

    /** New columns typed by their JSON values (true, Spark's inference) or STRING (false, Auto Loader's default). */
    public IngestConfigBuilder inferColumnTypes(boolean typed) {
        this.inferColumnTypes = typed;
        return this;
    }

    /** The event-time column (TIMESTAMP or TIMESTAMP_NTZ); null for none. */
    public IngestConfigBuilder eventTime(String column) {
        this.eventTime = column;
        return this;
    }

    /** Spark's {@code withWatermark} delay; needs {@link #eventTime}. */
    public IngestConfigBuilder watermarkDelay(Duration delay) {
        this.watermarkDelay = delay;
        return this;
    }

    /** Every batch ends with a marker even without an event time (a deduplication reads the events); see {@link IngestConfig#marksBatches()}. */
    public IngestConfigBuilder marksBatches(boolean marks) {
        this.marksBatches = marks;
        return this;
    }

    public IngestConfigBuilder groupBy(List<String> columns) {
        this.groupBy = new ArrayList<>(columns);
        return this;
    }

    /** At most {@code n} files per batch (Spark's option of the same name); n >= 1. */
    public IngestConfigBuilder maxFilesPerTrigger(int n) {
        this.maxFilesPerTrigger = n;
        return this;
    }

    /** At most about {@code bytes} per batch, at least one file (Spark's option of the same name). */
    public IngestConfigBuilder maxBytesPerTrigger(long bytes) {
        this.maxBytesPerTrigger = bytes;
        return this;
    }

    public IngestConfigBuilder onBadRecord(BadRecordPolicy policy) {
        this.onBadRecord = policy;
        return this;
    }

    public IngestConfigBuilder maxLineBytes(int bytes) {
        this.maxLineBytes = bytes;
        return this;
    }

    /** See {@link IngestConfig#rowsPerRecord()}; n >= 1. */
    public IngestConfigBuilder rowsPerRecord(int n) {
        if (n < 1) {
            throw IngestErrors.rowsPerRecordBelowOne(name(IngestSettings.ROWS_PER_RECORD), n);
        }
        this.rowsPerRecord = n;
        return this;
    }

    /**
     * Rows in binary ({@link io.tributary.schema.RowBinary}) for an events topic only the Delta sink or the windowed
     * aggregation reads; they stay JSON Lines when a column is nested.
     */
    public IngestConfigBuilder binaryRows(boolean binary) {
        this.binaryRows = binary;
        return this;
    }

    /** See {@link IngestConfig#closeIdleWindowsAfter()}; {@code advance} is the window length. */
    public IngestConfigBuilder closeIdleWindowsAfter(Duration idle, Duration advance) {
        this.closeIdleWindowsAfter = idle;
        this.idleWatermarkAdvance = advance;
        return this;
    }

    public IngestConfigBuilder fileMinAge(Duration age) {
        this.fileMinAge = age;
        return this;
    }

    /** See {@link IngestConfig#fileSettleTime()}. */
    public IngestConfigBuilder fileSettleTime(Duration time) {
        this.fileSettleTime = time;
        return this;
    }

    /** See {@link IngestConfig#maxFileAge()}. */
    public IngestConfigBuilder maxFileAge(Duration age) {
        this.maxFileAge = age;
        return this;
    }

    /** See {@link IngestConfig#ignoreCorruptFiles()}. */
    public IngestConfigBuilder ignoreCorruptFiles(boolean ignore) {
        this.ignoreCorruptFiles = ignore;
        return this;
    }

    /** See {@link IngestConfig#timeZone()}: a region ({@code America/New_York}), an offset ({@code +01:00}) or UTC. */
    public IngestConfigBuilder timeZone(String zone) {
        this.timeZone = Timestamps.sessionZone(zone, name(IngestSettings.TIME_ZONE));
        return this;
    }

    /** Spark's {@code cleanSource} (with {@code sourceArchiveDir} for {@link CleanSource#archiveTo}). */
    public IngestConfigBuilder cleanSource(CleanSource clean) {
        this.cleanSource = clean;
        return this;
    }

    public IngestConfigBuilder eventsTopic(String topic) {
        this.eventsTopic = topic;
        return this;
    }

    public IngestConfigBuilder ingestLogTopic(String topic) {
        this.ingestLogTopic = topic;
        return this;
    }

    public IngestConfigBuilder deadLetterTopic(String topic) {
        this.deadLetterTopic = topic;
        return this;
    }

    /** The replicas of the topics the ingest creates (the pipeline's {@code topic.replicationFactor}); default: the broker's. */
    public IngestConfigBuilder replicationFactor(short replicas) {
        this.replicationFactor = Optional.of(replicas);
        return this;
    }

    public IngestConfigBuilder transactionalId(String id) {
        this.transactionalId = id;
        return this;
    }

    /** Validates every setting; an error names the setting and the fix. */
    public IngestConfig build() {
        if (pipeline == null || pipeline.isBlank() || !pipeline.matches("[A-Za-z0-9._-]+")) {
            throw IngestErrors.badPipelineName(pipeline);
        }
        Objects.requireNonNull(inputLocation, "inputLocation");
        Objects.requireNonNull(schema, "schema");
        fileFormat = FileFormat.of(format, formatOptions);
        Objects.requireNonNull(schemaEvolution, "schemaEvolution");
        if (schemaEvolution != SchemaEvolution.NONE && fileFormat.kind() != FileFormat.Kind.JSON) {
            throw IngestErrors.schemaEvolutionNotJson(name(IngestSettings.SCHEMA_EVOLUTION), schemaEvolution.specName(),
                    fileFormat.name());
        } else if (schemaEvolution != SchemaEvolution.NONE && fileFormat.singleVariantColumn() != null) {
            throw SingleVariantErrors.schemaEvolutionSingleVariant(name(IngestSettings.SCHEMA_EVOLUTION), schemaEvolution.specName());
        }
        if (schemaEvolution == SchemaEvolution.RESCUE) {
            schema = io.tributary.schema.RescuedData.withColumn(schema);
        }
        if (fileFormat.kind() == FileFormat.Kind.DEBEZIUM_JSON) {
            schema = DebeziumEvents.rowSchema(schema, debeziumSequence, name(IngestSettings.SCHEMA), name(IngestSettings.DEBEZIUM_SEQUENCE));
        } else if (debeziumSequenceGiven) {
            throw IngestErrors.debeziumSequenceNotDebezium(name(IngestSettings.DEBEZIUM_SEQUENCE), fileFormat.name());
        }
        if (specSchema == null) {
            specSchema = schema;
        }
        fileFormat.checkSchema(schema);
        fileFormat.times(timeZone); // a bad timestampFormat or dateFormat fails here
        transform = transformSpec.compile(schema);
        IngestConfigChecks.check(this, transform.output()); // the event time and the keys are columns of the rows published
        return new IngestConfig(this);
    }
}
