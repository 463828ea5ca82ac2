package io.tributary.sink.internal;

import io.tributary.delta.kernel.KernelInternals;
import io.delta.kernel.Snapshot;
import io.delta.kernel.TableManager;
import io.delta.kernel.TransactionCommitResult;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.hook.PostCommitHook;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs what Kernel leaves to the committer: the checksum, and every {@code delta.checkpointInterval}
 * commits a checkpoint and log clean-up. A table with the {@code v2Checkpoint} feature gets no
 * checkpoint: Kernel 4.4 writes only classic checkpoints without the {@code checkpointMetadata}
 * action that table's checkpoints carry ({@link SinkTableFeatures#kernelCheckpoints}), so it is left
 * to Spark (or another Delta writer) to checkpoint it.
 */
public final class PostCommitHooks {
    private static final Logger LOG = LoggerFactory.getLogger(PostCommitHooks.class);

    private PostCommitHooks() {
    }

    /** Runs every hook of {@code result}; a failed hook is logged (the commit stands, Kernel tries again at a later version). */
    public static void run(Engine engine, String tablePath, TransactionCommitResult result) {
        boolean checkpointed = false;
        for (PostCommitHook hook : result.getPostCommitHooks()) {
            try {
                if (hook.getType() == PostCommitHook.PostCommitHookType.CHECKPOINT && !kernelCheckpoints(engine, tablePath, result)) {
                    LOG.info("delta table {}: no checkpoint at version {}: the table has v2 checkpoints (table feature v2Checkpoint), "
                            + "which Delta Kernel 4.4 cannot write; Spark's next checkpoint covers these versions", tablePath, result.getVersion());
                    continue;
                }
                hook.threadSafeInvoke(engine);
                checkpointed |= hook.getType() == PostCommitHook.PostCommitHookType.CHECKPOINT;
            } catch (Exception | LinkageError e) {
                LOG.warn("delta table {}: post-commit {} after version {} failed (the commit stands; Kernel tries again at a later version): {}",
                        tablePath, hook.getType(), result.getVersion(), e.toString());
            }
        }
        if (checkpointed) {
            cleanUpLog(engine, tablePath, result.getVersion());
        }
    }

    private static boolean kernelCheckpoints(Engine engine, String tablePath, TransactionCommitResult result) {
        Snapshot snapshot = result.getPostCommitSnapshot()
                .orElseGet(() -> TableManager.loadSnapshot(tablePath).atVersion(result.getVersion()).build(engine));
        return SinkTableFeatures.kernelCheckpoints(snapshot);
    }

    /** Log clean-up per {@code delta.logRetentionDuration}, which Kernel's checkpoint hook skips (see {@link KernelInternals#cleanUpExpiredLogs}). */
    private static void cleanUpLog(Engine engine, String tablePath, long version) {
        try {
            var latest = TableSnapshots.latest(engine, tablePath);
            if (latest.isPresent()) {
                long deleted = KernelInternals.cleanUpExpiredLogs(engine, latest.get());
                if (deleted > 0) {
                    LOG.info("delta table {}: checkpoint at version {}; {} log files past delta.logRetentionDuration deleted", tablePath, version, deleted);
                }
            }
        } catch (Exception e) {
            LOG.warn("delta table {}: log clean-up after the checkpoint at version {} failed (the table is fine; the next checkpoint tries again): {}",
                    tablePath, version, e.toString());
        }
    }
}
