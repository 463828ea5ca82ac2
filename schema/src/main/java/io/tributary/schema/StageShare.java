package io.tributary.schema;

import java.util.List;

/**
 * One instance's share of a stage's work, where instances share a pipeline.
 *
 * @param role the source: {@code active} (holds the lease) or {@code standby}; null for the other stages
 * @param partitions the partitions of the stage's input topic it owns (sorted); empty for the source
 * @param activeTasks the aggregation's Kafka Streams tasks it runs; empty for the other stages
 * @param standbyTasks the aggregation's tasks it keeps a warm copy of
 */
public record StageShare(String role, List<Integer> partitions, List<String> activeTasks, List<String> standbyTasks) {
}
