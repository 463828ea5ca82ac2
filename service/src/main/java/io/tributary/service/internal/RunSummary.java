package io.tributary.service.internal;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.ingest.SkippedFiles;
import io.tributary.schema.Progress;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The last line of a run: per stage, how many batches ran and rows went in and out; with a file
 * source, the files the run left unread ({@code numFilesChangedAfterIngest}, {@code numFilesHeldBack},
 * {@code numFilesCorrupt}).
 */
public final class RunSummary {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The totals of one stage over a run. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public static final class StageTotals {
        public int batches;
        public long numInputRows;
        public long numOutputRows;
        public Long lastBatchId;
        public Map<String, Object> lastSinkMetrics;
    }

    private final String pipeline;
    private final String trigger;
    private final Map<String, StageTotals> stages = new LinkedHashMap<>();
    private final long startNanos = System.nanoTime();
    private SkippedFiles skipped;

    RunSummary(String pipeline, String trigger) {
        this.pipeline = pipeline;
        this.trigger = trigger;
    }

    void add(Progress p) {
        StageTotals t = stages.computeIfAbsent(p.name(), k -> new StageTotals());
        t.batches++;
        t.numInputRows += p.numInputRows();
        t.lastBatchId = p.batchId();
        if (p.sink() != null) {
            t.numOutputRows += p.sink().numOutputRows();
            t.lastSinkMetrics = p.sink().metrics();
        } else if (p.stateOperators() != null) {
            // the aggregation writes to a topic, not a sink: its operator counts the rows it wrote
            for (Map<String, Object> op : p.stateOperators()) {
                if (op.get("numOutputRows") instanceof Number n) {
                    t.numOutputRows += n.longValue();
                }
            }
        }
    }

    /** The files the file source left unread over the run. */
    void skipped(SkippedFiles files) {
        this.skipped = files;
    }

    /** The files the file source left unread; null without a file source. */
    public SkippedFiles skipped() {
        return skipped;
    }

    void declare(String stage) {
        stages.putIfAbsent(stage, new StageTotals());
    }

    public Map<String, StageTotals> stages() {
        return stages;
    }

    /** Rows read by the first stage over the run. */
    public long numInputRows() {
        return stages.values().stream().findFirst().map(t -> t.numInputRows).orElse(0L);
    }

    public String toJson() {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("pipeline", pipeline);
        s.put("trigger", trigger);
        s.put("numInputRows", numInputRows());
        if (skipped != null) {
            s.put("numFilesChangedAfterIngest", skipped.changedAfterIngest().size()); // never read: changed after ingest
            // not in this run: younger than fileMinAge, or still being written (fileSettleTime)
            s.put("numFilesHeldBack", skipped.heldBack().size() + skipped.settling().size());
            s.put("numFilesCorrupt", skipped.corrupt().size()); // read up to where their data broke off (ignoreCorruptFiles)
        }
        s.put("durationMs", (System.nanoTime() - startNanos) / 1_000_000);
        s.put("stages", stages);
        try {
            return JSON.writeValueAsString(Map.of("summary", s));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
