package io.tributary.sink.internal;

import io.delta.kernel.Snapshot;
import io.delta.kernel.exceptions.CommitStateUnknownException;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A commit that failed with a storage error may or may not have landed: the table's {@code txn}
 * of the sink says which. A batch the table holds is done; one it does not hold failed with
 * nothing committed, and runs again.
 */
final class UnknownCommits {
    private static final Logger LOG = LoggerFactory.getLogger(UnknownCommits.class);

    private UnknownCommits() {
    }

    /** The batch's result when the table holds batch {@code batchId} of {@code appId}; otherwise it fails, saying nothing landed. */
    static CommitResult resolve(DeltaTableWriter writer, String appId, long batchId, CommitStateUnknownException e) {
        String tablePath = writer.tablePath();
        Optional<Snapshot> snap = writer.latestSnapshot();
        Optional<Long> txn = snap.flatMap(s -> s.getLatestTransactionVersion(writer.engine(), appId));
        if (txn.isPresent() && txn.get() >= batchId) {
            LOG.info("delta table {}: commit state of batch {} was unknown; the table has it (txn {})", tablePath, batchId, txn.get());
            return CommitResult.alreadyCommitted(snap.get().getVersion());
        }
        throw CommitErrors.commitDidNotLand(tablePath, batchId, appId, e.getMessage(), e);
    }
}
