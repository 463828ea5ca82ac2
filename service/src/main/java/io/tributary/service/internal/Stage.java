package io.tributary.service.internal;

import io.tributary.schema.Progress;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One stage of a pipeline as the run loop drives it: a batch at a time. */
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

    Stage(String name, Batch batch, AutoCloseable resource) {
        this(name, batch, resource, null);
    }

    /** @param idle the progress of a trigger that found nothing to do (Spark's run 2 line), or null */
    Stage(String name, Batch batch, AutoCloseable resource, java.util.function.Supplier<Progress> idle) {
        this.name = name;
        this.batch = batch;
        this.resource = resource;
        this.idle = idle;
    }

    Optional<Progress> idleProgress() {
        return idle == null ? Optional.empty() : Optional.of(idle.get());
    }

    String name() {
        return name;
    }

    AutoCloseable resource() {
        return resource;
    }

    Optional<Progress> runBatch() throws Exception {
        return batch.run();
    }

    @Override
    public void close() {
        try {
            resource.close();
        } catch (Exception e) {
            LOG.warn("closing stage {}: {}", name, e.toString());
        }
    }
}
