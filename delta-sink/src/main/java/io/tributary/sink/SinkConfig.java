package io.tributary.sink;

import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import java.time.Duration;
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
 */
public record SinkConfig(String tablePath, Schema schema, String topic, String appId, String stageName,
                         int maxRowsPerBatch, Map<String, String> tableProperties, Duration pendingTransactionWait) {
    public static final Duration DEFAULT_PENDING_TRANSACTION_WAIT = Duration.ofSeconds(5);

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
    }

    /** A config with no row limit and no extra table properties. */
    public static SinkConfig of(String tablePath, Schema schema, String topic, String appId, String stageName) {
        return new SinkConfig(tablePath, schema, topic, appId, stageName, 0, Map.of(), DEFAULT_PENDING_TRANSACTION_WAIT);
    }

    public SinkConfig withMaxRowsPerBatch(int rows) {
        return new SinkConfig(tablePath, schema, topic, appId, stageName, rows, tableProperties, pendingTransactionWait);
    }

    public SinkConfig withPendingTransactionWait(Duration wait) {
        return new SinkConfig(tablePath, schema, topic, appId, stageName, maxRowsPerBatch, tableProperties, wait);
    }

    public SinkConfig withTableProperties(Map<String, String> properties) {
        return new SinkConfig(tablePath, schema, topic, appId, stageName, maxRowsPerBatch, properties, pendingTransactionWait);
    }
}
