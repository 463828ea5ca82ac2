package io.tributary.topology.internal;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import org.apache.kafka.common.TopicPartition;

/**
 * The source partitions that the last batch of an aggregation over a Kafka source does not know yet (a partition added
 * to a topic, or a topic that came to match the pattern, after the batch began), in one application: their consumer
 * does not fetch them ({@link PausingConsumer}) until a batch takes them in, as Spark's Kafka source reads such a
 * partition from its earliest offset in a following batch. An availableNow run's batches know only the partitions
 * there when it began, so it reads nothing of those added later. The batches topic's reader writes it, the stream
 * threads' consumers read it.
 */
final class UnknownPartitions {
    private static final Map<String, UnknownPartitions> BY_APPLICATION = new ConcurrentHashMap<>();

    /** The topics the source reads, or null before the first batch (nothing waits then). */
    private volatile Predicate<String> sourceTopic;
    /** The partitions the last batch knows. */
    private volatile Set<TopicPartition> known = Set.of();

    private UnknownPartitions() {
    }

    /** The unknown partitions of an application's tasks in this process. */
    static UnknownPartitions of(String applicationId) {
        return BY_APPLICATION.computeIfAbsent(applicationId, id -> new UnknownPartitions());
    }

    /**
     * The last batch published: the source's partitions it does not know wait.
     *
     * @param sourceTopic the topics the source reads
     * @param batchKnows the partitions the batch knows; null (a batch written before batches named them): all
     */
    void published(Predicate<String> sourceTopic, Set<TopicPartition> batchKnows) {
        this.known = batchKnows == null ? Set.of() : Set.copyOf(batchKnows);
        this.sourceTopic = batchKnows == null ? null : sourceTopic;
    }

    /** True when {@code tp} is a source partition the last batch does not know: it is not read yet. */
    boolean waits(TopicPartition tp) {
        Predicate<String> source = sourceTopic;
        return source != null && source.test(tp.topic()) && !known.contains(tp);
    }
}
