package io.tributary.source;

import io.tributary.expressions.RowTransform;
import io.tributary.schema.Topics;
import io.tributary.source.internal.SourceErrors;
import io.tributary.storage.Storage;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * What one delta-source stage reads and where it publishes: immutable, built with
 * {@link #builder(String, String)}. Option names mirror Spark's Delta streaming source
 * ({@code startingVersion}, {@code skipChangeCommits}, {@code ignoreDeletes}, {@code readChangeFeed},
 * {@code maxFilesPerTrigger}, {@code maxBytesPerTrigger}).
 */
public final class DeltaSourceConfig {
    /** Spark's Delta source default for {@code maxFilesPerTrigger}. */
    public static final int DEFAULT_MAX_FILES_PER_TRIGGER = 1000;
    /** Rows per events record by default, as the file source packs them ({@link io.tributary.schema.RowPack}). */
    public static final int DEFAULT_ROWS_PER_RECORD = 1000;

    private final String tablePath;
    private final String pipeline;
    private final String topic;
    private final String progressTopic;
    private final StartingVersion startingVersion;
    private final boolean skipChangeCommits;
    private final boolean ignoreDeletes;
    private final boolean readChangeFeed;
    private final int maxFilesPerTrigger;
    private final long maxBytesPerTrigger;
    private final int rowsPerRecord;
    private final String transactionalId;
    private final Storage storage;
    private final java.util.Optional<Short> replicationFactor;
    private final String eventTime;
    private final Duration watermarkDelay;
    private final List<String> groupBy;
    private final RowTransform transform;
    private final String deadLetterTopic;
    private final boolean marksBatches;

    private DeltaSourceConfig(Builder b) {
        this.tablePath = b.tablePath;
        this.pipeline = b.pipeline;
        this.topic = b.topic != null ? b.topic : Topics.events(pipeline);
        this.progressTopic = b.progressTopic != null ? b.progressTopic : progressTopic(pipeline);
        this.startingVersion = b.startingVersion;
        this.skipChangeCommits = b.skipChangeCommits;
        this.ignoreDeletes = b.ignoreDeletes;
        this.readChangeFeed = b.readChangeFeed;
        this.maxFilesPerTrigger = b.maxFilesPerTrigger;
        this.maxBytesPerTrigger = b.maxBytesPerTrigger;
        this.rowsPerRecord = b.rowsPerRecord;
        this.transactionalId = b.transactionalId != null ? b.transactionalId : "tributary-" + pipeline + "-delta-source";
        this.storage = b.storage;
        this.replicationFactor = b.replicationFactor;
        this.eventTime = b.eventTime;
        this.watermarkDelay = b.watermarkDelay;
        this.groupBy = List.copyOf(b.groupBy);
        this.transform = b.transform;
        this.deadLetterTopic = b.deadLetterTopic != null ? b.deadLetterTopic : Topics.deadLetter(pipeline);
        this.marksBatches = b.marksBatches || b.eventTime != null;
    }

    /** The compacted topic holding a pipeline's delta-source progress: {@code tributary.<pipeline>.delta-source-log}. */
    public static String progressTopic(String pipeline) {
        return "tributary." + pipeline + ".delta-source-log";
    }

    /** Starts a config for pipeline {@code pipeline} reading the Delta table at {@code tablePath}. */
    public static Builder builder(String pipeline, String tablePath) {
        return new Builder(pipeline, tablePath);
    }

    /** The table path as given (a local path or a URI). */
    public String tablePath() {
        return tablePath;
    }

    public String pipeline() {
        return pipeline;
    }

    /** The settings of the table's file system (object storage); {@link Storage#NONE} by default. */
    public Storage storage() {
        return storage;
    }

    /** Where rows go; default {@link Topics#events(String)}. */
    public String topic() {
        return topic;
    }

    /** Where progress goes, keyed by table path; default {@link #progressTopic(String)}. */
    public String progressTopic() {
        return progressTopic;
    }

    public StartingVersion startingVersion() {
        return startingVersion;
    }

    public boolean skipChangeCommits() {
        return skipChangeCommits;
    }

    public boolean ignoreDeletes() {
        return ignoreDeletes;
    }

    public boolean readChangeFeed() {
        return readChangeFeed;
    }

    /** Data files per batch at most (at least one file is always taken); default 1000 as in Spark. */
    public int maxFilesPerTrigger() {
        return maxFilesPerTrigger;
    }

    /** Soft limit on the bytes of data files per batch (at least one file is always taken); 0 = none. */
    public long maxBytesPerTrigger() {
        return maxBytesPerTrigger;
    }

    /** Rows packed into one events record (JSON lines); 1: a record per row. */
    public int rowsPerRecord() {
        return rowsPerRecord;
    }

    /** The Kafka transactional id; default {@code tributary-<pipeline>-delta-source}. */
    public String transactionalId() {
        return transactionalId;
    }

    /** The replicas of the topics the source creates; empty: the broker's default. */
    public java.util.Optional<Short> replicationFactor() {
        return replicationFactor;
    }

    /** The event-time column an aggregation of the rows reads, or null (no aggregation: no markers). */
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
     * True when an event-time column is set (an aggregation reads the rows) or {@link Builder#marksBatches} was asked
     * (a deduplication reads them): every batch then ends with a watermark marker on every partition of the row topic
     * ({@link Topics}).
     */
    public boolean marksBatches() {
        return marksBatches;
    }

    /** The columns whose values place a row ({@link io.tributary.schema.GroupKey}); empty: rows spread freely. */
    public List<String> groupBy() {
        return groupBy;
    }

    /**
     * The pipeline's {@code transform} (joins, where, select) over the table's rows, applied before they are
     * published (docs/transform.md); null: the rows as they are.
     */
    public RowTransform transform() {
        return transform;
    }

    /** Where a row the transform fails on goes, naming the table, its version and file; default {@link Topics#deadLetter(String)}. */
    public String deadLetterTopic() {
        return deadLetterTopic;
    }

    /** The stage's name in progress records: {@code <pipeline>/delta-source}. */
    public String stageName() {
        return pipeline + "/delta-source";
    }

    public Builder toBuilder() {
        Builder b = new Builder(pipeline, tablePath);
        b.topic = topic;
        b.progressTopic = progressTopic;
        b.startingVersion = startingVersion;
        b.skipChangeCommits = skipChangeCommits;
        b.ignoreDeletes = ignoreDeletes;
        b.readChangeFeed = readChangeFeed;
        b.maxFilesPerTrigger = maxFilesPerTrigger;
        b.maxBytesPerTrigger = maxBytesPerTrigger;
        b.rowsPerRecord = rowsPerRecord;
        b.transactionalId = transactionalId;
        b.storage = storage;
        b.replicationFactor = replicationFactor;
        b.eventTime = eventTime;
        b.watermarkDelay = watermarkDelay;
        b.groupBy = groupBy;
        b.transform = transform;
        b.deadLetterTopic = deadLetterTopic;
        b.marksBatches = marksBatches;
        return b;
    }

    /** Fluent builder; {@link #build()} validates. */
    public static final class Builder {
        private final String pipeline;
        private final String tablePath;
        private String topic;
        private String progressTopic;
        private StartingVersion startingVersion = StartingVersion.snapshot();
        private boolean skipChangeCommits;
        private boolean ignoreDeletes;
        private boolean readChangeFeed;
        private int maxFilesPerTrigger = DEFAULT_MAX_FILES_PER_TRIGGER;
        private long maxBytesPerTrigger;
        private int rowsPerRecord = DEFAULT_ROWS_PER_RECORD;
        private String transactionalId;
        private Storage storage = Storage.NONE;
        private java.util.Optional<Short> replicationFactor = java.util.Optional.empty();
        private String eventTime;
        private Duration watermarkDelay;
        private List<String> groupBy = List.of();
        private RowTransform transform;
        private String deadLetterTopic;
        private boolean marksBatches;

        private Builder(String pipeline, String tablePath) {
            this.pipeline = pipeline;
            this.tablePath = tablePath;
        }

        /** The settings of the table's file system: the spec's {@code storage:} map. */
        public Builder storage(Storage settings) {
            this.storage = settings == null ? Storage.NONE : settings;
            return this;
        }

        public Builder topic(String topic) {
            this.topic = topic;
            return this;
        }

        public Builder progressTopic(String progressTopic) {
            this.progressTopic = progressTopic;
            return this;
        }

        public Builder startingVersion(StartingVersion startingVersion) {
            this.startingVersion = Objects.requireNonNull(startingVersion, "startingVersion");
            return this;
        }

        /**
         * Takes the {@link DeltaSourceSettings} given in {@code values} (a spec's {@code source.delta.}),
         * parsed by their definitions; the table path is the builder's own argument.
         */
        public Builder settings(io.tributary.settings.Values values) {
            startingVersion(values.get(DeltaSourceSettings.STARTING_VERSION));
            values.ifGiven(DeltaSourceSettings.SKIP_CHANGE_COMMITS, this::skipChangeCommits);
            values.ifGiven(DeltaSourceSettings.IGNORE_DELETES, this::ignoreDeletes);
            values.ifGiven(DeltaSourceSettings.READ_CHANGE_FEED, this::readChangeFeed);
            values.ifGiven(DeltaSourceSettings.MAX_FILES, this::maxFilesPerTrigger);
            values.ifGiven(DeltaSourceSettings.MAX_BYTES, this::maxBytesPerTrigger);
            values.ifGiven(DeltaSourceSettings.ROWS_PER_RECORD, this::rowsPerRecord);
            return this;
        }


        /** As {@link StartingVersion#parse(String)}: null = snapshot, "latest", or a number. */
        public Builder startingVersion(String startingVersion) {
            return startingVersion(StartingVersion.parse(startingVersion));
        }

        public Builder skipChangeCommits(boolean skip) {
            this.skipChangeCommits = skip;
            return this;
        }

        public Builder ignoreDeletes(boolean ignore) {
            this.ignoreDeletes = ignore;
            return this;
        }

        public Builder readChangeFeed(boolean read) {
            this.readChangeFeed = read;
            return this;
        }

        public Builder maxFilesPerTrigger(int max) {
            this.maxFilesPerTrigger = max;
            return this;
        }

        public Builder maxBytesPerTrigger(long max) {
            this.maxBytesPerTrigger = max;
            return this;
        }

        public Builder rowsPerRecord(int rows) {
            this.rowsPerRecord = rows;
            return this;
        }

        /** The replicas of the topics the source creates (the pipeline's {@code topic.replicationFactor}); default: the broker's. */
        public Builder replicationFactor(short replicas) {
            this.replicationFactor = java.util.Optional.of(replicas);
            return this;
        }

        /**
         * The event-time column of an aggregation that reads the rows: the source then tracks its
         * largest value in its progress and ends every batch with a watermark marker.
         */
        public Builder eventTime(String column) {
            this.eventTime = column;
            return this;
        }

        /** Spark's {@code withWatermark} delay (null: no watermark; the markers then carry none). */
        public Builder watermarkDelay(Duration delay) {
            this.watermarkDelay = delay;
            return this;
        }

        /** The group-by (or upsert key) columns: a group's rows go to one partition, in order. */
        public Builder groupBy(List<String> columns) {
            this.groupBy = columns == null ? List.of() : columns;
            return this;
        }

        /**
         * The transform applied to each row read, compiled over the table's schema ({@code null}: none); the
         * rows published are its output. A row it fails on goes to {@link #deadLetterTopic(String)}.
         */
        public Builder transform(RowTransform transform) {
            this.transform = transform == null || transform.isIdentity() ? null : transform;
            return this;
        }

        /**
         * Every batch ends with a watermark marker on every partition, with or without an event-time column: the
         * deduplication that reads the rows ends its batches at them.
         */
        public Builder marksBatches(boolean marks) {
            this.marksBatches = marks;
            return this;
        }

        public Builder deadLetterTopic(String topic) {
            this.deadLetterTopic = topic;
            return this;
        }

        public Builder transactionalId(String id) {
            this.transactionalId = id;
            return this;
        }

        public DeltaSourceConfig build() {
            if (pipeline == null || pipeline.isBlank()) {
                throw SourceErrors.noPipelineName();
            }
            if (tablePath == null || tablePath.isBlank()) {
                throw SourceErrors.noTablePath(pipeline);
            }
            if (maxFilesPerTrigger < 1) {
                throw SourceErrors.maxFilesNotPositive(pipeline, maxFilesPerTrigger, DEFAULT_MAX_FILES_PER_TRIGGER);
            }
            if (rowsPerRecord < 1) {
                throw SourceErrors.rowsPerRecordNotPositive(pipeline, rowsPerRecord);
            }
            if (maxBytesPerTrigger < 0) {
                throw SourceErrors.negativeMaxBytes(pipeline, maxBytesPerTrigger);
            }
            if (watermarkDelay != null && eventTime == null) {
                throw SourceErrors.watermarkWithoutEventTime(pipeline);
            }
            return new DeltaSourceConfig(this);
        }
    }
}
