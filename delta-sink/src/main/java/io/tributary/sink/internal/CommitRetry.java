package io.tributary.sink.internal;

import java.util.concurrent.ThreadLocalRandom;

/**
 * How often a batch's commit is tried again on top of other writers' commits, and how long a
 * writer waits between two tries when instances share the table: the limits both committers
 * ({@link AppendCommitter}, {@link RewriteCommitter}) keep.
 */
final class CommitRetry {
    /** Commits of one batch on top of other writers' commits before it fails. */
    static final int MAX_COMMIT_TRIES = 10;
    /** As {@link #MAX_COMMIT_TRIES}, for instances that share the table ({@link DeltaTableWriter#shareOffsets}), whose commits often meet. */
    static final int MAX_SHARED_COMMIT_TRIES = 50;

    private CommitRetry() {
    }

    /** Commits of one batch on top of other writers' before it gives up: more when instances share the table's commits. */
    static int maxTries(OffsetFence fence) {
        return fence.shared() ? MAX_SHARED_COMMIT_TRIES : MAX_COMMIT_TRIES;
    }

    /** Instances that lost a commit to each other try again after a short random pause, so that they do not collide again and again. */
    static void pause(int tries) {
        try {
            Thread.sleep(ThreadLocalRandom.current().nextLong(5, 20L * Math.min(tries, 5) + 6));
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
            throw CommitErrors.interruptedCommitting(ie);
        }
    }
}
