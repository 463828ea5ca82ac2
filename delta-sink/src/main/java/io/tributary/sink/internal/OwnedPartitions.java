package io.tributary.sink.internal;

import io.tributary.kafka.PartitionShare;
import io.tributary.schema.StageShare;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The topic partitions one instance of a shared sink owns: its {@link PartitionShare} in the
 * sink's consumer group (named after the sink's id), and what the sink last took of it.
 */
public final class OwnedPartitions implements AutoCloseable {
    /** How long the first batch waits for the group's first assignment before it runs with none. */
    private static final Duration FIRST_ASSIGNMENT = Duration.ofSeconds(30);

    private final PartitionShare share;
    /** True when the group shares a Kafka source's topics: the sink numbers their topic-partitions ({@link SourcePartitions}). */
    private final boolean numbered;
    private long seen = -1;
    private Set<org.apache.kafka.common.TopicPartition> taken = Set.of();
    private Set<Integer> current = Set.of();
    private boolean assignedOnce;

    private OwnedPartitions(PartitionShare share, boolean numbered) {
        this.share = share;
        this.numbered = numbered;
    }

    /** Joins consumer group {@code group} for {@code topic} as instance {@code instanceId}. */
    public static OwnedPartitions join(Map<String, Object> clientProps, String group, String topic, String instanceId) {
        return new OwnedPartitions(PartitionShare.join(clientProps, group, topic, instanceId), false);
    }

    /**
     * Joins consumer group {@code group} for the topic-partitions of a Kafka source of several topics or
     * a pattern as instance {@code instanceId}; {@link #number} gives the sink's numbers of those owned.
     */
    public static OwnedPartitions join(Map<String, Object> clientProps, String group, io.tributary.kafka.KafkaSubscription subscription,
                                       String instanceId) {
        return new OwnedPartitions(PartitionShare.join(clientProps, group, subscription, instanceId), true);
    }

    /**
     * Takes the lock that keeps the owned partitions from moving until {@link #unlock()}; fails if
     * the membership ended (another process took this instance's id).
     */
    public void lock() {
        if (!assignedOnce) {
            try {
                assignedOnce = share.awaitAssignment(FIRST_ASSIGNMENT);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw CommitErrors.interruptedJoining(share.group(), e);
            }
        }
        if (share.fencedBy() != null) {
            throw CommitErrors.instanceStopped(share.instanceId(), share.fencedBy());
        }
        if (share.failure() != null) {
            throw CommitErrors.membershipFailed(share.group(), share.failure().getMessage(), share.failure());
        }
        share.lock().lock();
    }

    public void unlock() {
        share.lock().unlock();
    }

    /** True if the group changed the partitions since {@link #take()}. */
    public boolean changed() {
        return share.generation() != seen;
    }

    /** The partitions owned now, remembered as the ones the sink works on (numbered by {@link #number}). */
    public Set<Integer> take() {
        seen = share.generation();
        taken = share.ownedTopicPartitions();
        current = share.owned();
        return current;
    }

    /**
     * The numbers the sink's {@code numbering} gives the topic-partitions {@link #take()} took (for
     * one topic, their partitions), remembered as the ones the sink works on. Called once the
     * table's numbers are loaded: they may differ from those of an earlier call.
     */
    public Set<Integer> number(java.util.function.Function<Set<org.apache.kafka.common.TopicPartition>, Set<Integer>> numbering) {
        if (numbered) {
            current = Set.copyOf(numbering.apply(taken));
        }
        return current;
    }

    /** The partitions the sink works on (as last taken). */
    public Set<Integer> current() {
        return current;
    }

    /**
     * The partitions the sink works on as users read them (progress records, {@code /instance}): their numbers
     * for one topic, or, over a Kafka source's several topics or pattern, the topic-partitions last taken by
     * topic, since the sink's own numbers of those say nothing to a user; both sorted.
     */
    public Object shown() {
        return numbered ? byTopic() : numbers();
    }

    /** This instance's share as {@code /instance} shows it ({@link #shown}). */
    public StageShare share() {
        return numbered ? new StageShare(null, List.of(), List.of(), List.of(), byTopic())
                : new StageShare(null, numbers(), List.of(), List.of());
    }

    private List<Integer> numbers() {
        return List.copyOf(new TreeSet<>(current));
    }

    private Map<String, List<Integer>> byTopic() {
        Map<String, TreeSet<Integer>> sorted = new TreeMap<>();
        taken.forEach(tp -> sorted.computeIfAbsent(tp.topic(), t -> new TreeSet<>()).add(tp.partition()));
        Map<String, List<Integer>> out = new TreeMap<>();
        sorted.forEach((t, ps) -> out.put(t, List.copyOf(ps)));
        return out;
    }

    /**
     * A batch's expected start offsets for the fence ({@link OffsetFence#shared}): each owned
     * partition with the table's offset, or {@link OffsetFence#NONE} where the table has none.
     */
    public Map<Integer, Long> expectedStart(Map<Integer, Long> tableOffsets) {
        Map<Integer, Long> out = new TreeMap<>();
        for (int p : current) {
            out.put(p, tableOffsets.getOrDefault(p, OffsetFence.NONE));
        }
        return out;
    }

    /**
     * The expected start offsets of the first commit to a new table, which records where every one
     * of {@code starts} begins: the table must hold none of them ({@link OffsetFence#NONE}).
     */
    public Map<Integer, Long> expectedFirst(Map<Integer, Long> starts) {
        Map<Integer, Long> out = new TreeMap<>();
        starts.keySet().forEach(p -> out.put(p, OffsetFence.NONE));
        current.forEach(p -> out.put(p, OffsetFence.NONE));
        return out;
    }

    /** {@code offsets} of the owned partitions only. */
    public Map<Integer, Long> ownedOf(Map<Integer, Long> offsets) {
        Map<Integer, Long> out = new TreeMap<>(offsets);
        out.keySet().retainAll(current);
        return out;
    }

    @Override
    public void close() {
        share.close();
    }
}
