package io.tributary.kafka;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Spark's {@code startingOffsets}: {@code earliest}, {@code latest}, or per partition as Spark
 * writes it, {@code {"orders":{"0":42,"1":-2}}}, where {@value #EARLIEST} is the partition's
 * earliest offset and {@value #LATEST} its latest.
 *
 * @param kind which of the three
 * @param offsets {@link Kind#SPECIFIC} only (else empty): topic to partition to offset, in the order given
 */
public record StartingOffsets(Kind kind, Map<String, Map<Integer, Long>> offsets) {
    /** In Spark's JSON, the partition's earliest offset. */
    public static final long EARLIEST = -2;
    /** In Spark's JSON, the partition's latest offset. */
    public static final long LATEST = -1;
    private static final ObjectMapper JSON = new ObjectMapper();

    public enum Kind { EARLIEST, LATEST, SPECIFIC }

    public StartingOffsets {
        offsets = Collections.unmodifiableMap(new LinkedHashMap<>(offsets));
    }

    /** Reads the setting's text; a clear error naming {@code key} if it is none of the three. */
    public static StartingOffsets parse(String key, String text) {
        String t = text.trim();
        if (t.equalsIgnoreCase("earliest")) {
            return new StartingOffsets(Kind.EARLIEST, Map.of());
        }
        if (t.equalsIgnoreCase("latest")) {
            return new StartingOffsets(Kind.LATEST, Map.of());
        }
        if (!t.startsWith("{")) {
            throw KafkaErrors.badStartingOffsets(key, text, "not earliest, latest or a JSON object");
        }
        JsonNode root;
        try {
            root = JSON.readTree(t);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw KafkaErrors.badStartingOffsets(key, text, "not valid JSON (" + e.getOriginalMessage() + ")");
        }
        Map<String, Map<Integer, Long>> offsets = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> topic : root.properties()) {
            if (!topic.getValue().isObject() || topic.getValue().isEmpty()) {
                throw KafkaErrors.badStartingOffsets(key, text, "topic " + topic.getKey() + " has no object of partitions and offsets");
            }
            Map<Integer, Long> parts = new TreeMap<>();
            for (Map.Entry<String, JsonNode> p : topic.getValue().properties()) {
                int partition;
                try {
                    partition = Integer.parseInt(p.getKey());
                } catch (NumberFormatException e) {
                    partition = -1;
                }
                if (partition < 0 || !p.getValue().canConvertToLong() || p.getValue().asLong() < EARLIEST) {
                    throw KafkaErrors.badStartingOffsets(key, text, "topic " + topic.getKey() + " partition " + p.getKey() + ": "
                            + p.getValue() + " is not a partition number and an offset of at least -2");
                }
                parts.put(partition, p.getValue().asLong());
            }
            offsets.put(topic.getKey(), parts);
        }
        if (offsets.isEmpty()) {
            throw KafkaErrors.badStartingOffsets(key, text, "it names no topic");
        }
        return new StartingOffsets(Kind.SPECIFIC, offsets);
    }

    @Override
    public String toString() {
        return kind == Kind.SPECIFIC ? offsets.toString() : kind.name().toLowerCase(java.util.Locale.ROOT);
    }
}
