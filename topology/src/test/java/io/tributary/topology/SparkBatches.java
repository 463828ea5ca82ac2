package io.tributary.topology;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Plays file-ingest's side of the marker contract, computing the watermark as Spark does: the
 * rows of batch N, then marker {N, wm_N} with wm_N = max event time of batches 0..N-1 minus the
 * delay (never decreasing; none before any data); and at the end of a run (no more data for the
 * next batch), if wm_{N+1} > wm_N, Spark's no-data batch: marker {N+1, wm_{N+1}}.
 */
final class SparkBatches {
    /** What the batches are played into: a topology under test. */
    interface Events {
        /** Pipes one input row; returns its event time in ms (0 for none). */
        long row(String jsonLine);

        /** Pipes a watermark marker (watermarkMs null: no watermark yet). */
        void marker(long batchId, Long watermarkMs);
    }

    private final Events driver;
    private final long delayMs;
    private final boolean noDataMarkerAfterEveryBatch;
    private boolean noDataBatches = true;
    private long nextBatchId;
    private Long maxEventMs;
    private Long watermarkMs;

    /**
     * @param noDataMarkerAfterEveryBatch write the no-data marker after every batch that moved the
     *     watermark, even when a data batch follows (the reading of the contract the golden files refute)
     */
    SparkBatches(Events driver, Duration delay, boolean noDataMarkerAfterEveryBatch) {
        this.driver = driver;
        this.delayMs = delay == null ? -1 : delay.toMillis();
        this.noDataMarkerAfterEveryBatch = noDataMarkerAfterEveryBatch;
    }

    /** @param delay the watermark's delay, or null for none (every marker without a watermark, no no-data batch) */
    SparkBatches(Events driver, Duration delay) {
        this(driver, delay, false);
    }

    /** These batches without Spark's batch without data at a run's end: complete mode, whose output no watermark changes, runs none. */
    SparkBatches withoutNoDataBatches() {
        noDataBatches = false;
        return this;
    }

    /** One availableNow run over these batches (each a list of JSON lines); returns Spark's progress {@code batchId:numInputRows}. */
    String run(List<List<String>> batches) {
        List<String> log = new ArrayList<>();
        for (int b = 0; b < batches.size(); b++) {
            for (String line : batches.get(b)) {
                long ts = driver.row(line);
                maxEventMs = maxEventMs == null ? ts : Math.max(maxEventMs, ts);
            }
            log.add(nextBatchId + ":" + batches.get(b).size());
            driver.marker(nextBatchId++, watermarkMs);
            boolean last = b == batches.size() - 1;
            if (advance() && noDataBatches && (last || noDataMarkerAfterEveryBatch)) {
                log.add(nextBatchId + ":0");
                driver.marker(nextBatchId++, watermarkMs);
            }
        }
        return String.join(",", log);
    }

    /** Computes the next batch's watermark; true if it moved. */
    private boolean advance() {
        if (maxEventMs == null || delayMs < 0) {
            return false;
        }
        long next = maxEventMs - delayMs;
        if (watermarkMs == null || next > watermarkMs) {
            watermarkMs = next;
            return true;
        }
        return false;
    }
}
