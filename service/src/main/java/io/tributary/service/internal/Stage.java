package io.tributary.service.internal;

import io.tributary.schema.Progress;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One stage of a pipeline as the run loop drives it: a batch at a time. A stage may still be
 * opening on another thread ({@link #opening}): its first use waits for it, so that the stages
 * before it run their first batch meanwhile.
 */
final class Stage implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Stage.class);

    /** Runs one batch of what is available now; empty when there was nothing to do. */
    interface Batch {
        Optional<Progress> run() throws Exception;
    }

    private final String name;
    private final Batch batch;
    private final AutoCloseable resource;
    private final java.util.function.Supplier<Progress> idle;
    /** The stage being opened, or null when this is it. */
    private final Future<Stage> opened;

    Stage(String name, Batch batch, AutoCloseable resource) {
        this(name, batch, resource, null);
    }

    /** @param idle the progress of a trigger that found nothing to do (Spark's run 2 line), or null */
    Stage(String name, Batch batch, AutoCloseable resource, java.util.function.Supplier<Progress> idle) {
        this.name = name;
        this.batch = batch;
        this.resource = resource;
        this.idle = idle;
        this.opened = null;
    }

    private Stage(String name, Future<Stage> opened) {
        this.name = name;
        this.batch = null;
        this.resource = null;
        this.idle = null;
        this.opened = opened;
    }

    /** The stage {@code opened} will give, named {@code name} before it is there. */
    static Stage opening(String name, Future<Stage> opened) {
        return new Stage(name, opened);
    }

    /** The opened stage: waits for it; a failed opening comes as an OpenFailed, which holds what the opening threw. */
    private Stage open() {
        if (opened == null) {
            return this;
        }
        try {
            return opened.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw ServiceErrors.interruptedOpeningStage(name, e);
        } catch (ExecutionException e) {
            throw new OpenFailed(e.getCause());
        }
    }

    /** A stage that could not open: not a batch to try again, whatever the cause. */
    static final class OpenFailed extends RuntimeException {
        OpenFailed(Throwable cause) {
            super(cause.getMessage(), cause);
        }

        /** What the opening threw, as it threw it. */
        RuntimeException unwrap() {
            if (getCause() instanceof RuntimeException r) {
                return r;
            }
            if (getCause() instanceof Error err) {
                throw err;
            }
            return ServiceErrors.cannotOpenPipeline(getCause());
        }
    }

    Optional<Progress> idleProgress() {
        Stage s = open();
        return s.idle == null ? Optional.empty() : Optional.of(s.idle.get());
    }

    String name() {
        return name;
    }

    /** The stage's resource (its ingest, aggregation or sink), once opened; null if its opening failed. */
    AutoCloseable resource() {
        try {
            return open().resource;
        } catch (OpenFailed e) {
            return null;
        }
    }

    /** The stage's resource if it is open now, else null; never waits for an opening. */
    AutoCloseable resourceIfOpen() {
        if (opened == null) {
            return resource;
        }
        if (!opened.isDone()) {
            return null;
        }
        return resource();
    }

    /** Runs a batch; throws {@link OpenFailed} if the stage could not open. */
    Optional<Progress> runBatch() throws Exception {
        return open().batch.run();
    }

    @Override
    public void close() {
        AutoCloseable r = resource();
        if (r == null) {
            return;
        }
        try {
            r.close();
        } catch (Exception e) {
            LOG.warn("closing stage {}: {}", name, e.toString());
        }
    }
}
