package io.tributary.sink.internal;

import io.delta.kernel.Snapshot;
import io.delta.kernel.Transaction;
import io.delta.kernel.TransactionCommitResult;
import io.delta.kernel.exceptions.CommitStateUnknownException;
import io.delta.kernel.exceptions.ConcurrentTransactionException;
import io.delta.kernel.exceptions.ConcurrentWriteException;
import io.delta.kernel.exceptions.MaxCommitRetryLimitReachedException;
import io.tributary.schema.CrashPoint;
import io.tributary.sink.SinkOffsets;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits a batch that removes and adds files (upsert, complete replace) exactly once, and safely
 * next to other writers. Kernel's conflict check "fully supports only blind appends": it would
 * rebase this commit over a concurrent append that added a row with one of the batch's keys, and
 * the table would then hold the key twice. So the commit is built with no retries: any commit
 * that lands between the snapshot the plan read and this commit fails it. The committer then
 * re-runs the plan's scan filter on the new snapshot: if no new file may hold one of the batch's
 * keys and every file the plan read is still there with the same deletion vector, the same
 * actions are committed on the new snapshot; otherwise the batch is planned again (files read and
 * written again; the first attempt's Parquet files stay as orphans until a VACUUM). After {@value #MAX_ATTEMPTS} attempts it fails.
 */
final class RewriteCommitter {
    private static final Logger LOG = LoggerFactory.getLogger(RewriteCommitter.class);
    static final int MAX_ATTEMPTS = 10;

    /** Plans a batch on a snapshot (empty: no table yet), writing its Parquet files through {@code txn}. */
    interface Planner {
        RewritePlan plan(Optional<Snapshot> snapshot, Transaction txn);
    }

    /** Called after planning, before the commit: a test seam for a concurrent writer. */
    interface BeforeCommit {
        void run(int attempt);
    }

    private final DeltaTableWriter writer;
    private final BeforeCommit beforeCommit;

    RewriteCommitter(DeltaTableWriter writer) {
        this(writer, attempt -> { });
    }

    RewriteCommitter(DeltaTableWriter writer, BeforeCommit beforeCommit) {
        this.writer = writer;
        this.beforeCommit = beforeCommit;
    }

    /**
     * What a rewrite commits besides its files, and what it checks first: the sink's {@code txn}
     * and offsets ({@link #commit(String, long, Planner, Map, SinkOffsets)}), or the per-partition
     * offsets of a {@link io.tributary.sink.PartitionSink} writer.
     */
    interface Claim {
        /**
         * Checks the table ({@code snapshot}, empty: none yet) before an attempt: a result when the
         * batch is in the table already, else empty; throws when the batch may not commit on it.
         */
        Optional<CommitResult> check(Optional<Snapshot> snapshot);

        /** A transaction on {@code snapshot} that any concurrent commit fails, carrying the claim's txn and domain metadata. */
        Transaction build(Optional<Snapshot> snapshot);

        /** True when other writers commit to the table as a matter of course (instances, tasks): more attempts, a pause between. */
        boolean shared();

        /** The commit failed with a storage error: what the table says of the batch. */
        CommitResult unknown(CommitStateUnknownException e);

        /** Another writer changed the table's metadata or created it meanwhile: the failure to throw, or null to try again. */
        RuntimeException lostRace(ConcurrentWriteException e);

        /** The failure after {@code attempts} attempts lost to other writers. */
        RuntimeException exhausted(int attempts);

        /** The batch as the log names it, e.g. "batch 3 of orders". */
        String what();
    }

    CommitResult commit(String appId, long batchId, Planner planner, Map<Integer, Long> expectedStart, SinkOffsets next) {
        return commit(new SinkClaim(appId, batchId, expectedStart, next), planner);
    }

    /** Plans and commits a batch as {@code claim} says, planning it again when other writers' commits touched its files. */
    CommitResult commit(Claim claim, Planner planner) {
        String table = writer.tablePath();
        RewritePlan plan = null;
        long writeNanos = 0;
        int replans = 0;
        int maxAttempts = claim.shared() ? CommitRetry.MAX_SHARED_COMMIT_TRIES : MAX_ATTEMPTS;
        for (int attempt = 1; attempt <= maxAttempts; attempt++) {
            Optional<Snapshot> snapshot = writer.latestSnapshot();
            Optional<CommitResult> already = claim.check(snapshot);
            if (already.isPresent()) {
                return already.get();
            }
            Transaction txn = claim.build(snapshot);
            if (plan == null || !stillHolds(plan, snapshot)) {
                if (plan != null) {
                    replans++;
                    LOG.warn("delta table {}: another writer committed up to version {} while {} was planned on version {}, "
                            + "with files that may hold the batch's keys; planning the batch again", table,
                            snapshot.map(Snapshot::getVersion).orElse(-1L), claim.what(), plan.readVersion());
                }
                long t0 = System.nanoTime();
                plan = planner.plan(snapshot, txn);
                writeNanos += System.nanoTime() - t0;
            }
            plan.domains().forEach(txn::addDomainMetadata);
            beforeCommit.run(attempt);
            CrashPoint.reach(CrashPoint.SINK_REWRITE_BEFORE_COMMIT);
            long t1 = System.nanoTime();
            TransactionCommitResult result;
            try {
                result = txn.commit(writer.engine(), Iterators.iterable(plan.actions()));
            } catch (MaxCommitRetryLimitReachedException e) {
                if (claim.shared()) {
                    CommitRetry.pause(attempt);
                }
                LOG.info("delta table {}: {}: another writer committed first; checking its files against the batch's keys",
                        table, claim.what());
                continue;
            } catch (ConcurrentTransactionException e) {
                LOG.info("delta table {}: {} was committed concurrently; writing nothing", table, claim.what());
                return CommitResult.alreadyCommitted(writer.latestSnapshot().map(Snapshot::getVersion).orElse(-1L));
            } catch (CommitStateUnknownException e) {
                return claim.unknown(e);
            } catch (ConcurrentWriteException e) {
                RuntimeException failure = claim.lostRace(e);
                if (failure != null) {
                    throw failure;
                }
                CommitRetry.pause(attempt);
                continue;
            }
            CrashPoint.reach(CrashPoint.SINK_REWRITE_AFTER_COMMIT);
            long t2 = System.nanoTime();
            writer.runHooks(result);
            long t3 = System.nanoTime();
            Map<String, Object> metrics = new java.util.LinkedHashMap<>(plan.metrics());
            metrics.put("commitAttempts", attempt);
            metrics.put("replans", replans);
            LOG.info("delta table {}: version {} committed, {}: {}", table, result.getVersion(), claim.what(), metrics);
            return new CommitResult(true, result.getVersion(), plan.filesAdded(), ms(writeNanos), ms(t2 - t1), ms(t3 - t2), metrics);
        }
        throw claim.exhausted(maxAttempts);
    }

    /** The sink's claim: batch {@code batchId} of txn appId {@code appId}, from the offsets {@code expectedStart} to {@code next}. */
    private final class SinkClaim implements Claim {
        private final String appId;
        private final long batchId;
        private final Map<Integer, Long> expectedStart;
        private final SinkOffsets next;

        SinkClaim(String appId, long batchId, Map<Integer, Long> expectedStart, SinkOffsets next) {
            this.appId = appId;
            this.batchId = batchId;
            this.expectedStart = expectedStart;
            this.next = next;
        }

        @Override
        public Optional<CommitResult> check(Optional<Snapshot> snapshot) {
            String table = writer.tablePath();
            if (snapshot.isPresent()) {
                Optional<Long> txn = snapshot.get().getLatestTransactionVersion(writer.engine(), appId);
                if (txn.isPresent() && txn.get() >= batchId) {
                    LOG.info("delta table {}: batch {} of {} is already committed (txn version {}); writing nothing", table, batchId, appId, txn.get());
                    return Optional.of(CommitResult.alreadyCommitted(snapshot.get().getVersion()));
                }
                writer.checkState(snapshot.get(), appId, batchId, txn, expectedStart);
            } else if (!writer.fence().claimsNothing(expectedStart)) {
                throw CommitErrors.tableDeleted(table, appId, expectedStart);
            }
            return Optional.empty();
        }

        @Override
        public Transaction build(Optional<Snapshot> snapshot) {
            Transaction txn = writer.build(snapshot, appId, batchId, 0);
            txn.addDomainMetadata(SinkOffsets.DOMAIN, writer.fence().domainJson(snapshot, next));
            return txn;
        }

        @Override
        public boolean shared() {
            return writer.fence().shared();
        }

        @Override
        public CommitResult unknown(CommitStateUnknownException e) {
            return UnknownCommits.resolve(writer, appId, batchId, e);
        }

        @Override
        public RuntimeException lostRace(ConcurrentWriteException e) {
            String table = writer.tablePath();
            if (shared()) {
                return CommitErrors.lostRaceToInstance(table, batchId, appId, e.getMessage(), e);
            }
            return CommitErrors.lostRaceRunAgain(table, batchId, appId, e.getMessage(), e);
        }

        @Override
        public RuntimeException exhausted(int attempts) {
            String table = writer.tablePath();
            if (shared()) {
                return CommitErrors.attemptsLostToInstances(table, batchId, appId, attempts);
            }
            return CommitErrors.attemptsLostToWriters(table, batchId, appId, attempts);
        }

        @Override
        public String what() {
            return "batch " + batchId + " of " + appId;
        }
    }

    /**
     * True if the plan, made on an older snapshot, holds on {@code latest}: no new file may hold its keys, none
     * it read is gone or has another deletion vector. A file is its path and its deletion vector: Spark's
     * {@code DELETE}, {@code UPDATE} and {@code MERGE} on a table with deletion vectors keep a file's path and
     * give it a new vector, and a {@code remove} of the file as the plan read it would leave the new one in the table.
     */
    private boolean stillHolds(RewritePlan plan, Optional<Snapshot> latest) {
        if (latest.isEmpty() || plan.filter() == null) {
            return latest.isEmpty() && plan.filter() == null;
        }
        if (!plan.domains().isEmpty() && latest.get().getVersion() != plan.readVersion()) {
            return false; // the domain metadata it sets was read on its version
        }
        if (latest.get().getVersion() == plan.readVersion()) {
            return true;
        }
        Set<String> now = FileScan.identities(writer.engine(), latest.get(), plan.filter());
        boolean holds = plan.readFiles().containsAll(now) && now.containsAll(plan.removedFiles());
        LOG.info("delta table {}: versions {}..{} committed by another writer {} files the batch's keys may be in",
                writer.tablePath(), plan.readVersion() + 1, latest.get().getVersion(), holds ? "touched none of the" : "changed");
        return holds;
    }

    private static long ms(long nanos) {
        return nanos / 1_000_000;
    }
}
