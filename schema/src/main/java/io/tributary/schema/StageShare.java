package io.tributary.schema;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;

/**
 * One instance's share of a stage's work, where instances share a pipeline.
 *
 * @param role the source: {@code active} (holds the lease) or {@code standby}; null for the other stages
 * @param partitions the partitions of the stage's input topic it owns (sorted); empty for the source, and for a
 *     stage that reads a Kafka source's topics (see {@code topics})
 * @param activeTasks the aggregation's Kafka Streams tasks it runs; empty for the other stages
 * @param standbyTasks the aggregation's tasks it keeps a warm copy of
 * @param topics over a Kafka source (several topics, or those its pattern matched, a topic matched after the
 *     start too): the partitions it owns of each topic, by topic name (both sorted); null over one input topic
 */
public record StageShare(String role, List<Integer> partitions, List<String> activeTasks, List<String> standbyTasks,
                         @JsonInclude(JsonInclude.Include.NON_NULL) Map<String, List<Integer>> topics) {
    /** A share of one input topic's partitions (or none, for the source). */
    public StageShare(String role, List<Integer> partitions, List<String> activeTasks, List<String> standbyTasks) {
        this(role, partitions, activeTasks, standbyTasks, null);
    }
}
