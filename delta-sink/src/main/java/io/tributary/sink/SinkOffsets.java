package io.tributary.sink;

import io.tributary.kafka.KafkaSubscription;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tributary.sink.internal.TableErrors;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.TopicPartition;

/**
 * The sink's progress as stored in the Delta table, in domain metadata {@value #DOMAIN}, committed
 * atomically with each batch's files: the topic, its Kafka topic id, and per partition the next
 * offset to read. JSON: {@code {"appId":..,"topic":..,"topicId":..,"offsets":{"0":123}}}, plus
 * {@code "cluster":..} when instances that share the topic's partitions wrote it. A sink of a Kafka
 * source's topics ({@link KafkaSubscription}) numbers the topic-partitions it reads: its offsets are
 * keyed by those numbers and {@code "sources":{"0":"orders:0","1":"refunds:0"}} says which
 * topic-partition each number is ({@link #sparkJson()} gives them per topic, as Spark does).
 *
 * @param topicId the Kafka topic UUID when the batch was written; null if unknown
 * @param offsets partition to next offset to read
 * @param cluster the {@code bootstrap.servers} of the Kafka cluster whose instances of the pipeline wrote the batch; null for a
 *        sink that runs alone (on the embedded broker, or a bounded run)
 * @param sources the topic-partition of each key of {@code offsets}, for a sink of a Kafka source's topics; empty: the
 *        keys are the partitions of {@code topic}
 */
public record SinkOffsets(String appId, String topic, String topicId, Map<Integer, Long> offsets, String cluster,
                          Map<Integer, TopicPartition> sources) {
    /** The Delta domain metadata name that holds the offsets. */
    public static final String DOMAIN = "tributary.sink";
    private static final ObjectMapper JSON = new ObjectMapper();

    public SinkOffsets {
        offsets = Collections.unmodifiableMap(new TreeMap<>(offsets));
        sources = Collections.unmodifiableMap(new TreeMap<>(sources == null ? Map.of() : sources));
    }

    public SinkOffsets(String appId, String topic, String topicId, Map<Integer, Long> offsets, String cluster) {
        this(appId, topic, topicId, offsets, cluster, Map.of());
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
        if (!sources.isEmpty()) {
            ObjectNode src = root.putObject("sources");
            sources.forEach((i, tp) -> src.put(String.valueOf(i), tp.topic() + ":" + tp.partition()));
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
            Map<Integer, TopicPartition> sources = new TreeMap<>();
            for (Map.Entry<String, JsonNode> e : root.path("sources").properties()) {
                String tp = e.getValue().asText();
                int colon = tp.lastIndexOf(':');
                sources.put(Integer.parseInt(e.getKey()), new TopicPartition(tp.substring(0, colon), Integer.parseInt(tp.substring(colon + 1))));
            }
            JsonNode topicId = root.get("topicId");
            return new SinkOffsets(root.path("appId").asText(null), root.path("topic").asText(null),
                    topicId == null || topicId.isNull() ? null : topicId.asText(), offsets, root.path("cluster").asText(null), sources);
        } catch (JsonProcessingException | RuntimeException e) {
            throw TableErrors.notSinkOffsets(DOMAIN, json, e);
        }
    }

    /** The offsets as Spark's Kafka source prints them: {@code {"topic":{"0":123}}}. */
    public Map<String, Map<String, Long>> sparkJson() {
        return sparkJson(topic, offsets, sources);
    }

    /** As {@link #sparkJson(String, Map)}, the keys of {@code offsets} being those of {@code sources} when it is not empty. */
    static Map<String, Map<String, Long>> sparkJson(String topic, Map<Integer, Long> offsets, Map<Integer, TopicPartition> sources) {
        if (sources.isEmpty()) {
            return sparkJson(topic, offsets);
        }
        Map<String, Map<String, Long>> json = new TreeMap<>();
        Map<String, Map<Integer, Long>> byTopic = new TreeMap<>();
        offsets.forEach((i, o) -> {
            TopicPartition tp = sources.get(i);
            if (tp != null) {
                byTopic.computeIfAbsent(tp.topic(), t -> new TreeMap<>()).put(tp.partition(), o);
            }
        });
        byTopic.forEach((t, parts) -> json.put(t, sparkJson(t, parts).get(t)));
        return json;
    }

    static Map<String, Map<String, Long>> sparkJson(String topic, Map<Integer, Long> offsets) {
        Map<String, Long> parts = new java.util.LinkedHashMap<>();
        new TreeMap<>(offsets).forEach((p, o) -> parts.put(String.valueOf(p), o));
        return Map.of(topic, parts);
    }
}
