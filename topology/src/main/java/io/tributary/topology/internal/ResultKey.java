package io.tributary.topology.internal;

import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.processor.StreamPartitioner;

/**
 * What a results record is forwarded with in place of a key: the input partition it came from,
 * so that a task's results and its forwarded markers land on the same results partition (input
 * partition mod the results topic's partition count): a marker then follows every result of its
 * batch on that partition. Results records have no Kafka key (a record packs many rows).
 */
record ResultKey(int inputPartition) {

    static final Serializer<ResultKey> SERIALIZER = (topic, key) -> null;

    static final StreamPartitioner<ResultKey, Object> PARTITIONER = new StreamPartitioner<>() {
        @Override
        public Optional<Set<Integer>> partitions(String topic, ResultKey key, Object value, int numPartitions) {
            return Optional.of(Set.of(Math.floorMod(key.inputPartition(), numPartitions)));
        }
    };
}
