package io.tributary.sink.internal;

import io.tributary.kafka.StartingPositions;
import io.tributary.kafka.KafkaSubscription;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;

/**
 * The topic-partitions a sink reads, each under a number of its own: the sink keeps and commits
 * offsets per number, so several topics (a Kafka source's {@code topics} or {@code topicPattern})
 * read as one. For the pipeline's own topic the number is the partition ({@link #identity}); for a
 * {@link KafkaSubscription} of one named topic too (its tables are those of the first Kafka source);
 * for several topics or a pattern the numbers are recorded in the table with the offsets
 * ({@code SinkOffsets.sources}), and the topic-partitions the table has no number for take the next
 * ones in the order of their topic's name, then their partition ({@link #number}): instances that
 * share the topics and read the same table and metadata number them alike, and a commit whose
 * numbers disagree with the table's is refused ({@link OffsetFence}), its sink loading the table's.
 */
public final class SourcePartitions {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(SourcePartitions.class);
    private final KafkaSubscription subscription;
    private final Map<TopicPartition, Integer> numbers = new HashMap<>();
    private final Map<Integer, TopicPartition> byNumber = new TreeMap<>();

    /** availableNow: the end offsets of the first batch, which no later batch passes; null until then, or when not bounded. */
    private Map<Integer, Long> endAtStart;
    private boolean endsAtStart;
    /** The number of a topic-partition is its partition: one topic. */
    private final boolean byPartition;

    private SourcePartitions(KafkaSubscription subscription) {
        this.subscription = subscription;
        this.byPartition = subscription == null || subscription.pattern() == null && subscription.topics().size() == 1;
    }

    /** The partitions of one topic, numbered as they are. */
    static SourcePartitions identity() {
        return new SourcePartitions(null);
    }

    /** The topic-partitions of {@code subscription}, numbered as the table says, new ones in sorted order. */
    static SourcePartitions of(KafkaSubscription subscription) {
        return new SourcePartitions(subscription);
    }

    /** True for the pipeline's own topic (no subscription). */
    boolean isIdentity() {
        return subscription == null;
    }

    /** True when the numbers are the partitions of one topic. */
    boolean byPartition() {
        return byPartition;
    }

    KafkaSubscription subscription() {
        return subscription;
    }

    /** The number of a topic-partition: its partition for one topic, else its own (a new one the first time). */
    int of(TopicPartition tp) {
        if (byPartition) {
            return tp.partition();
        }
        return numbers.computeIfAbsent(tp, t -> {
            int next = byNumber.isEmpty() ? 0 : ((TreeMap<Integer, TopicPartition>) byNumber).lastKey() + 1;
            byNumber.put(next, t);
            return next;
        });
    }

    /**
     * Numbers those of {@code partitions} that have no number yet, after the highest one, in the
     * order of their topic's name, then their partition.
     */
    void number(Collection<TopicPartition> partitions) {
        if (byPartition) {
            return;
        }
        partitions.stream().filter(tp -> !numbers.containsKey(tp)).distinct()
                .sorted(Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition))
                .forEach(this::of);
    }

    int of(String topic, int partition) {
        return byPartition ? partition : of(new TopicPartition(topic, partition));
    }

    /** The topic-partition of {@code number}; for one topic, {@code topic}'s partition {@code number}. */
    TopicPartition partition(String topic, int number) {
        return byPartition ? new TopicPartition(topic, number) : byNumber.get(number);
    }

    /**
     * Takes the numbers the table recorded (those of a sink of a subscription): they replace this
     * sink's own, and a topic-partition the table has no number for is numbered again ({@link #number}).
     */
    void load(Map<Integer, TopicPartition> recorded) {
        if (byPartition) {
            return;
        }
        numbers.clear();
        byNumber.clear();
        recorded.forEach((n, tp) -> {
            byNumber.put(n, tp);
            numbers.put(tp, n);
        });
    }

    /** What the table records with the offsets: every number and its topic-partition (empty for one topic). */
    public Map<Integer, TopicPartition> recorded() {
        return byPartition ? Map.of() : Map.copyOf(byNumber);
    }

    /** The subscription's topic-partitions now: the topics it names (those that exist), or those matching its pattern. */
    List<TopicPartition> current(Consumer<?, ?> consumer) {
        List<TopicPartition> all = new ArrayList<>();
        for (Map.Entry<String, List<PartitionInfo>> t : consumer.listTopics().entrySet()) {
            if (subscription.subscribes(t.getKey())) {
                t.getValue().forEach(i -> all.add(new TopicPartition(i.topic(), i.partition())));
            }
        }
        all.sort(Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition));
        return all;
    }

    /**
     * Where a new table starts in each of {@code partitions}: Spark's startingOffsets (earliest,
     * latest, or the offsets given, -2 and -1 resolved) or startingTimestamp (the first record at or
     * after it, the end where there is none).
     */
    Map<Integer, Long> starting(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
        Map<Integer, Long> start = new TreeMap<>();
        // an offset below a partition's earliest is refused or skipped as failOnDataLoss says, at the first batch
        StartingPositions.of(subscription, consumer, partitions).forEach((tp, o) -> start.put(of(tp), o));
        return start;
    }

    /**
     * Positions below a partition's earliest offset (retention deleted records the table had not
     * read): with {@code fail} an error naming the topic, the partition and the gap; without, each
     * such partition moves on to its earliest offset. Returns the records so skipped.
     */
    long dropLost(Consumer<?, ?> consumer, List<TopicPartition> partitions, boolean fail) {
        long lost = 0;
        Map<TopicPartition, Long> begin = consumer.beginningOffsets(partitions);
        for (TopicPartition tp : partitions) {
            long pos = consumer.position(tp);
            long first = begin.getOrDefault(tp, 0L);
            if (pos < first) {
                if (fail) {
                    throw SinkErrors.kafkaDataLoss(tp.topic(), tp.partition(), pos, first);
                }
                LOG.warn("kafka source: topic {} partition {}: offsets {} to {} were deleted by retention before the table read them;"
                        + " failOnDataLoss false: {} records lost, reading on from {}", tp.topic(), tp.partition(), pos, first - 1,
                        first - pos, first);
                lost += first - pos;
                consumer.seek(tp, first);
            }
        }
        return lost;
    }

    /** Spark's availableNow: the run reads up to the end offsets its first batch saw, then ends. */
    void endAtStart() {
        endsAtStart = true;
    }

    /**
     * A batch's end: {@code end}, or with {@link #endAtStart()} no further than the first batch's
     * end (a partition first seen later: not read in this run).
     */
    Map<Integer, Long> bounded(Map<Integer, Long> end, Map<Integer, Long> positions) {
        if (!endsAtStart) {
            return end;
        }
        if (endAtStart == null) {
            endAtStart = new TreeMap<>(end);
        }
        Map<Integer, Long> out = new TreeMap<>();
        end.forEach((n, e) -> out.put(n, endAtStart.containsKey(n) ? Math.min(e, endAtStart.get(n)) : positions.getOrDefault(n, e)));
        return out;
    }
}
