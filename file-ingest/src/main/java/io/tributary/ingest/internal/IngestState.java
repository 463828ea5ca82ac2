package io.tributary.ingest.internal;

import io.tributary.ingest.IngestedFile;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the ingest-log says: the files published (those within {@code maxFileAge} of the newest,
 * {@link #forget}), the next batch id, the largest event time seen, and the watermark of the last
 * batch. Rebuilt from the topic at start; changed only after a batch's transaction commits.
 */
public final class IngestState {
    /** The ingest-log key of the state record; no input file can have it ({@code _} names are never read). */
    public static final String STATE_KEY = "__state__";
    /** The ingest-log key of the schema record: the schema the ingest reads with, once it is not the spec's. */
    public static final String SCHEMA_KEY = "__schema__";

    private final Map<String, IngestedFile> files = new LinkedHashMap<>();
    /** The newest modification time of the files recorded (Spark's {@code SeenFilesMap.latestTimestamp}). */
    private long latestMtimeMs = Long.MIN_VALUE;
    /** The oldest modification time of the files held: whether a {@link #forget} has anything to do. */
    private long oldestMtimeMs = Long.MAX_VALUE;
    /** Files modified before this were forgotten: a file listed that is older is not new (Spark's lastPurgeTimestamp). */
    private long forgottenBeforeMs = Long.MIN_VALUE;
    private long nextBatchId;
    private Long maxEventTimeMs;
    private long watermarkMs;
    private String schemaDdl;
    /** The rows published in all batches, as the last state record counts them (0 before any); null when it counts none. */
    private Long rowsPublished = 0L;

    public IngestedFile file(String relPath) {
        return files.get(relPath);
    }

    /**
     * The record of a listed file: the one under its name; for a name {@link java.nio.file.Path#toString()}
     * does not give whole (bytes that are not UTF-8), else the one an earlier version wrote under
     * that lossy text, when its size and modification time are this file's (it is the file that
     * version read: the others that share the lossy text are new files). Null when not ingested.
     */
    public IngestedFile file(FileStat f) {
        IngestedFile was = files.get(f.relPath());
        if (was != null) {
            return was;
        }
        String lossy = FileNames.lossyName(f.path(), f.relPath());
        IngestedFile old = lossy == null ? null : files.get(lossy);
        return old != null && old.size() == f.size() && old.mtimeMs() == f.mtimeMs() ? old : null;
    }

    public Collection<IngestedFile> files() {
        return files.values();
    }

    public void putFile(IngestedFile f) {
        files.remove(f.path());
        files.put(f.path(), f);
        latestMtimeMs = Math.max(latestMtimeMs, f.mtimeMs());
        oldestMtimeMs = Math.min(oldestMtimeMs, f.mtimeMs());
    }

    /**
     * Spark's {@code maxFileAge}: forgets the files modified more than {@code maxAge} before the
     * newest file recorded, so that the files held stay those of a span of modification times,
     * however long the service runs; a listed file that old is then not new ({@link #tooOld}). The
     * map is walked only once its oldest file is a 64th of {@code maxAge} past that line, so a
     * batch pays nothing most of the time and the span held is at most 65/64 of {@code maxAge}.
     *
     * @return how many files were forgotten
     */
    public int forget(Duration maxAge) {
        long maxAgeMs = maxAge.compareTo(Duration.ofMillis(Long.MAX_VALUE)) >= 0 ? Long.MAX_VALUE : maxAge.toMillis();
        if (files.isEmpty() || latestMtimeMs - Long.MIN_VALUE / 2 < maxAgeMs) {
            return 0; // nothing recorded yet, or an age reaching before any time (no limit)
        }
        long before = latestMtimeMs - maxAgeMs;
        if (oldestMtimeMs >= before - maxAgeMs / 64) {
            return 0;
        }
        forgottenBeforeMs = Math.max(forgottenBeforeMs, before);
        int before0 = files.size();
        long oldest = Long.MAX_VALUE;
        for (var it = files.values().iterator(); it.hasNext(); ) {
            long mtime = it.next().mtimeMs();
            if (mtime < forgottenBeforeMs) {
                it.remove();
            } else {
                oldest = Math.min(oldest, mtime);
            }
        }
        oldestMtimeMs = oldest;
        return before0 - files.size();
    }

    /** Whether a file not recorded is older than the files {@link #forget} forgot: not new (Spark's {@code isNewFile}). */
    public boolean tooOld(FileStat f) {
        return f.mtimeMs() < forgottenBeforeMs;
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

    /** The schema recorded with the ingest's progress (a DDL string), or null: the spec's. */
    public String schemaDdl() {
        return schemaDdl;
    }

    public void setSchemaDdl(String ddl) {
        this.schemaDdl = ddl;
    }

    /**
     * The rows the ingest published in all its batches, committed with them (what the {@code sql:} query's LIMIT counts); null when
     * the ingest log was written without the count.
     */
    public Long rowsPublished() {
        return rowsPublished;
    }

    public void setRowsPublished(Long rows) {
        this.rowsPublished = rows;
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
