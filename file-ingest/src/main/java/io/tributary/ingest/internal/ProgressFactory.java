package io.tributary.ingest.internal;

import io.tributary.ingest.CleanSource;
import io.tributary.ingest.IngestConfig;
import io.tributary.schema.Printable;
import io.tributary.schema.Progress;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The ingest's batch as Spark's {@code StreamingQueryProgress} of a file source. */
public final class ProgressFactory {
    private final IngestConfig config;
    private final String runId;

    public ProgressFactory(IngestConfig config, String runId) {
        this.config = config;
        this.runId = runId;
    }

    /**
     * What one batch's timing, planning and cleaning looked like, beside its outcome.
     *
     * @param heldBack new files {@code fileMinAge} held back
     * @param settling new files held back as still being written ({@code fileSettleTime})
     * @param cleaned input files archived or deleted by {@code cleanSource} in this batch (its own
     *                files, and at a run's first batch those a run that died left)
     * @param pending new files the listing found that the per-trigger limits left for later batches
     */
    public record Timing(long startMs, long sinceLastTriggerMs, long listMs, long totalMs, int heldBack, int settling,
                         int changedAfterIngest, int cleaned, int pending) {
    }

    public Progress batch(BatchOutcome o, Timing t) {
        long rows = o.rows();
        Map<String, Long> durations = new LinkedHashMap<>();
        durations.put("latestOffset", t.listMs());
        durations.put("addBatch", o.publishMs());
        durations.put("commitOffsets", o.commitMs());
        durations.put("triggerExecution", t.totalMs());
        Map<String, Object> sourceMetrics = new LinkedHashMap<>();
        sourceMetrics.put("numFiles", (long) o.files().size());
        sourceMetrics.put("numBytes", o.bytes());
        sourceMetrics.put("numBadRows", o.badRows());
        if (config.format().kind() == io.tributary.ingest.FileFormat.Kind.DEBEZIUM_JSON) {
            sourceMetrics.put("numChangeEventsSkipped", o.skipped()); // tombstones and truncate events: no row
        }
        sourceMetrics.put("numFilesChangedAfterIngest", (long) t.changedAfterIngest());
        sourceMetrics.put("numFilesChangedWhileReading", (long) o.changedWhileReading().size());
        sourceMetrics.put("numFilesHeldBackByMinAge", (long) t.heldBack());
        sourceMetrics.put("numFilesHeldBackSettling", (long) t.settling());
        sourceMetrics.put("numFilesPending", (long) t.pending());
        String cleanedMetric = cleanedMetric(config.cleanSource());
        if (cleanedMetric != null) {
            sourceMetrics.put(cleanedMetric, (long) t.cleaned());
        }
        List<String> corrupt = o.files().stream().filter(r -> r.corruption() != null)
                .map(r -> Printable.escape(r.file().relPath())).toList();
        sourceMetrics.put("numFilesCorrupt", (long) corrupt.size());
        sourceMetrics.put("files", o.files().stream().map(r -> Printable.escape(r.file().relPath())).toList());
        if (!corrupt.isEmpty()) {
            sourceMetrics.put("corruptFiles", corrupt); // read up to the break only (ignoreCorruptFiles)
        }
        Map<String, Object> start = o.batchId() == 0 ? null : Map.of("logOffset", o.batchId() - 1);
        Progress.Source source = new Progress.Source("FileSource[" + config.inputLocation() + "]", start,
                Map.of("logOffset", o.batchId()), o.inputRows(), sourceMetrics);
        Map<String, Object> sinkMetrics = new LinkedHashMap<>();
        sinkMetrics.put("numDeadLetterRows", o.deadLettered());
        sinkMetrics.put("numDroppedRows", o.badRows() - o.deadLettered());
        sinkMetrics.put("numWatermarkMarkers", (long) o.markers());
        Progress.Sink sink = new Progress.Sink("KafkaSink[" + config.eventsTopic() + "]", rows, sinkMetrics);
        return new Progress(config.pipeline() + "/ingest", runId, Progress.timestamp(t.startMs()), o.batchId(), o.inputRows(),
                Progress.rate(o.inputRows(), t.sinceLastTriggerMs()), Progress.rate(o.inputRows(), t.totalMs()), durations, eventTime(o),
                null, List.of(source), sink);
    }

    /**
     * Spark's progress when a trigger finds no new data: the next batch id, no rows, the source
     * where it was ({@code startOffset} = {@code endOffset}); no batch ran.
     */
    public Progress idle(long nextBatchId, Long watermarkMs, long startMs, long listMs, int cleaned) {
        Map<String, Object> at = nextBatchId == 0 ? null : Map.of("logOffset", nextBatchId - 1);
        Map<String, String> eventTime = null;
        if (config.eventTime() != null) {
            eventTime = new LinkedHashMap<>();
            if (watermarkMs != null) {
                eventTime.put("watermark", format(watermarkMs));
            }
        }
        Map<String, Object> sourceMetrics = new LinkedHashMap<>();
        sourceMetrics.put("numFiles", 0L);
        String cleanedMetric = cleanedMetric(config.cleanSource());
        if (cleanedMetric != null) {
            sourceMetrics.put(cleanedMetric, (long) cleaned); // files a run that died left, cleaned at this start
        }
        Progress.Source source = new Progress.Source("FileSource[" + config.inputLocation() + "]", at, at, 0, sourceMetrics);
        Progress.Sink sink = new Progress.Sink("KafkaSink[" + config.eventsTopic() + "]", 0, null);
        return new Progress(config.pipeline() + "/ingest", runId, Progress.timestamp(startMs), nextBatchId, 0,
                0.0, 0.0, Map.of("latestOffset", listMs, "triggerExecution", listMs), eventTime, null, List.of(source), sink);
    }

    /**
     * The source metric that counts a batch's cleaned files: {@code numFilesArchived} or
     * {@code numFilesDeleted}; null with {@code cleanSource: off}, where the metric is left out.
     */
    public static String cleanedMetric(CleanSource policy) {
        return switch (policy.name()) {
            case "archive" -> "numFilesArchived";
            case "delete" -> "numFilesDeleted";
            default -> null;
        };
    }

    private Map<String, String> eventTime(BatchOutcome o) {
        if (config.eventTime() == null) {
            return null;
        }
        Map<String, String> m = new LinkedHashMap<>();
        long count = 0;
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        double sum = 0;
        for (FileResult r : o.files()) {
            count += r.etCount();
            sum += r.etSum();
            if (r.etCount() > 0) {
                min = Math.min(min, r.etMin());
                max = Math.max(max, r.etMax());
            }
        }
        if (count > 0) {
            m.put("avg", format(Math.round(sum / count)));
            m.put("max", format(max));
            m.put("min", format(min));
        }
        if (o.watermarkMs() != null) {
            m.put("watermark", format(o.watermarkMs()));
        }
        return m;
    }

    public static String format(long ms) {
        return Progress.timestamp(ms);
    }
}
