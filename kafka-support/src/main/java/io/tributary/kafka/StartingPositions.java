package io.tributary.kafka;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.TopicPartition;

/** Where a new query over a Kafka source starts in each partition: Spark's startingOffsets or startingTimestamp. */
public final class StartingPositions {
    private StartingPositions() {
    }

    /**
     * Spark's startingOffsets (earliest, latest, or the offsets given, -2 and -1 resolved; an offset past a
     * partition's end starts at the end) or startingTimestamp (the first record at or after it, the end where
     * there is none), in each of {@code partitions}.
     *
     * @throws io.tributary.schema.TributaryException when the offsets given leave out one of {@code partitions}
     */
    public static Map<TopicPartition, Long> of(KafkaSubscription subscription, Consumer<?, ?> consumer,
                                               Collection<TopicPartition> partitions) {
        Map<TopicPartition, Long> start = new HashMap<>();
        Map<TopicPartition, Long> begin = consumer.beginningOffsets(partitions);
        Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
        if (subscription.startingTimestamp() != null) {
            Map<TopicPartition, Long> query = new HashMap<>();
            partitions.forEach(tp -> query.put(tp, subscription.startingTimestamp()));
            Map<TopicPartition, OffsetAndTimestamp> found = consumer.offsetsForTimes(query);
            for (TopicPartition tp : partitions) {
                OffsetAndTimestamp at = found.get(tp);
                start.put(tp, at == null ? end.get(tp) : at.offset());
            }
            return start;
        }
        StartingOffsets so = subscription.startingOffsets();
        List<TopicPartition> missing = new ArrayList<>();
        for (TopicPartition tp : partitions) {
            long o = switch (so.kind()) {
                case EARLIEST -> StartingOffsets.EARLIEST;
                case LATEST -> StartingOffsets.LATEST;
                case SPECIFIC -> so.offsets().getOrDefault(tp.topic(), Map.of()).getOrDefault(tp.partition(), Long.MIN_VALUE);
            };
            if (o == Long.MIN_VALUE) {
                missing.add(tp);
                continue;
            }
            start.put(tp, o == StartingOffsets.EARLIEST ? begin.get(tp) : o == StartingOffsets.LATEST ? end.get(tp)
                    : Math.min(o, end.get(tp)));
        }
        if (!missing.isEmpty()) {
            throw KafkaErrors.startingOffsetsMissing(missing);
        }
        return start;
    }
}
