package io.tributary.schema;

import java.util.Optional;

/**
 * A stage of a pipeline as the service runs it (file-ingest, delta-source, the aggregation, the
 * Delta sink): one batch at a time, each reading what an upstream stage committed to a topic (or
 * the input) and committing its own output. Each stage's runner is made by its own builder or
 * constructor from its config; the service only drives this interface.
 */
public interface PipelineStage extends AutoCloseable {
    /** The {@code name} of its progress records, e.g. {@code quickstart/ingest}. */
    String stageName();

    /** Runs one batch of what is available now; empty when there was nothing to do. */
    Optional<Progress> runBatch() throws Exception;

    /** The progress of a trigger that found nothing to do (Spark's idle progress line); empty for a stage that reports none. */
    default Optional<Progress> idleProgress() {
        return Optional.empty();
    }

    /** This instance's share of the stage's work when instances share the pipeline; empty when there is nothing to say. */
    default Optional<StageShare> workShare() {
        return Optional.empty();
    }

    /** Releases the stage's clients and engines; a batch under way is abandoned, never half committed. */
    @Override
    void close();
}
