package io.tributary.sink;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tributary.sink.internal.TableErrors;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * The sink's progress as stored in the Delta table, in domain metadata {@value #DOMAIN}, committed
 * atomically with each batch's files: the topic, its Kafka topic id, and per partition the next
 * offset to read. JSON: {@code {"appId":..,"topic":..,"topicId":..,"offsets":{"0":123}}}, plus
 * {@code "cluster":..} when instances that share the topic's partitions wrote it.
 *
 * @param topicId the Kafka topic UUID when the batch was written; null if unknown
 * @param offsets partition to next offset to read
 * @param cluster the {@code bootstrap.servers} of the Kafka cluster whose instances of the pipeline wrote the batch; null for a
 *        sink that runs alone (on the embedded broker, or a bounded run)
 */
public record SinkOffsets(String appId, String topic, String topicId, Map<Integer, Long> offsets, String cluster) {
    /** The Delta domain metadata name that holds the offsets. */
    public static final String DOMAIN = "tributary.sink";
    private static final ObjectMapper JSON = new ObjectMapper();

    public SinkOffsets {
        offsets = Collections.unmodifiableMap(new TreeMap<>(offsets));
    }

    /** The offsets of a sink that runs alone. */
    public SinkOffsets(String appId, String topic, String topicId, Map<Integer, Long> offsets) {
        this(appId, topic, topicId, offsets, null);
    }

    public String toJson() {
        ObjectNode root = JSON.createObjectNode();
        root.put("appId", appId);
        root.put("topic", topic);
        if (topicId != null) {
            root.put("topicId", topicId);
        }
        ObjectNode o = root.putObject("offsets");
        offsets.forEach((p, off) -> o.put(String.valueOf(p), off));
        if (cluster != null) {
            root.put("cluster", cluster);
        }
        return root.toString();
    }

    /** Reads the JSON that {@link #toJson} writes; a clear error if the table holds something else. */
    public static SinkOffsets parse(String json) {
        try {
            JsonNode root = JSON.readTree(json);
            Map<Integer, Long> offsets = new TreeMap<>();
            for (Map.Entry<String, JsonNode> e : root.path("offsets").properties()) {
                offsets.put(Integer.parseInt(e.getKey()), e.getValue().asLong());
            }
            JsonNode topicId = root.get("topicId");
            return new SinkOffsets(root.path("appId").asText(null), root.path("topic").asText(null),
                    topicId == null || topicId.isNull() ? null : topicId.asText(), offsets, root.path("cluster").asText(null));
        } catch (JsonProcessingException | RuntimeException e) {
            throw TableErrors.notSinkOffsets(DOMAIN, json, e);
        }
    }

    /** The offsets as Spark's Kafka source prints them: {@code {"topic":{"0":123}}}. */
    public Map<String, Map<String, Long>> sparkJson() {
        return sparkJson(topic, offsets);
    }

    static Map<String, Map<String, Long>> sparkJson(String topic, Map<Integer, Long> offsets) {
        Map<String, Long> parts = new java.util.LinkedHashMap<>();
        new TreeMap<>(offsets).forEach((p, o) -> parts.put(String.valueOf(p), o));
        return Map.of(topic, parts);
    }
}
