package io.tributary.topology.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.schema.Topics;
import java.io.IOException;
import java.util.Arrays;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * A watermark marker from the ingest ({@link Topics}): the end of batch {@code batchId}, whose
 * watermark is {@code watermarkMs} (null before any data: no watermark yet);
 * {@code followedByMarker}: the next record of the partition, in the same transaction, is the
 * next batch's marker (the no-data batch an availableNow run's last data batch carries).
 * {@code sources}: over a Kafka source, how many source tasks write the batch's marker to each partition of the rows
 * topic ({@link SourceBatch#tasks}); 0 elsewhere.
 */
record Marker(long batchId, Long watermarkMs, boolean followedByMarker, int sources) {
    private static final ObjectMapper JSON = new ObjectMapper();

    Marker(long batchId, Long watermarkMs, boolean followedByMarker) {
        this(batchId, watermarkMs, followedByMarker, 0);
    }

    /** A source task's marker of a batch over a Kafka source, which {@code sources} source tasks each write. */
    static byte[] ofSourceTask(long batchId, Long watermarkMs, int sources) {
        return ("{\"batchId\":" + batchId + ",\"watermarkMs\":" + watermarkMs + ",\"sources\":" + sources + "}")
                .getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    static boolean isMarker(Headers headers) {
        Header h = headers == null ? null : headers.lastHeader(Topics.MARKER_HEADER);
        return h != null && Arrays.equals(h.value(), Topics.WATERMARK);
    }

    static Marker parse(byte[] value, String where) {
        try {
            JsonNode n = value == null ? null : JSON.readTree(value);
            if (n == null || !n.isObject() || !n.path("batchId").canConvertToLong()) {
                throw TopologyErrors.markerWithoutBatchId(where, (value == null ? "null" : new String(value, java.nio.charset.StandardCharsets.UTF_8)));
            }
            JsonNode w = n.path("watermarkMs");
            Long wm = w.isNull() || w.isMissingNode() || w.asLong() == Long.MIN_VALUE ? null : w.asLong();
            return new Marker(n.get("batchId").asLong(), wm, n.path("followedByMarker").asBoolean(false), n.path("sources").asInt(0));
        } catch (IOException e) {
            throw TopologyErrors.markerNotJson(where, e.getMessage(), e);
        }
    }
}
