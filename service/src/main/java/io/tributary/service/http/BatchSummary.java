package io.tributary.service.http;

import io.tributary.schema.Progress;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The figures the live page draws for one batch of a stage, or for the batches of a stage that
 * started within one span of time (the page's last-hour view): read off the progress records
 * alone, summed or, for a level such as the watermark or the table's version, the last one.
 */
final class BatchSummary {
    private final long startMs;
    private final long spanMs;
    private int batches;
    private long lastBatchId = -1;
    private long inputRows;
    private long outputRows;
    private long triggerMs;
    private final Map<String, Long> phasesMs = new LinkedHashMap<>();
    private String timestamp;
    private Long watermarkMs;
    private Long watermarkGapMs;
    private Long stateRows;
    private long droppedByWatermark;
    private long deadLetterRows;
    private long badRowsDropped;
    private long badRows;
    private Long deltaVersion;
    private long filesWritten;
    /** One batch: Spark's own rates; several: computed over the span. */
    private Double inputRowsPerSecond;
    private Double processedRowsPerSecond;

    /** @param spanMs the span's length; 0 for the summary of one batch */
    BatchSummary(long startMs, long spanMs) {
        this.startMs = startMs;
        this.spanMs = spanMs;
    }

    /** The summary of one batch. */
    static BatchSummary of(Progress p, long receivedMs) {
        BatchSummary s = new BatchSummary(receivedMs, 0);
        s.add(p);
        s.inputRowsPerSecond = p.inputRowsPerSecond();
        s.processedRowsPerSecond = p.processedRowsPerSecond();
        return s;
    }

    long startMs() {
        return startMs;
    }

    void add(Progress p) {
        batches++;
        lastBatchId = p.batchId();
        inputRows += p.numInputRows();
        if (p.durationMs() != null) {
            p.durationMs().forEach((phase, ms) -> {
                if (ms == null) {
                    return;
                }
                if (phase.equals("triggerExecution")) {
                    triggerMs += ms;
                } else {
                    phasesMs.merge(phase, ms, Long::sum);
                }
            });
        }
        timestamp = p.timestamp();
        String watermark = p.eventTime() == null ? null : p.eventTime().get("watermark");
        Long wm = epochMs(watermark);
        if (wm != null && wm > 0) { // 1970-01-01: no event seen yet, as Spark shows it
            watermarkMs = wm;
            Long started = epochMs(p.timestamp());
            watermarkGapMs = started == null ? null : started - wm;
        }
        if (p.stateOperators() != null && !p.stateOperators().isEmpty()) {
            long total = 0;
            for (Map<String, Object> op : p.stateOperators()) {
                total += number(op, "numRowsTotal");
                droppedByWatermark += number(op, "numRowsDroppedByWatermark");
            }
            stateRows = total;
        }
        for (Progress.Source src : p.sources() == null ? List.<Progress.Source>of() : p.sources()) {
            badRows += number(src.metrics(), "numBadRows");
        }
        if (p.sink() != null) {
            outputRows += p.sink().numOutputRows();
            Map<String, Object> m = p.sink().metrics();
            deadLetterRows += number(m, "numDeadLetterRows");
            badRowsDropped += number(m, "numDroppedRows");
            if (m != null && m.get("deltaVersion") instanceof Number v) {
                deltaVersion = v.longValue();
                filesWritten += number(m, "numFiles");
            }
        }
    }

    /** The figures as the page's JSON takes them; absent levels are left out. */
    Map<String, Object> toMap(long nowMs) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("t", startMs);
        out.put("batches", batches);
        out.put("batchId", lastBatchId);
        out.put("inputRows", inputRows);
        out.put("outputRows", outputRows);
        if (spanMs > 0) {
            long span = Math.max(1, Math.min(spanMs, nowMs - startMs));
            out.put("inputRowsPerSecond", Progress.rate(inputRows, span));
            out.put("processedRowsPerSecond", Progress.rate(inputRows, triggerMs));
        } else {
            out.put("inputRowsPerSecond", inputRowsPerSecond);
            out.put("processedRowsPerSecond", processedRowsPerSecond);
        }
        out.put("triggerMs", triggerMs);
        out.put("phasesMs", new LinkedHashMap<>(phasesMs));
        out.put("timestamp", timestamp);
        putIfPresent(out, "watermarkMs", watermarkMs);
        putIfPresent(out, "watermarkGapMs", watermarkGapMs);
        putIfPresent(out, "stateRows", stateRows);
        out.put("droppedByWatermark", droppedByWatermark);
        out.put("deadLetterRows", deadLetterRows);
        out.put("badRowsDropped", badRowsDropped);
        out.put("badRows", badRows);
        putIfPresent(out, "deltaVersion", deltaVersion);
        out.put("filesWritten", filesWritten);
        return out;
    }

    private static void putIfPresent(Map<String, Object> out, String key, Object value) {
        if (value != null) {
            out.put(key, value);
        }
    }

    private static long number(Map<String, Object> m, String key) {
        return m != null && m.get(key) instanceof Number n ? n.longValue() : 0;
    }

    private static Long epochMs(String iso) {
        if (iso == null) {
            return null;
        }
        try {
            return Instant.parse(iso).toEpochMilli();
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
