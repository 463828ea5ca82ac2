package io.tributary.sink.internal;

import io.delta.kernel.TransactionCommitResult;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.hook.PostCommitHook;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Runs what Kernel leaves to the committer: the checksum, and every {@code delta.checkpointInterval} commits a checkpoint and log clean-up. */
public final class PostCommitHooks {
    private static final Logger LOG = LoggerFactory.getLogger(PostCommitHooks.class);

    private PostCommitHooks() {
    }

    /** Runs every hook of {@code result}; a failed hook is logged (the commit stands, Kernel tries again at a later version). */
    public static void run(Engine engine, String tablePath, TransactionCommitResult result) {
        for (PostCommitHook hook : result.getPostCommitHooks()) {
            try {
                hook.threadSafeInvoke(engine);
            } catch (Exception | LinkageError e) {
                LOG.warn("delta table {}: post-commit {} after version {} failed (the commit stands; Kernel tries again at a later version): {}",
                        tablePath, hook.getType(), result.getVersion(), e.toString());
            }
        }
    }
}
