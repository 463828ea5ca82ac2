package io.tributary.sink;

/**
 * Where a sink stands, read from its Delta table (for {@code checkpoint show}).
 *
 * @param tableVersion the table's latest version; -1 if the table does not exist yet
 * @param lastBatchId the latest {@code txn} version committed for {@code appId}; -1 if none
 * @param nextBatchId the batch the sink runs next
 * @param offsets the offsets stored with the last batch; null if none
 */
public record SinkStatus(String tablePath, String appId, String topic, long tableVersion, long lastBatchId,
                         long nextBatchId, SinkOffsets offsets) {
}
