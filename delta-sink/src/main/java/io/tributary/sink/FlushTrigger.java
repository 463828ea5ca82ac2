package io.tributary.sink;

import java.util.Map;
import java.util.function.Supplier;

/**
 * {@code allowedLatency}: whether the records waiting in the topic should be committed now, from
 * how long the first of them has waited and how much Parquet they would make.
 */
final class FlushTrigger {
    private final long latencyMs;
    private final long targetFileSize;
    /** When this sink first saw the records now waiting in the topic (-1: none waiting). */
    private long pendingSinceMs = -1;
    /** Parquet bytes per record of the last batch written (0: none yet). */
    private double bytesPerRecord;

    FlushTrigger(SinkConfig config) {
        this.latencyMs = config.allowedLatency().toMillis();
        this.targetFileSize = config.targetFileSize();
    }

    /**
     * Whether new records should be committed now: always with {@code allowedLatency} zero; else once
     * the first of them has waited that long, or once they make about {@code targetFileSize} of
     * Parquet (estimated from the bytes per record of the last batch this sink wrote).
     *
     * @param end the topic's end offsets; {@code positions} the reader's, asked only when the latency has not passed
     */
    boolean due(Map<Integer, Long> end, Supplier<Map<Integer, Long>> positions) {
        if (latencyMs == 0) {
            return true;
        }
        long now = System.currentTimeMillis();
        pendingSinceMs = pendingSinceMs < 0 ? now : pendingSinceMs;
        if (now - pendingSinceMs >= latencyMs) {
            return true;
        }
        Map<Integer, Long> position = positions.get();
        long pending = end.entrySet().stream().mapToLong(e -> e.getValue() - position.getOrDefault(e.getKey(), 0L)).sum();
        return bytesPerRecord > 0 && pending * bytesPerRecord >= targetFileSize;
    }

    /** Nothing waits now (no new records, or a batch took them). */
    void nothingPending() {
        pendingSinceMs = -1;
    }

    /** A batch of {@code records} records committed {@code bytes} of Parquet. */
    void written(long bytes, long records) {
        bytesPerRecord = (double) bytes / records;
    }
}
