package io.tributary.sink;

import io.tributary.schema.DataType;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import io.tributary.sink.internal.Partitioning;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
 * @param badRecords what to do with a record whose row the table cannot hold, e.g. a null in a NOT NULL column:
 *                   dead-letter, drop or (the default) fail ({@link SinkBadRecords})
 */
public record SinkConfig(String tablePath, Schema schema, String topic, String appId, String stageName,
                         int maxRowsPerBatch, Map<String, String> tableProperties, Duration pendingTransactionWait,
                         SinkMode mode, List<String> keys, String order, int rowsPerFile,
                         List<String> partitionBy, long targetFileSize, Duration allowedLatency, boolean trimTopic,
                         boolean allowNonEmptyPath, boolean mergeSchema, SinkBadRecords badRecords) {
    public static final Duration DEFAULT_PENDING_TRANSACTION_WAIT = Duration.ofSeconds(5);
    public static final long DEFAULT_TARGET_FILE_SIZE = 128L * 1024 * 1024;
    public static final int DEFAULT_ROWS_PER_FILE = 100_000;

    /** An append-mode config (the shape before modes existed). */
    public SinkConfig(String tablePath, Schema schema, String topic, String appId, String stageName,
                      int maxRowsPerBatch, Map<String, String> tableProperties, Duration pendingTransactionWait) {
        this(tablePath, schema, topic, appId, stageName, maxRowsPerBatch, tableProperties, pendingTransactionWait,
                SinkMode.APPEND, List.of(), null, DEFAULT_ROWS_PER_FILE, List.of(), DEFAULT_TARGET_FILE_SIZE, Duration.ZERO, false, false, false, SinkBadRecords.FAIL);
    }

    /** A config without partitioning (the shape before partitionBy existed). */
    public SinkConfig(String tablePath, Schema schema, String topic, String appId, String stageName,
                      int maxRowsPerBatch, Map<String, String> tableProperties, Duration pendingTransactionWait,
                      SinkMode mode, List<String> keys, String order, int rowsPerFile) {
        this(tablePath, schema, topic, appId, stageName, maxRowsPerBatch, tableProperties, pendingTransactionWait,
                mode, keys, order, rowsPerFile, List.of(), DEFAULT_TARGET_FILE_SIZE, Duration.ZERO, false, false, false, SinkBadRecords.FAIL);
    }

    public SinkConfig {
        Objects.requireNonNull(tablePath, "tablePath");
        Objects.requireNonNull(schema, "schema");
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(appId, "appId");
        Objects.requireNonNull(stageName, "stageName");
        if (tablePath.isBlank() || topic.isBlank() || appId.isBlank()) {
            throw new TributaryException("delta sink: table path, topic and appId must not be empty (got path '"
                    + tablePath + "', topic '" + topic + "', appId '" + appId + "')");
        }
        if (maxRowsPerBatch < 0) {
            throw new TributaryException("delta sink: maxRowsPerBatch is " + maxRowsPerBatch + "; use 0 (no limit) or a positive number");
        }
        Objects.requireNonNull(pendingTransactionWait, "pendingTransactionWait");
        if (pendingTransactionWait.isNegative()) {
            throw new TributaryException("delta sink: pendingTransactionWait is " + pendingTransactionWait + "; use 0 or more");
        }
        tableProperties = Map.copyOf(tableProperties == null ? Map.of() : tableProperties);
        mode = mode == null ? SinkMode.APPEND : mode;
        keys = List.copyOf(keys == null ? List.of() : keys);
        order = order == null || order.isBlank() ? null : order;
        validateMode(schema, mode, keys, order, rowsPerFile);
        partitionBy = List.copyOf(partitionBy == null ? List.of() : partitionBy);
        if (targetFileSize <= 0) {
            throw new TributaryException("sink.delta.targetFileSize is " + targetFileSize + " bytes; use a positive size, e.g. 128m");
        }
        badRecords = badRecords == null ? SinkBadRecords.FAIL : badRecords;
        allowedLatency = allowedLatency == null ? Duration.ZERO : allowedLatency;
        if (allowedLatency.isNegative()) {
            throw new TributaryException("sink.delta.allowedLatency is " + allowedLatency + "; use 0 seconds or more");
        }
        Partitioning partitioning = Partitioning.parse(partitionBy, schema); // fails early, naming the entry
        if (partitioning.hasDerivedColumns() && mode != SinkMode.APPEND) {
            throw new TributaryException("sink.delta.partitionBy " + partitionBy + " derives a column, which only sink.delta.mode append "
                    + "supports yet (mode " + mode.specName() + " rewrites rows without computing it); partition by a plain column, or use mode append");
        }
    }

    private static void validateMode(Schema schema, SinkMode mode, List<String> keys, String order, int rowsPerFile) {
        if (mode == SinkMode.UPSERT && keys.isEmpty()) {
            throw new TributaryException("sink.delta.keys is empty, but sink.delta.mode is upsert: an upsert needs the columns "
                    + "that identify a row; set sink.delta.keys, e.g. [id], or use sink.delta.mode: append");
        }
        if (mode == SinkMode.APPEND && !keys.isEmpty()) {
            throw new TributaryException("sink.delta.keys " + keys + " is set, but sink.delta.mode is append, which writes every row "
                    + "and ignores keys; set sink.delta.mode: upsert to MERGE by these keys, or remove sink.delta.keys");
        }
        Set<String> seen = new HashSet<>();
        for (String k : keys) {
            if (schema.indexOf(k) < 0) {
                throw new TributaryException("sink.delta.keys names column '" + k + "', which is not in the sink's schema "
                        + schema.toDdl() + "; use columns of that schema");
            }
            DataType.Kind kind = schema.field(schema.indexOf(k)).type().kind();
            if (kind == DataType.Kind.ARRAY || kind == DataType.Kind.MAP) {
                throw new TributaryException("sink.delta.keys names column '" + k + "' of type " + schema.field(schema.indexOf(k)).type().ddl()
                        + "; a key column must be of a primitive or STRUCT type (MERGE cannot match rows by arrays or maps)");
            }
            if (!seen.add(k)) {
                throw new TributaryException("sink.delta.keys names column '" + k + "' twice; list each key column once");
            }
        }
        if (order != null) {
            if (mode != SinkMode.UPSERT) {
                throw new TributaryException("sink.delta.order is '" + order + "', but sink.delta.mode is " + mode.specName()
                        + "; the order column only chooses among rows of one key in mode upsert: remove it or set mode upsert");
            }
            int i = schema.indexOf(order);
            if (i < 0) {
                throw new TributaryException("sink.delta.order names column '" + order + "', which is not in the sink's schema "
                        + schema.toDdl() + "; use a column of that schema, or leave it out to keep the last row in Kafka order");
            }
            DataType.Kind kind = schema.field(i).type().kind();
            if (kind == DataType.Kind.STRUCT || kind == DataType.Kind.BINARY || kind == DataType.Kind.ARRAY || kind == DataType.Kind.MAP) {
                throw new TributaryException("sink.delta.order names column '" + order + "' of type " + schema.field(i).type().ddl()
                        + ", which has no order to choose the latest row by; use a number, string, date or timestamp column");
            }
        }
        if (rowsPerFile <= 0) {
            throw new TributaryException("delta sink: rowsPerFile is " + rowsPerFile + "; use a positive number");
        }
    }

    /** A config with no row limit and no extra table properties. */
    public static SinkConfig of(String tablePath, Schema schema, String topic, String appId, String stageName) {
        return new SinkConfig(tablePath, schema, topic, appId, stageName, 0, Map.of(), DEFAULT_PENDING_TRANSACTION_WAIT);
    }

    /**
     * This config with the {@link SinkSettings} given in {@code values} (a spec's {@code sink.delta.},
     * a connector's config), parsed by their definitions; a setting not given keeps this config's value.
     * The path and the schema are the caller's.
     */
    public SinkConfig withSettings(io.tributary.settings.Values values) {
        SinkConfig c = this;
        if (values.has(SinkSettings.PROPERTIES)) {
            c = c.withTableProperties(values.map(SinkSettings.PROPERTIES));
        }
        List<String> partitions = values.get(SinkSettings.PARTITION_BY);
        c = partitions == null ? c : c.withPartitionBy(partitions);
        Long size = values.get(SinkSettings.TARGET_FILE_SIZE);
        c = size == null ? c : c.withTargetFileSize(size);
        Duration latency = values.get(SinkSettings.ALLOWED_LATENCY);
        c = latency == null ? c : c.withAllowedLatency(latency);
        Boolean nonEmpty = values.get(SinkSettings.ALLOW_NON_EMPTY_PATH);
        c = nonEmpty == null ? c : c.withAllowNonEmptyPath(nonEmpty);
        Boolean merge = values.get(SinkSettings.MERGE_SCHEMA);
        c = merge == null ? c : c.withMergeSchema(merge);
        Integer rows = values.get(SinkSettings.ROWS_PER_FILE);
        c = rows == null ? c : c.withRowsPerFile(rows);
        String mode = values.get(SinkSettings.MODE);
        if (mode != null) {
            List<String> keys = values.get(SinkSettings.KEYS);
            c = c.withMode(SinkMode.parse(mode), keys == null ? List.of() : keys, values.get(SinkSettings.ORDER));
        }
        return c;
    }

    public SinkConfig withMaxRowsPerBatch(int rows) {
        return new SinkConfig(tablePath, schema, topic, appId, stageName, rows, tableProperties, pendingTransactionWait,
                mode, keys, order, rowsPerFile, partitionBy, targetFileSize, allowedLatency, trimTopic, allowNonEmptyPath, mergeSchema, badRecords);
    }

    public SinkConfig withPendingTransactionWait(Duration wait) {
        return new SinkConfig(tablePath, schema, topic, appId, stageName, maxRowsPerBatch, tableProperties, wait,
                mode, keys, order, rowsPerFile, partitionBy, targetFileSize, allowedLatency, trimTopic, allowNonEmptyPath, mergeSchema, badRecords);
    }

    public SinkConfig withTableProperties(Map<String, String> properties) {
        return new SinkConfig(tablePath, schema, topic, appId, stageName, maxRowsPerBatch, properties, pendingTransactionWait,
                mode, keys, order, rowsPerFile, partitionBy, targetFileSize, allowedLatency, trimTopic, allowNonEmptyPath, mergeSchema, badRecords);
    }

    /**
     * The write mode, its key columns and (upsert only) the order column; {@code order} may be null.
     *
     * @throws TributaryException naming {@code sink.delta.mode}, {@code sink.delta.keys} or {@code sink.delta.order} if they do not fit the schema
     */
    public SinkConfig withMode(SinkMode mode, List<String> keys, String order) {
        return new SinkConfig(tablePath, schema, topic, appId, stageName, maxRowsPerBatch, tableProperties, pendingTransactionWait,
                mode, keys, order, rowsPerFile, partitionBy, targetFileSize, allowedLatency, trimTopic, allowNonEmptyPath, mergeSchema, badRecords);
    }

    /** Modes upsert and complete: at most {@code rows} rows per Parquet file written. */
    public SinkConfig withRowsPerFile(int rows) {
        return new SinkConfig(tablePath, schema, topic, appId, stageName, maxRowsPerBatch, tableProperties, pendingTransactionWait,
                mode, keys, order, rows, partitionBy, targetFileSize, allowedLatency, trimTopic, allowNonEmptyPath, mergeSchema, badRecords);
    }

    /** The table's partitioning (see {@link #partitionBy()}), e.g. {@code List.of("date(ts) as day")}. */
    public SinkConfig withPartitionBy(List<String> columns) {
        return new SinkConfig(tablePath, schema, topic, appId, stageName, maxRowsPerBatch, tableProperties, pendingTransactionWait,
                mode, keys, order, rowsPerFile, columns, targetFileSize, allowedLatency, trimTopic, allowNonEmptyPath, mergeSchema, badRecords);
    }

    /** Appends: roll Parquet files at about {@code bytes} of data. */
    public SinkConfig withTargetFileSize(long bytes) {
        return new SinkConfig(tablePath, schema, topic, appId, stageName, maxRowsPerBatch, tableProperties, pendingTransactionWait,
                mode, keys, order, rowsPerFile, partitionBy, bytes, allowedLatency, trimTopic, allowNonEmptyPath, mergeSchema, badRecords);
    }

    /** Let new rows wait up to {@code latency} to fill a file of {@code targetFileSize} (see {@link #allowedLatency()}). */
    public SinkConfig withAllowedLatency(Duration latency) {
        return new SinkConfig(tablePath, schema, topic, appId, stageName, maxRowsPerBatch, tableProperties, pendingTransactionWait,
                mode, keys, order, rowsPerFile, partitionBy, targetFileSize, latency, trimTopic, allowNonEmptyPath, mergeSchema, badRecords);
    }

    /** Create the table even in a folder that holds other files (see {@link #allowNonEmptyPath()}). */
    public SinkConfig withAllowNonEmptyPath(boolean allow) {
        return new SinkConfig(tablePath, schema, topic, appId, stageName, maxRowsPerBatch, tableProperties, pendingTransactionWait,
                mode, keys, order, rowsPerFile, partitionBy, targetFileSize, allowedLatency, trimTopic, allow, mergeSchema, badRecords);
    }

    /** Add the schema's new columns to an existing table (see {@link #mergeSchema()}). */
    public SinkConfig withMergeSchema(boolean merge) {
        return new SinkConfig(tablePath, schema, topic, appId, stageName, maxRowsPerBatch, tableProperties, pendingTransactionWait,
                mode, keys, order, rowsPerFile, partitionBy, targetFileSize, allowedLatency, trimTopic, allowNonEmptyPath, merge, badRecords);
    }

    /** The same sink writing rows of {@code newSchema} (the table's, grown by the pipeline's new columns). */
    public SinkConfig withSchema(Schema newSchema) {
        return new SinkConfig(tablePath, newSchema, topic, appId, stageName, maxRowsPerBatch, tableProperties, pendingTransactionWait,
                mode, keys, order, rowsPerFile, partitionBy, targetFileSize, allowedLatency, trimTopic, allowNonEmptyPath, mergeSchema, badRecords);
    }

    /** What to do with a record whose row the table cannot hold (see {@link #badRecords()}). */
    public SinkConfig withBadRecords(SinkBadRecords bad) {
        return new SinkConfig(tablePath, schema, topic, appId, stageName, maxRowsPerBatch, tableProperties, pendingTransactionWait,
                mode, keys, order, rowsPerFile, partitionBy, targetFileSize, allowedLatency, trimTopic, allowNonEmptyPath, mergeSchema, bad);
    }

    /** Delete what the table holds from the topic after each commit (see {@link #trimTopic()}). */
    public SinkConfig withTrimTopic(boolean trim) {
        return new SinkConfig(tablePath, schema, topic, appId, stageName, maxRowsPerBatch, tableProperties, pendingTransactionWait,
                mode, keys, order, rowsPerFile, partitionBy, targetFileSize, allowedLatency, trim, allowNonEmptyPath, mergeSchema, badRecords);
    }
}
