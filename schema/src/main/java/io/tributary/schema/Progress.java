package io.tributary.schema;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;

/**
 * One batch of one stage, in the shape of Spark's {@code StreamingQueryProgress}: what a
 * Spark user reads in {@code query.lastProgress}. Printed as one JSON line per batch on stdout.
 *
 * @param name the pipeline and stage, e.g. {@code quickstart/ingest}
 * @param runId the id of this process run (new at every start)
 * @param timestamp when the batch started, ISO-8601
 * @param durationMs named phases, {@code triggerExecution} the whole batch
 * @param eventTime {@code watermark} and event-time statistics, when the stage has event time
 * @param stateOperators as Spark's, e.g. {@code numRowsTotal}, {@code numRowsDroppedByWatermark}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"name", "runId", "timestamp", "batchId", "numInputRows", "inputRowsPerSecond",
        "processedRowsPerSecond", "durationMs", "eventTime", "stateOperators", "sources", "sink"})
public record Progress(
        String name,
        String runId,
        String timestamp,
        long batchId,
        long numInputRows,
        double inputRowsPerSecond,
        double processedRowsPerSecond,
        Map<String, Long> durationMs,
        Map<String, String> eventTime,
        List<Map<String, Object>> stateOperators,
        List<Source> sources,
        Sink sink) {

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * Where a batch read from: {@code startOffset} is where it began, {@code endOffset} where it
     * ended (both as the source describes its position: Kafka offsets per partition, files, Delta
     * versions); {@code metrics} holds source-specific counts such as {@code numBadRows}.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonPropertyOrder({"description", "startOffset", "endOffset", "numInputRows", "metrics"})
    public record Source(String description, Object startOffset, Object endOffset, long numInputRows,
                         Map<String, Object> metrics) {
    }

    /** Where a batch wrote to; {@code metrics} holds e.g. {@code deltaVersion} or topic offsets. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonPropertyOrder({"description", "numOutputRows", "metrics"})
    public record Sink(String description, long numOutputRows, Map<String, Object> metrics) {
    }

    /** Spark's timestamp format in progress, always with milliseconds: {@code 2026-10-06T09:26:00.000Z}. */
    private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    /** {@code epochMs} as progress lines write times (a batch's start, a watermark). */
    public static String timestamp(long epochMs) {
        return TIMESTAMP.format(Instant.ofEpochMilli(epochMs));
    }

    /** Rows per second over {@code millis}, as Spark reports rates (0 when no time passed). */
    public static double rate(long rows, long millis) {
        return millis <= 0 ? 0.0 : Math.round(rows * 1000_000.0 / millis) / 1000.0;
    }

    public String toJson() {
        try {
            return JSON.writeValueAsString(this);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
