package io.tributary.sink.maintenance;

import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Compaction after every N sink commits ({@code sink.delta.optimizeEvery}), in a background thread
 * so the sink keeps committing: Kernel rebases the sink's appends over the compaction and the
 * compaction redoes its work if a commit removed a file it compacts. At most one compaction runs at
 * a time; a due compaction while one runs is skipped (the next one catches up).
 */
public final class AutoOptimize implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(AutoOptimize.class);

    private final String tablePath;
    private final int every;
    private final OptimizeOptions options;
    private final ExecutorService executor;
    private long commits;
    private Future<OptimizeResult> running;
    private volatile OptimizeResult last;

    /** @param every compact after every {@code every} commits; 0 turns it off */
    public AutoOptimize(String tablePath, int every, OptimizeOptions options) {
        if (every < 0) {
            throw MaintenanceErrors.badOptimizeEvery(every);
        }
        this.tablePath = tablePath;
        this.every = every;
        this.options = options;
        this.executor = every == 0 ? null : Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "tributary-optimize");
            t.setDaemon(true);
            return t;
        });
    }

    /** Call after each commit of the sink; starts a compaction on every N-th. */
    public synchronized void afterCommit() {
        if (every == 0 || ++commits % every != 0) {
            return;
        }
        if (running != null && !running.isDone()) {
            LOG.info("optimize {}: due after {} commits, but the previous compaction still runs; skipped", tablePath, commits);
            return;
        }
        running = executor.submit(() -> {
            try {
                OptimizeResult r = Optimize.run(tablePath, options);
                last = r;
                return r;
            } catch (RuntimeException e) {
                LOG.warn("optimize {}: automatic compaction failed, the table is unchanged; the next one tries again: {}", tablePath, e.toString());
                throw e;
            }
        });
    }

    /** The last finished compaction's result, if any. */
    public Optional<OptimizeResult> lastResult() {
        return Optional.ofNullable(last);
    }

    /** Waits for a running compaction to end (up to a minute), then stops the thread. */
    @Override
    public void close() {
        if (executor == null) {
            return;
        }
        executor.shutdown();
        try {
            if (!executor.awaitTermination(1, TimeUnit.MINUTES)) {
                LOG.warn("optimize {}: a compaction still runs after a minute; stopping without it (its files are left for vacuum)", tablePath);
                executor.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            executor.shutdownNow();
        }
    }
}
