package io.tributary.sink.internal;

import io.delta.kernel.exceptions.CommitStateUnknownException;
import io.delta.kernel.exceptions.ConcurrentWriteException;
import io.delta.kernel.exceptions.KernelException;
import io.tributary.schema.TributaryException;
import io.tributary.sink.StaleBatchException;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;

/** The delta sink's errors of committing a batch: a commit that lost a race or failed, offsets that are not where the batch starts, a table that went away. */
public final class CommitErrors {
    private CommitErrors() {
    }

    /** When a derived partition column is asked of a mode other than append. */
    public static TributaryException derivedPartitionNeedsAppend(List<?> partitionBy) {
        return new TributaryException("partitionBy " + partitionBy + " derives a column, which only mode append supports yet "
                + "(mode upsert rewrites rows without computing it); partition by a plain column, or use mode append");
    }

    /** When an upsert is given no key columns. */
    public static TributaryException noKeyColumns() {
        return new TributaryException("an upsert needs key columns");
    }

    /** When domain metadata is not a partition offset: the table was written by another tool. */
    public static TributaryException notPartitionOffset(String json, IOException cause) {
        return new TributaryException("delta sink: domain metadata " + json + " is not a partition offset; was the table "
                + "written by another tool?", cause);
    }

    /** When domain metadata cannot be read as a partition offset. */
    public static TributaryException unreadablePartitionOffset(String json, IOException cause) {
        return new TributaryException("delta sink: domain metadata " + json + " is not a partition offset", cause);
    }

    /** When an appended table's topic holds a tombstone. */
    public static TributaryException tombstoneInAppend(TopicPartition partition, long offset) {
        return new TributaryException("delta sink: record " + partition + "@" + offset + " is a tombstone; an appended table "
                + "takes rows only");
    }

    /** When a tombstone's key cannot be read: the key's error, naming the topic besides the partition. */
    public static TributaryException badTombstone(TopicPartition tp, TributaryException cause) {
        return new TributaryException(cause.getMessage().replace("the tombstone at partition " + tp.partition(),
                "the tombstone at " + tp.topic() + " partition " + tp.partition()), cause);
    }

    /** When the table's offsets of a batch's partitions are not where the batch starts. */
    public static StaleBatchException offsetsMovedOn(String tablePath, Map<?, ?> held, String writerId, Map<?, ?> from) {
        return new StaleBatchException("delta table " + tablePath + " holds offsets " + held + ", but " + writerId
                + "'s batch starts at " + from + ": another writer committed these partitions (a task that owns them since a "
                + "rebalance); nothing of this batch was committed: read the table's offsets again");
    }

    /** When a partition commit was overtaken by another writer's. */
    public static StaleBatchException commitOvertaken(String tablePath, String writerId, long rows, String message,
                                                      ConcurrentWriteException cause) {
        return new StaleBatchException("delta table " + tablePath + ": " + writerId + "'s commit of " + rows + " rows was "
                + "overtaken by another writer's commit of the same partitions, or of the table's creation (" + message
                + "); nothing of it was committed: read the table's offsets again", cause);
    }

    /** When a partition commit failed with a storage error and may have landed. */
    public static StaleBatchException commitUnknown(String tablePath, String writerId, String message,
                                                    CommitStateUnknownException cause) {
        return new StaleBatchException("delta table " + tablePath + ": " + writerId + "'s commit failed with a storage error "
                + "and may or may not have landed (" + message + "): read the table's offsets again", cause);
    }

    /** When a batch lost a commit race with another instance of the sink. */
    public static BatchSuperseded lostRaceToInstance(String tablePath, long batchId, String appId, String message,
                                                     ConcurrentWriteException cause) {
        return new BatchSuperseded("delta table " + tablePath + ": batch " + batchId + " of " + appId + " lost a race with "
                + "another instance (" + message + "); the batch is not committed", cause);
    }

    /** When a batch lost a commit race with another writer of the table. */
    public static TributaryException lostRaceToWriter(String tablePath, long batchId, String appId, String why, Exception cause) {
        return new TributaryException("delta table " + tablePath + ": batch " + batchId + " of sink " + appId + " lost a race "
                + "with another writer (" + why + "); only one sink may write a table: stop the other writer and run again "
                + "(nothing of this batch was committed)", cause);
    }

    /** When a batch lost to another instance; {@code why} says what it lost. */
    public static BatchSuperseded lostToInstance(String tablePath, long batchId, String appId, String why, Exception cause) {
        return new BatchSuperseded("delta table " + tablePath + ": batch " + batchId + " of " + appId + " lost " + why
                + "; the batch is not committed", cause);
    }

    /** When the table the sink expected offsets in does not exist. */
    public static TributaryException tableDeleted(String tablePath, String appId, Map<?, ?> expectedStart) {
        return new TributaryException("delta table " + tablePath + " does not exist, but sink " + appId + " expected it to "
                + "hold offsets " + expectedStart + " (was the table deleted while the sink ran?); restart the sink to write "
                + "the topic again from its beginning");
    }

    /** When another writer created the table while the batch started. */
    public static StaleBatchException createdByAnotherWriter(String tablePath, String writerId, KernelException cause) {
        return new StaleBatchException("delta table " + tablePath + " was created by another writer while " + writerId
                + " started its batch; nothing of it was committed: read the table's offsets again", cause);
    }

    /** When a partition commit cannot start. */
    public static TributaryException cannotStartPartitionCommit(String tablePath, String writerId, String message,
                                                                KernelException cause) {
        return new TributaryException("delta table " + tablePath + ": cannot start a commit for " + writerId + ": " + message,
                cause);
    }

    /** When the batch to commit does not follow the table's last batch of the sink; {@code last} is negative when there is none. */
    public static TributaryException batchOutOfSequence(String tablePath, String appId, long batchId, long last) {
        return new TributaryException("delta table " + tablePath + ": sink " + appId + " is about to commit batch " + batchId
                + " but the table's last batch of this sink is " + (last < 0 ? "none" : String.valueOf(last))
                + "; batches must follow one another: restart the sink so it resumes from the table");
    }

    /** When another instance created the table while the batch was read. */
    public static BatchSuperseded createdByAnotherInstance(String tablePath, long batchId, String appId, KernelException cause) {
        return new BatchSuperseded("delta table " + tablePath + " was created by another instance while batch " + batchId
                + " of " + appId + " was read; the batch is not committed", cause);
    }

    /** When a batch's commit cannot start. */
    public static TributaryException cannotStartCommit(String tablePath, long batchId, String appId, String message,
                                                       KernelException cause) {
        return new TributaryException("delta table " + tablePath + ": cannot start a commit for batch " + batchId + " of sink "
                + appId + ": " + message, cause);
    }

    /** When interrupted while joining the consumer group. */
    public static TributaryException interruptedJoining(String group, InterruptedException cause) {
        return new TributaryException("interrupted while joining group " + group, cause);
    }

    /** When the sink's instance was fenced and stopped. */
    public static TributaryException instanceStopped(String instanceId, String fencedBy) {
        return new TributaryException("the sink's instance " + instanceId + " stopped: " + fencedBy);
    }

    /** When the sink's membership of its group failed. */
    public static TributaryException membershipFailed(String group, String failureMessage, RuntimeException failure) {
        return new TributaryException("the sink's membership of group " + group + " failed: " + failureMessage, failure);
    }

    /** When interrupted while pausing between commit attempts. */
    public static TributaryException interruptedCommitting(InterruptedException cause) {
        return new TributaryException("interrupted while committing to a shared table", cause);
    }

    /** When a batch lost a commit race with another writer; running again resolves it. */
    public static TributaryException lostRaceRunAgain(String table, long batchId, String appId, String message,
                                                      ConcurrentWriteException cause) {
        return new TributaryException("delta table " + table + ": batch " + batchId + " of sink " + appId + " lost a race "
                + "with another writer (" + message + "); nothing of this batch was committed: run again", cause);
    }

    /** When a batch lost every commit attempt to other instances. */
    public static BatchSuperseded attemptsLostToInstances(String table, long batchId, String appId, int attempts) {
        return new BatchSuperseded("delta table " + table + ": batch " + batchId + " of " + appId + " lost " + attempts
                + " commit attempts in a row to other instances; the batch is not committed", null);
    }

    /** When a batch lost every commit attempt to other writers whose files may hold its keys. */
    public static TributaryException attemptsLostToWriters(String table, long batchId, String appId, int attempts) {
        return new TributaryException("delta table " + table + ": batch " + batchId + " of sink " + appId + " lost " + attempts
                + " commit attempts in a row to other writers whose files may hold the batch's keys; nothing of this batch "
                + "was committed. Stop the other writers of this table (or give them other keys), then run again");
    }

    /** When a partition commit failed with a storage error and may have landed; {@code what} names the commit. */
    public static StaleBatchException partitionCommitUnknown(String tablePath, String what, String message,
                                                             CommitStateUnknownException cause) {
        return new StaleBatchException("delta table " + tablePath + ": " + what + " failed with a storage error and may or "
                + "may not have landed (" + message + "): read the table's offsets again", cause);
    }

    /** When a partition commit lost every attempt to other writers. */
    public static StaleBatchException partitionAttemptsExhausted(String tablePath, String what, int attempts) {
        return new StaleBatchException("delta table " + tablePath + ": " + what + " lost " + attempts + " commit attempts in "
                + "a row to other writers; nothing of it was committed: read the table's offsets again", null);
    }

    /** When a batch's commit failed with a storage error and did not land. */
    public static TributaryException commitDidNotLand(String tablePath, long batchId, String appId, String message,
                                                      CommitStateUnknownException cause) {
        return new TributaryException("delta table " + tablePath + ": the commit of batch " + batchId + " of sink " + appId
                + " failed with a storage error and did not land (" + message + "); nothing was committed, run again", cause);
    }

    /** When the table is written by another sink. */
    public static TributaryException ownedByAnotherSink(String tablePath, String appId, String owner) {
        return new TributaryException("delta table " + tablePath + " is written by sink '" + appId + "', not '" + owner
                + "'; give each sink its own table path");
    }

    /** When the table's offsets of the sink are not where the batch starts. */
    public static TributaryException offsetsStale(String tablePath, long version, Map<?, ?> actual, String appId,
                                                  Map<?, ?> expectedStart) {
        return new TributaryException("delta table " + tablePath + " (version " + version + ") holds offsets " + actual
                + " for sink " + appId + ", but this batch starts at " + expectedStart + "; another writer changed the table "
                + "or this sink's state is stale: restart the sink so it resumes from the table");
    }

    /** When partitions of a shared table moved on since the batch started. */
    public static BatchSuperseded partitionsMovedOn(String tablePath, long version, Set<?> keySet, Map<?, ?> moved, long batchId,
                                                    String appId, Map<?, ?> expectedStart) {
        return new BatchSuperseded("delta table " + tablePath + " (version " + version + "): partition(s) " + keySet
                + " moved on to offsets " + moved + " since batch " + batchId + " of " + appId + " started from "
                + expectedStart + ": another instance owns them now; the batch is not committed", null);
    }

    /** A shared sink of several topics numbered a topic-partition otherwise than another instance's commit did. */
    public static BatchSuperseded numberedOtherwise(String tablePath, long version, int number, Object partition, Object tableHas,
                                                    Integer tableNumber) {
        return new BatchSuperseded("delta table " + tablePath + " (version " + version + ") numbers the source's topic-partitions"
                + " otherwise than this batch (" + number + " for " + partition + ", the table: "
                + (tableHas != null ? number + " for " + tableHas : tableNumber + " for " + partition)
                + "): another instance numbered them first; the batch is not committed", null);
    }

    /** When interrupted while writing a batch. */
    public static TributaryException interruptedWriting(String tablePath, long batchId, InterruptedException cause) {
        return new TributaryException("delta table " + tablePath + ": interrupted while writing batch " + batchId, cause);
    }

    /** When the Parquet files of a batch cannot be written. */
    public static TributaryException cannotWriteParquet(String tablePath, long batchId, String appId, Throwable failure) {
        return new TributaryException("delta table " + tablePath + ": cannot write the Parquet files of batch " + batchId
                + " of sink " + appId + ": " + failure, failure);
    }
}
