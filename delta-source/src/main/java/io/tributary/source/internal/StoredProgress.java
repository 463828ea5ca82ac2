package io.tributary.source.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The delta-source's durable progress for one table: the value of its record (key = table path)
 * in the compacted progress topic, written in the same Kafka transaction as the rows it covers.
 *
 * @param lastBatchId the last batch published (-1: none yet, only the starting position is fixed)
 * @param reservoirId the Delta table's id ({@code metaData.id}); a different id means the table was replaced
 * @param maxEventTimeMs the largest event time of all batches so far (ms), or null (none yet, or no event-time column)
 * @param watermarkMs the watermark of the last batch (0, Spark's start value, before any)
 */
public record StoredProgress(String tablePath, String reservoirId, SourcePosition position, long lastBatchId, String committedAt,
                             Long maxEventTimeMs, long watermarkMs) {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Spark's watermark for the next batch: the largest event time of all earlier batches minus the delay, never lower than the last. */
    public long nextWatermarkMs(long delayMs) {
        return maxEventTimeMs == null ? watermarkMs : Math.max(watermarkMs, maxEventTimeMs - delayMs);
    }

    public byte[] toBytes() {
        ObjectNode n = JSON.createObjectNode();
        n.put("tablePath", tablePath);
        n.put("reservoirId", reservoirId);
        n.put("reservoirVersion", position.reservoirVersion());
        n.put("index", position.index());
        n.put("isStartingVersion", position.isStartingVersion());
        n.put("lastBatchId", lastBatchId);
        n.put("committedAt", committedAt);
        if (maxEventTimeMs == null) {
            n.putNull("maxEventTimeMs");
        } else {
            n.put("maxEventTimeMs", maxEventTimeMs);
        }
        n.put("watermarkMs", watermarkMs);
        try {
            return JSON.writeValueAsBytes(n);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static StoredProgress parse(byte[] value) {
        try {
            JsonNode n = JSON.readTree(value);
            JsonNode max = n.path("maxEventTimeMs");
            return new StoredProgress(n.path("tablePath").asText(), n.path("reservoirId").asText(null),
                    new SourcePosition(n.path("reservoirVersion").asLong(), n.path("index").asLong(-1), n.path("isStartingVersion").asBoolean()),
                    n.path("lastBatchId").asLong(-1), n.path("committedAt").asText(null),
                    max.isNumber() ? max.asLong() : null, n.path("watermarkMs").asLong(0));
        } catch (IOException e) {
            throw new UncheckedIOException("unreadable delta-source progress record: " + new String(value, StandardCharsets.UTF_8), e);
        }
    }
}
