package io.tributary.ingest.internal;

import io.tributary.ingest.IngestedFile;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the ingest-log says: the files published, the next batch id, the largest event time
 * seen, and the watermark of the last batch. Rebuilt from the topic at start; changed only
 * after a batch's transaction commits.
 */
public final class IngestState {
    /** The ingest-log key of the state record; no input file can have it ({@code _} names are never read). */
    public static final String STATE_KEY = "__state__";

    private final Map<String, IngestedFile> files = new LinkedHashMap<>();
    private long nextBatchId;
    private Long maxEventTimeMs;
    private long watermarkMs;

    public IngestedFile file(String relPath) {
        return files.get(relPath);
    }

    public boolean isIngested(String relPath) {
        return files.containsKey(relPath);
    }

    public Collection<IngestedFile> files() {
        return files.values();
    }

    public void putFile(IngestedFile f) {
        files.remove(f.path());
        files.put(f.path(), f);
    }

    public void removeFile(String relPath) {
        files.remove(relPath);
    }

    public long nextBatchId() {
        return nextBatchId;
    }

    public Long maxEventTimeMs() {
        return maxEventTimeMs;
    }

    /** The watermark of the last batch that ran (0, Spark's start value, before any). */
    public long watermarkMs() {
        return watermarkMs;
    }

    public void setBatch(long nextBatchId, Long maxEventTimeMs, long watermarkMs) {
        this.nextBatchId = nextBatchId;
        this.maxEventTimeMs = maxEventTimeMs;
        this.watermarkMs = watermarkMs;
    }

    /**
     * Spark's watermark for the next batch: the largest event time of all earlier batches minus
     * the delay, never below the last one (nor below 0, where Spark starts).
     */
    public long nextWatermarkMs(long delayMs) {
        return nextWatermarkMs(maxEventTimeMs, watermarkMs, delayMs);
    }

    /** The rule of {@link #nextWatermarkMs(long)} for a given maximum event time and watermark. */
    static long nextWatermarkMs(Long maxEventTimeMs, long watermarkMs, long delayMs) {
        return maxEventTimeMs == null ? watermarkMs : Math.max(watermarkMs, maxEventTimeMs - delayMs);
    }
}
