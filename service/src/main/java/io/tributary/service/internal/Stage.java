package io.tributary.service.internal;

import io.tributary.schema.PipelineStage;
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

    private final String name;
    /** The stage, or null while it is being opened. */
    private final PipelineStage stage;
    /** The stage being opened, or null when this is it. */
    private final Future<PipelineStage> opened;

    Stage(PipelineStage stage) {
        this.name = stage.stageName();
        this.stage = stage;
        this.opened = null;
    }

    private Stage(String name, Future<PipelineStage> opened) {
        this.name = name;
        this.stage = null;
        this.opened = opened;
    }

    /** The stage {@code opened} will give, named {@code name} before it is there. */
    static Stage opening(String name, Future<PipelineStage> opened) {
        return new Stage(name, opened);
    }

    /** The opened stage: waits for it; a failed opening comes as an OpenFailed, which holds what the opening threw. */
    private PipelineStage open() {
        if (opened == null) {
            return stage;
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
        return open().idleProgress();
    }

    String name() {
        return name;
    }

    /** The stage (its ingest, aggregation or sink), once opened; null if its opening failed. */
    PipelineStage resource() {
        try {
            return open();
        } catch (OpenFailed e) {
            return null;
        }
    }

    /** The stage if it is open now, else null; never waits for an opening. */
    PipelineStage resourceIfOpen() {
        if (opened == null) {
            return stage;
        }
        if (!opened.isDone()) {
            return null;
        }
        return resource();
    }

    /** Runs a batch; throws {@link OpenFailed} if the stage could not open. */
    Optional<Progress> runBatch() throws Exception {
        return open().runBatch();
    }

    @Override
    public void close() {
        PipelineStage r = resource();
        if (r == null) {
            return;
        }
        try {
            r.close();
        } catch (RuntimeException e) {
            LOG.warn("closing stage {}: {}", name, e.toString());
        }
    }
}
