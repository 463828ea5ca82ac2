package io.tributary.broker;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.server.util.ShutdownableThread;

/**
 * Wakes, while the embedded broker stops, the threads of Kafka's that would otherwise finish a wait
 * of their own before they stop. KRaft's {@code raft-expiration-reaper} polls its timer for 200 ms at
 * a time and cannot be interrupted, so the controller's stop waited out half of that on average (up to
 * all of it) after asking it to stop. Interrupted once its stop has been asked for, it ends at once:
 * Kafka's {@link ShutdownableThread} takes an exception then for the end of its loop, not an error.
 * A thread still running is never interrupted.
 */
final class ShutdownNudge implements AutoCloseable {
    /** The threads woken: Kafka's names for them, which {@code EmbeddedBrokerTest} checks are still there. */
    static final Set<String> NAMES = Set.of("raft-expiration-reaper");
    private static final long POLL_NANOS = 1_000_000;

    private final List<ShutdownableThread> waiting;
    private final Thread watcher;
    private volatile boolean done;

    private ShutdownNudge(List<ShutdownableThread> waiting) {
        this.waiting = waiting;
        this.watcher = new Thread(this::watch, "embedded-broker-stop");
        watcher.setDaemon(true);
    }

    /** Starts watching the broker's threads of {@link #NAMES}; close it once the broker has stopped. */
    static ShutdownNudge start() {
        ShutdownNudge nudge = new ShutdownNudge(threads());
        if (!nudge.waiting.isEmpty()) {
            nudge.watcher.start();
        }
        return nudge;
    }

    /** The live threads of {@link #NAMES} in this JVM. */
    static List<ShutdownableThread> threads() {
        ThreadGroup root = Thread.currentThread().getThreadGroup();
        while (root.getParent() != null) {
            root = root.getParent();
        }
        Thread[] all = new Thread[root.activeCount() + 16];
        int n = root.enumerate(all, true);
        List<ShutdownableThread> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (all[i] instanceof ShutdownableThread t && NAMES.contains(t.getName()) && t.isAlive()) {
                out.add(t);
            }
        }
        return out;
    }

    private void watch() {
        List<ShutdownableThread> left = new ArrayList<>(waiting);
        while (!done && !left.isEmpty()) {
            left.removeIf(t -> {
                if (!t.isAlive()) {
                    return true;
                }
                if (t.isShutdownInitiated()) {
                    t.interrupt();
                    return true;
                }
                return false;
            });
            LockSupport.parkNanos(POLL_NANOS);
        }
    }

    @Override
    public void close() {
        done = true;
    }
}
