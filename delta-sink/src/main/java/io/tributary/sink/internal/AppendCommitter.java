package io.tributary.sink.internal;

import io.delta.kernel.Snapshot;
import io.delta.kernel.TableManager;
import io.delta.kernel.Transaction;
import io.delta.kernel.TransactionCommitResult;
import io.delta.kernel.data.Row;
import io.delta.kernel.exceptions.CommitStateUnknownException;
import io.delta.kernel.exceptions.ConcurrentTransactionException;
import io.delta.kernel.exceptions.ConcurrentWriteException;
import io.delta.kernel.exceptions.MaxCommitRetryLimitReachedException;
import io.tributary.delta.kernel.KernelInternals;
import io.tributary.schema.CrashPoint;
import io.tributary.schema.TributaryException;
import io.tributary.sink.SinkOffsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits the files an {@link AppendStream} wrote: a sink's batch with its {@code txn} and offsets,
 * committed again on top of other writers' commits that leave it valid ({@link CommitRetry}), or a
 * partition writer's files with its domain metadata and no {@code txn}.
 */
final class AppendCommitter {
    private static final Logger LOG = LoggerFactory.getLogger(AppendCommitter.class);

    private final DeltaTableWriter writer;

    AppendCommitter(DeltaTableWriter writer) {
        this.writer = writer;
    }

    /** Commits {@code actions} with the domain metadata {@code domains} and no txn (see {@link DeltaTableWriter#openPartitionAppend}). */
    CommitResult commitPartitions(Transaction txn, String writerId, List<Row> actions, Map<String, String> domains, long rows,
                                  long writeNanos) {
        String tablePath = writer.tablePath();
        domains.forEach(txn::addDomainMetadata);
        long t1 = System.nanoTime();
        TransactionCommitResult result;
        try {
            result = txn.commit(writer.engine(), Iterators.iterable(actions));
        } catch (ConcurrentWriteException e) {
            throw CommitErrors.commitOvertaken(tablePath, writerId, rows, e.getMessage(), e);
        } catch (CommitStateUnknownException e) {
            throw CommitErrors.commitUnknown(tablePath, writerId, e.getMessage(), e);
        }
        long t2 = System.nanoTime();
        writer.runHooks(result);
        LOG.info("delta table {}: version {} committed by {}: {} rows in {} files", tablePath, result.getVersion(), writerId, rows, actions.size());
        return new CommitResult(true, result.getVersion(), actions.size(), ms(writeNanos), ms(t2 - t1), ms(System.nanoTime() - t2),
                Map.of("numOutputBytes", addedBytes(actions)));
    }

    /**
     * Commits the files {@code actions} add as the claim's batch, with {@code next}; {@code writeNanos}
     * went into writing them. {@code txn} was built on {@code claim.base()}.
     */
    CommitResult commitAppend(Transaction txn, AppendStream.Claim claim, List<Row> actions, SinkOffsets next, long rows,
                              long writeNanos) {
        String tablePath = writer.tablePath();
        OffsetFence fence = writer.fence();
        String appId = claim.appId();
        long batchId = claim.batchId();
        txn.addDomainMetadata(SinkOffsets.DOMAIN, fence.domainJson(claim.base(), next));
        long t1 = System.nanoTime();
        TransactionCommitResult result = null;
        CrashPoint.reach(CrashPoint.SINK_BEFORE_COMMIT);
        try {
            Transaction current = txn;
            for (int tries = 1; result == null; tries++) {
                try {
                    result = current.commit(writer.engine(), Iterators.iterable(actions));
                } catch (MaxCommitRetryLimitReachedException e) {
                    Optional<Transaction> onTop = onTopOfNewCommits(current, claim, next, tries, e);
                    if (onTop.isEmpty()) {
                        LOG.info("delta table {}: batch {} of {} was committed concurrently; writing nothing", tablePath, batchId, appId);
                        return CommitResult.alreadyCommitted(writer.latestSnapshot().map(Snapshot::getVersion).orElse(-1L));
                    }
                    current = onTop.get();
                }
            }
            CrashPoint.reach(CrashPoint.SINK_AFTER_COMMIT);
        } catch (ConcurrentTransactionException e) {
            LOG.info("delta table {}: batch {} of {} was committed concurrently; writing nothing", tablePath, batchId, appId);
            return CommitResult.alreadyCommitted(writer.latestSnapshot().map(Snapshot::getVersion).orElse(-1L));
        } catch (CommitStateUnknownException e) {
            return UnknownCommits.resolve(writer, appId, batchId, e);
        } catch (ConcurrentWriteException e) {
            if (fence.shared()) { // another instance created the table, or changed what the batch relies on: read it again
                throw CommitErrors.lostRaceToInstance(tablePath, batchId, appId, e.getMessage(), e);
            }
            throw CommitErrors.lostRaceToWriter(tablePath, batchId, appId, e.getMessage(), e);
        }
        long t2 = System.nanoTime();
        writer.runHooks(result);
        long t3 = System.nanoTime();
        LOG.info("delta table {}: version {} committed, batch {} of {}: {} rows in {} files",
                tablePath, result.getVersion(), batchId, appId, rows, actions.size());
        return new CommitResult(true, result.getVersion(), actions.size(), ms(writeNanos), ms(t2 - t1), ms(t3 - t2),
                Map.of("numOutputBytes", addedBytes(actions)));
    }

    /**
     * After another writer took the version a batch's commit meant to take (an {@code optimize},
     * most often): a transaction that commits the same files on top of the new versions, as Kernel's
     * own retry would, once they are shown not to conflict: the batch is not in the table yet, the
     * sink's offsets and the table's schema, partitioning, properties and protocol are as the batch
     * read them. Empty if the batch is in the table already (its files stay uncommitted).
     *
     * @throws TributaryException if another writer changed what the batch relies on, or kept winning
     */
    private Optional<Transaction> onTopOfNewCommits(Transaction lost, AppendStream.Claim claim, SinkOffsets next, int tries,
                                                    MaxCommitRetryLimitReachedException e) {
        String tablePath = writer.tablePath();
        OffsetFence fence = writer.fence();
        String appId = claim.appId();
        long batchId = claim.batchId();
        Snapshot latest = writer.latestSnapshot().orElseThrow(() -> lostRace(appId, batchId, "the table disappeared", e));
        Optional<Long> txn = latest.getLatestTransactionVersion(writer.engine(), appId);
        if (txn.isPresent() && txn.get() >= batchId) {
            return Optional.empty();
        }
        if (lost.getReadTableVersion() < 0 || tries >= CommitRetry.maxTries(fence)) {
            throw lostRace(appId, batchId, "another writer kept committing first", e);
        }
        Snapshot read = TableManager.loadSnapshot(tablePath).atVersion(lost.getReadTableVersion()).build(writer.engine());
        if (fence.shared()) {
            fence.check(latest, tablePath, appId, batchId, claim.expectedStart()); // the other instances' commits leave the batch's partitions alone
            CommitRetry.pause(tries);
        } else if (!read.getDomainMetadata(SinkOffsets.DOMAIN).equals(latest.getDomainMetadata(SinkOffsets.DOMAIN))) {
            throw lostRace(appId, batchId, "another writer changed the sink's offsets", e);
        }
        if (!read.getSchema().equals(latest.getSchema()) || !read.getPartitionColumnNames().equals(latest.getPartitionColumnNames())
                || !read.getTableProperties().equals(latest.getTableProperties())
                || !KernelInternals.protocol(read).equals(KernelInternals.protocol(latest))) {
            throw lostRace(appId, batchId, "another writer changed the table's schema, partitioning, properties or protocol", e);
        }
        LOG.info("delta table {}: version {} was committed by another writer while batch {} of {} was written; committing the batch on top of it",
                tablePath, latest.getVersion(), batchId, appId);
        Transaction onTop;
        try {
            onTop = writer.build(Optional.of(latest), appId, batchId, 0);
        } catch (IllegalStateException raced) {
            if (raced.getCause() instanceof ConcurrentTransactionException) {
                return Optional.empty(); // the batch landed between the check above and this build
            }
            throw raced;
        }
        onTop.addDomainMetadata(SinkOffsets.DOMAIN, fence.domainJson(Optional.of(latest), next));
        return Optional.of(onTop);
    }

    private TributaryException lostRace(String appId, long batchId, String why, Exception cause) {
        String tablePath = writer.tablePath();
        if (writer.fence().shared()) {
            return CommitErrors.lostToInstance(tablePath, batchId, appId, why, cause);
        }
        return CommitErrors.lostRaceToWriter(tablePath, batchId, appId, why, cause);
    }

    /** The bytes of the data files that {@code add} actions add (Delta's {@code numOutputBytes}). */
    private static long addedBytes(List<Row> actions) {
        long bytes = 0;
        for (Row action : actions) {
            int i = action.getSchema().indexOf("add");
            if (i >= 0 && !action.isNullAt(i)) {
                Row add = action.getStruct(i);
                bytes += add.getLong(add.getSchema().indexOf("size"));
            }
        }
        return bytes;
    }

    private static long ms(long nanos) {
        return nanos / 1_000_000;
    }
}
