package io.tributary.ingest;

import java.util.Map;

/** Collects how a {@link FileIngest} starts and how its run ends. */
public final class FileIngestBuilder {
    final IngestConfig config;
    final Map<String, Object> kafkaClientProps;
    FilesReadAhead readAhead;
    Runnable awaitTopics;
    boolean endsWhenIngested;
    boolean boundedRun;

    FileIngestBuilder(IngestConfig config, Map<String, Object> kafkaClientProps) {
        this.config = config;
        this.kafkaClientProps = kafkaClientProps;
    }

    /**
     * What {@code readAhead} (started by {@link FileIngest#readAhead}, or null) read of the input before
     * this ingest could: the ingest publishes it, and closes it.
     */
    public FileIngestBuilder readAhead(FilesReadAhead readAhead) {
        this.readAhead = readAhead;
        return this;
    }

    /**
     * The producer takes the transactional id first, then {@code awaitTopics} runs until the caller has
     * created the pipeline's topics meanwhile (null: they exist).
     */
    public FileIngestBuilder awaitTopics(Runnable awaitTopics) {
        this.awaitTopics = awaitTopics;
        return this;
    }

    /**
     * The run ends once the files there are ingested (trigger availableNow): the last data batch of
     * the run, when it moves the watermark, then carries Spark's no-data batch that would follow it in
     * the same transaction ({@code BatchRunner.runData}), whose progress the next {@link FileIngest#runBatch()}
     * returns. The same batches, ids and watermarks as two transactions; the aggregation closes the
     * windows the data batch opened without writing them into its state store first (docs/performance.md).
     */
    public FileIngestBuilder endsWhenIngested(boolean v) {
        this.endsWhenIngested = v;
        return this;
    }

    /**
     * The run is bounded (trigger availableNow or once): it has no later trigger to take a file that
     * has not settled yet ({@link IngestConfig#fileSettleTime()}), so a batch looks at such a file
     * again once that time has passed, waiting for it at most once in the run; a file still changing
     * then is held back, counted, and left to a later run.
     */
    public FileIngestBuilder boundedRun(boolean v) {
        this.boundedRun = v;
        return this;
    }

    /** Connects, fences any older ingest of the pipeline and loads its progress from the ingest-log topic. */
    public FileIngest build() {
        return new FileIngest(this);
    }
}
