package io.tributary.sink;

import io.tributary.kafka.SettledEnds;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import io.tributary.settings.Setting;
import io.tributary.settings.Values;
import io.tributary.sink.internal.SinkErrors;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a {@link DeltaSink} reads and where it writes.
 *
 * @param tablePath the Delta table's folder: a local path or a Hadoop URI ({@code file:/...}, {@code s3a://...})
 * @param schema the rows' schema (the topic's {@code RowJson} values); the table is created with it
 * @param topic the Kafka topic to read, all of its partitions
 * @param appId the sink's id, written as the {@code txn} appId of every commit, e.g. {@code tributary-quickstart-sink}
 * @param stageName the {@code name} of the progress records, e.g. {@code quickstart/sink}
 * @param maxRowsPerBatch at most this many rows per Delta commit; 0 for no limit
 * @param tableProperties table properties set when the table is created (e.g. {@code delta.checkpointInterval})
 * @param pendingTransactionWait how long a batch waits, at its start, for transactions already
 *                               writing to the topic to complete (their markers), so that it takes
 *                               their rows; after that it goes on without them. Default {@link #DEFAULT_PENDING_TRANSACTION_WAIT}
 * @param mode append, upsert (MERGE by {@code keys}) or complete (replace the table with each batch)
 * @param keys the key columns of mode upsert (required there) and complete (optional: rows of one key collapse);
 *             a STRUCT column (e.g. an aggregation's {@code window}) is compared as a whole
 * @param order mode upsert: the column whose largest value wins among rows of one key in a batch; null: the last in Kafka order
 * @param rowsPerFile modes upsert and complete: at most this many rows per Parquet file written, rows sorted by key,
 *                    so files hold narrow key ranges that a small batch can skip. Default {@link #DEFAULT_ROWS_PER_FILE}
 * @param partitionBy the table's partition columns, set when the table is created: column names or
 *                    {@code "date(ts) as day"} (a DATE column the sink derives from a timestamp); empty: not partitioned
 * @param targetFileSize a Parquet file written by an append is closed, and the next one started, once it holds
 *                       about this many bytes of data. Default {@link #DEFAULT_TARGET_FILE_SIZE} (Kernel's and Spark's)
 * @param allowedLatency zero (the default, as Spark): every batch commits what the topic holds. Above zero, new
 *                       rows wait in the topic until they fill about {@code targetFileSize} or the first of them
 *                       has waited this long, so a slow stream writes fewer, larger files (at most one commit
 *                       per {@code allowedLatency}); only for unbounded triggers, since a bounded run must end
 *                       with everything committed
 * @param trimTopic true: after each commit, delete the topic's records before the offsets the table now holds
 *                  ({@code Admin.deleteRecords}, as Kafka Streams purges its repartition topics), for a topic
 *                  this sink alone reads, such as a pipeline's events topic, which has no time retention. A sink
 *                  that then finds no table refuses to start, since the topic no longer holds what the table had.
 *                  Default false
 * @param allowNonEmptyPath false (the default): a table is not created in a folder that holds files but no
 *                          {@code _delta_log}, since they are not the table's; true: it is created beside them
 *                          ({@code vacuum} never deletes them)
 * @param mergeSchema Delta's {@code mergeSchema}: false (the default) refuses to write into a table that lacks columns
 *                    of {@code schema}; true adds them to the table (nullable) in the commit of the first batch that
 *                    carries them. A table's columns the schema lacks are written null either way, as Spark does
 * @param changes mode upsert's change data: sequenceBy, deleteWhen, exceptColumns, deleteRetention ({@link SinkChanges})
 * @param badRecords what to do with a record whose row the table cannot hold, e.g. a null in a NOT NULL column:
 *                   dead-letter, drop or (the default) fail ({@link SinkBadRecords})
 *
 * <p>Immutable, made by {@link #builder} (or {@link #toBuilder()}), which checks the settings together.
 */
public record SinkConfig(String tablePath, Schema schema, String topic, String appId, String stageName,
                         int maxRowsPerBatch, Map<String, String> tableProperties, Duration pendingTransactionWait,
                         SinkMode mode, List<String> keys, String order, int rowsPerFile,
                         List<String> partitionBy, long targetFileSize, Duration allowedLatency, boolean trimTopic,
                         boolean allowNonEmptyPath, boolean mergeSchema, SinkChanges changes, SinkBadRecords badRecords) {
    public static final Duration DEFAULT_PENDING_TRANSACTION_WAIT = SettledEnds.DEFAULT_WAIT;
    public static final long DEFAULT_TARGET_FILE_SIZE = 128L * 1024 * 1024;
    public static final int DEFAULT_ROWS_PER_FILE = 100_000;

    public SinkConfig {
        Objects.requireNonNull(tablePath, "tablePath");
        Objects.requireNonNull(schema, "schema");
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(appId, "appId");
        Objects.requireNonNull(stageName, "stageName");
        Objects.requireNonNull(pendingTransactionWait, "pendingTransactionWait");
        tableProperties = Map.copyOf(tableProperties == null ? Map.of() : tableProperties);
        mode = mode == null ? SinkMode.APPEND : mode;
        keys = List.copyOf(keys == null ? List.of() : keys);
        order = order == null || order.isBlank() ? null : order;
        partitionBy = List.copyOf(partitionBy == null ? List.of() : partitionBy);
        badRecords = badRecords == null ? SinkBadRecords.FAIL : badRecords;
        changes = changes == null ? SinkChanges.NONE : changes;
        allowedLatency = allowedLatency == null ? Duration.ZERO : allowedLatency;
    }

    /** A config with the defaults, to be set further. */
    public static Builder builder(String tablePath, Schema schema, String topic, String appId, String stageName) {
        return new Builder(new SinkConfig(tablePath, schema, topic, appId, stageName, 0, Map.of(), DEFAULT_PENDING_TRANSACTION_WAIT,
                SinkMode.APPEND, List.of(), null, DEFAULT_ROWS_PER_FILE, List.of(), DEFAULT_TARGET_FILE_SIZE, Duration.ZERO, false,
                false, false, SinkChanges.NONE, SinkBadRecords.FAIL));
    }

    /** A config with no row limit and no extra table properties. */
    public static SinkConfig of(String tablePath, Schema schema, String topic, String appId, String stageName) {
        return builder(tablePath, schema, topic, appId, stageName).build();
    }

    /** The table's columns: the rows' schema without {@code changes.exceptColumns}. */
    public Schema tableSchema() {
        return changes.tableSchema(schema);
    }

    /** A builder holding this config's values. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** Collects a {@link SinkConfig}'s values; {@link #build()} checks them together, naming the keys as they were written. */
    public static final class Builder {
        private String tablePath;
        private Schema schema;
        private final String topic;
        private final String appId;
        private final String stageName;
        private int maxRowsPerBatch;
        private Map<String, String> tableProperties;
        private Duration pendingTransactionWait;
        private SinkMode mode;
        private List<String> keys;
        private String order;
        private int rowsPerFile;
        private List<String> partitionBy;
        private long targetFileSize;
        private Duration allowedLatency;
        private boolean trimTopic;
        private boolean allowNonEmptyPath;
        private boolean mergeSchema;
        private SinkBadRecords badRecords;
        private SinkChanges changes;
        private Values names;

        private Builder(SinkConfig c) {
            tablePath = c.tablePath;
            schema = c.schema;
            topic = c.topic;
            appId = c.appId;
            stageName = c.stageName;
            maxRowsPerBatch = c.maxRowsPerBatch;
            tableProperties = c.tableProperties;
            pendingTransactionWait = c.pendingTransactionWait;
            mode = c.mode;
            keys = c.keys;
            order = c.order;
            rowsPerFile = c.rowsPerFile;
            partitionBy = c.partitionBy;
            targetFileSize = c.targetFileSize;
            allowedLatency = c.allowedLatency;
            trimTopic = c.trimTopic;
            allowNonEmptyPath = c.allowNonEmptyPath;
            mergeSchema = c.mergeSchema;
            badRecords = c.badRecords;
            changes = c.changes;
        }

        /**
         * Takes the {@link SinkSettings} given in {@code values} (a spec's {@code sink.delta.}, a
         * connector's config), parsed by their definitions; a setting not given keeps its value here,
         * and {@link #build()} names the keys as written there. The path is the builder's own.
         */
        public Builder settings(Values values) {
            names = values;
            if (values.has(SinkSettings.PROPERTIES)) {
                tableProperties = values.map(SinkSettings.PROPERTIES);
            }
            values.ifGiven(SinkSettings.PARTITION_BY, v -> partitionBy = v);
            values.ifGiven(SinkSettings.TARGET_FILE_SIZE, v -> targetFileSize = v);
            values.ifGiven(SinkSettings.ALLOWED_LATENCY, v -> allowedLatency = v);
            values.ifGiven(SinkSettings.ALLOW_NON_EMPTY_PATH, v -> allowNonEmptyPath = v);
            values.ifGiven(SinkSettings.MERGE_SCHEMA, v -> mergeSchema = v);
            values.ifGiven(SinkSettings.ROWS_PER_FILE, v -> rowsPerFile = v);
            values.ifGiven(SinkSettings.MODE, v -> mode = SinkMode.parse(v));
            values.ifGiven(SinkSettings.KEYS, v -> keys = v);
            values.ifGiven(SinkSettings.ORDER, v -> order = v);
            values.ifGiven(SinkSettings.SEQUENCE_BY, v -> changes = new SinkChanges(v, changes.deleteWhen(), changes.exceptColumns(),
                    changes.deleteRetention(), changes.history(), changes.trackHistory()));
            values.ifGiven(SinkSettings.DELETE_WHEN, v -> changes = new SinkChanges(changes.sequenceBy(), v, changes.exceptColumns(),
                    changes.deleteRetention(), changes.history(), changes.trackHistory()));
            values.ifGiven(SinkSettings.EXCEPT_COLUMNS, v -> changes = new SinkChanges(changes.sequenceBy(), changes.deleteWhen(), v,
                    changes.deleteRetention(), changes.history(), changes.trackHistory()));
            values.ifGiven(SinkSettings.DELETE_RETENTION, v -> changes = new SinkChanges(changes.sequenceBy(), changes.deleteWhen(),
                    changes.exceptColumns(), v, changes.history(), changes.trackHistory()));
            values.ifGiven(SinkSettings.HISTORY, v -> changes = new SinkChanges(changes.sequenceBy(), changes.deleteWhen(),
                    changes.exceptColumns(), changes.deleteRetention(), v, changes.trackHistory()));
            values.ifGiven(SinkSettings.TRACK_HISTORY_COLUMNS, v -> changes = changes.withTrackHistory(
                    new SinkChanges.TrackHistory(v, changes.trackHistory().exceptColumns())));
            values.ifGiven(SinkSettings.TRACK_HISTORY_EXCEPT_COLUMNS, v -> changes = changes.withTrackHistory(
                    new SinkChanges.TrackHistory(changes.trackHistory().columns(), v)));
            return this;
        }


        /** At most this many rows per Delta commit; 0 for no limit. */
        public Builder maxRowsPerBatch(int rows) {
            this.maxRowsPerBatch = rows;
            return this;
        }

        public Builder pendingTransactionWait(Duration wait) {
            this.pendingTransactionWait = wait;
            return this;
        }

        /** Delta table properties set when the table is created. */
        public Builder tableProperties(Map<String, String> properties) {
            this.tableProperties = properties;
            return this;
        }

        /** The write mode and its keys and order column ({@code build()} checks them against the schema). */
        public Builder mode(SinkMode mode, List<String> keys, String order) {
            this.mode = mode;
            this.keys = keys;
            this.order = order;
            return this;
        }

        /** Mode upsert's change data ({@link SinkChanges}); {@code build()} checks it against the schema. */
        public Builder changes(SinkChanges c) {
            this.changes = c;
            return this;
        }

        public Builder rowsPerFile(int rows) {
            this.rowsPerFile = rows;
            return this;
        }

        public Builder partitionBy(List<String> columns) {
            this.partitionBy = columns;
            return this;
        }

        public Builder targetFileSize(long bytes) {
            this.targetFileSize = bytes;
            return this;
        }

        public Builder allowedLatency(Duration latency) {
            this.allowedLatency = latency;
            return this;
        }

        public Builder allowNonEmptyPath(boolean allow) {
            this.allowNonEmptyPath = allow;
            return this;
        }

        public Builder mergeSchema(boolean merge) {
            this.mergeSchema = merge;
            return this;
        }

        /** The rows' schema, e.g. grown by new columns. */
        public Builder schema(Schema newSchema) {
            this.schema = newSchema;
            return this;
        }

        public Builder badRecords(SinkBadRecords bad) {
            this.badRecords = bad;
            return this;
        }

        public Builder trimTopic(boolean trim) {
            this.trimTopic = trim;
            return this;
        }

        /** Checks the values together; an error names the key as written where they came from. */
        public SinkConfig build() {
            if (tablePath == null || tablePath.isBlank() || topic == null || topic.isBlank() || appId == null || appId.isBlank()) {
                throw SinkErrors.emptyIdentity(tablePath, topic, appId);
            }
            if (maxRowsPerBatch < 0) {
                throw SinkErrors.negativeMaxRowsPerBatch(maxRowsPerBatch);
            }
            if (pendingTransactionWait == null || pendingTransactionWait.isNegative()) {
                throw SinkErrors.negativePendingTransactionWait(pendingTransactionWait);
            }
            if (rowsPerFile <= 0) {
                throw SinkErrors.rowsPerFileNotPositive(rowsPerFile);
            }
            if (targetFileSize <= 0) {
                throw SinkErrors.targetFileSizeNotPositive(name(SinkSettings.TARGET_FILE_SIZE), targetFileSize);
            }
            if (allowedLatency != null && allowedLatency.isNegative()) {
                throw SinkErrors.negativeAllowedLatency(name(SinkSettings.ALLOWED_LATENCY), allowedLatency);
            }
            SinkChecks.problems(schema, mode == null ? SinkMode.APPEND : mode, keys == null ? List.of() : keys,
                    order == null || order.isBlank() ? null : order, partitionBy == null ? List.of() : partitionBy, this::name)
                    .values().stream().findFirst().ifPresent(problem -> {
                        throw SinkErrors.settingsDisagree(problem);
                    });
            SinkChecks.changeProblems(schema, mode == null ? SinkMode.APPEND : mode, keys == null ? List.of() : keys,
                    order == null || order.isBlank() ? null : order, partitionBy == null ? List.of() : partitionBy,
                    changes == null ? SinkChanges.NONE : changes, this::name)
                    .entrySet().stream().findFirst().ifPresent(problem -> {
                        TributaryException e = io.tributary.sink.internal.SinkErrors.changeSettingsDisagree(problem.getValue());
                        throw names == null ? e : names.invalid(problem.getKey(), e);
                    });
            return new SinkConfig(tablePath, schema, topic, appId, stageName, maxRowsPerBatch, tableProperties, pendingTransactionWait,
                    mode, keys, order, rowsPerFile, partitionBy, targetFileSize, allowedLatency, trimTopic, allowNonEmptyPath,
                    mergeSchema, changes, badRecords);
        }

        private String name(Setting<?> setting) {
            return names == null ? setting.key() : names.name(setting);
        }
    }
}
