package io.tributary.sink;

/**
 * One version of a Delta table's history, as read from its {@code _delta_log} commit file.
 *
 * @param timestamp the commit's {@code commitInfo.timestamp}, epoch milliseconds
 * @param operation {@code commitInfo.operation}, e.g. {@code STREAMING UPDATE}
 * @param txnAppId the {@code txn} action's appId; null if the commit has none
 * @param txnVersion the {@code txn} action's version (the sink's batch id); -1 if none
 * @param addedFiles the number of {@code add} actions
 * @param addedRows the sum of {@code numRecords} over the adds' statistics
 * @param sinkOffsets the {@value SinkOffsets#DOMAIN} domain metadata set in this commit; null if none
 */
public record TableCommit(long version, long timestamp, String operation, String txnAppId, long txnVersion,
                          int addedFiles, long addedRows, SinkOffsets sinkOffsets) {
}
