package io.tributary.sink.internal;

import io.tributary.kafka.PartitionShare;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The topic partitions one instance of a shared sink owns: its {@link PartitionShare} in the
 * sink's consumer group (named after the sink's id), and what the sink last took of it.
 */
public final class OwnedPartitions implements AutoCloseable {
    /** How long the first batch waits for the group's first assignment before it runs with none. */
    private static final Duration FIRST_ASSIGNMENT = Duration.ofSeconds(30);

    private final PartitionShare share;
    private long seen = -1;
    private Set<Integer> current = Set.of();
    private boolean assignedOnce;

    private OwnedPartitions(PartitionShare share) {
        this.share = share;
    }

    /** Joins consumer group {@code group} for {@code topic} as instance {@code instanceId}. */
    public static OwnedPartitions join(Map<String, Object> clientProps, String group, String topic, String instanceId) {
        return new OwnedPartitions(PartitionShare.join(clientProps, group, topic, instanceId));
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

    /** The partitions owned now, remembered as the ones the sink works on. */
    public Set<Integer> take() {
        seen = share.generation();
        current = share.owned();
        return current;
    }

    /** The partitions the sink works on (as last taken). */
    public Set<Integer> current() {
        return current;
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
