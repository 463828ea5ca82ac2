package io.tributary.service;

import io.tributary.service.http.ServiceEndpoints;
import io.tributary.service.internal.Pipeline;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * SIGTERM (or Ctrl-C) asks the run loop to stop after the batch in flight; the command then closes
 * the stages and {@link Main} ends the process with exit code 0. The hook thread waits for that
 * and never returns first (a returning hook would let the JVM exit with 143 mid-close); if the
 * batch and the close take longer than {@link #GRACE}, the process exits with 143 and the next
 * start redoes the batch (each stage resumes from its committed position).
 */
final class GracefulStop {
    private static final Logger LOG = LoggerFactory.getLogger(GracefulStop.class);
    /** How long a stop may take: the batch in flight, then closing the stages and the broker. */
    static final Duration GRACE = Duration.ofSeconds(60);

    private final ServiceEndpoints endpoints;
    private final Thread hook;
    private final CountDownLatch never = new CountDownLatch(1);
    private volatile Pipeline pipeline;
    private volatile boolean requested;

    private GracefulStop(ServiceEndpoints endpoints) {
        this.endpoints = endpoints;
        this.hook = new Thread(this::onSignal, "tributary-shutdown");
    }

    static GracefulStop install(ServiceEndpoints endpoints) {
        GracefulStop s = new GracefulStop(endpoints);
        Runtime.getRuntime().addShutdownHook(s.hook);
        return s;
    }

    /** The pipeline to stop; stops it at once if the signal came while it was opening. */
    void attach(Pipeline opened) throws InterruptedException {
        pipeline = opened;
        if (requested) {
            opened.stop(Duration.ZERO);
        }
    }

    /** True once a signal asked the process to stop. */
    boolean requested() {
        return requested;
    }

    private void onSignal() {
        requested = true;
        endpoints.stopping();
        long t0 = System.nanoTime();
        LOG.info("stopping (signal): finishing the batch in flight");
        try {
            Pipeline p = pipeline;
            if (p != null && !p.stop(GRACE)) {
                LOG.warn("the batch in flight did not finish within {} s; exiting without it (the next start redoes it)", GRACE.toSeconds());
                return;
            }
            // the command closes the stages and Main halts the JVM with its exit code; until then, hold the exit
            long left = GRACE.toNanos() - (System.nanoTime() - t0);
            if (!never.await(Math.max(left, 0), TimeUnit.NANOSECONDS)) {
                LOG.warn("closing the pipeline took longer than {} s; exiting", GRACE.toSeconds());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The run ended by itself: no hook needed any more (unless a signal already started it). */
    void uninstall() {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // a signal ended the run: the hook holds the exit until Main halts the JVM
        }
    }
}
