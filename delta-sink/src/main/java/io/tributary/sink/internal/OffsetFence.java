package io.tributary.sink.internal;

import io.delta.kernel.Snapshot;
import io.tributary.schema.TributaryException;
import io.tributary.sink.SinkOffsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.kafka.common.TopicPartition;

/**
 * Which of the sink's offsets ({@link SinkOffsets}, in the table) a commit checks and writes,
 * inside the commit's conflict window (the snapshot the commit is built on, and which a
 * concurrent commit makes it lose):
 * <ul>
 *   <li>{@link #WHOLE}: one sink writes the table and reads every partition: the table must hold
 *       exactly the offsets the batch started from, and the batch's offsets replace them;</li>
 *   <li>{@link #shared shared}: several instances share the topic's partitions, each commits the
 *       partitions it owns: the table must hold, for each partition of the batch, the offset the
 *       batch started from (a compare-and-set per partition: an instance that lost a partition
 *       cannot commit it once its new owner did), and the batch's offsets replace those of its
 *       partitions only, the others' stay as the snapshot has them; for a Kafka source of several
 *       topics or a pattern, the numbers its topic-partitions have in the batch must be those the
 *       table holds, and new ones are added to the table's.</li>
 * </ul>
 * The expected start offsets of a shared batch name every partition of the batch; {@link #NONE}
 * stands for a partition the table holds no offset for yet.
 */
final class OffsetFence {
    /** In a shared batch's expected start offsets: the table holds no offset for this partition yet. */
    static final long NONE = -1;
    static final OffsetFence WHOLE = new OffsetFence(null);

    /** The sink's id in the table's offsets when shared; null for the whole table. */
    private final String sinkId;

    private OffsetFence(String sinkId) {
        this.sinkId = sinkId;
    }

    /** The fence of instances of sink {@code sinkId} that share the topic's partitions. */
    static OffsetFence shared(String sinkId) {
        return new OffsetFence(Objects.requireNonNull(sinkId, "sinkId"));
    }

    boolean shared() {
        return sinkId != null;
    }

    /** True if {@code expectedStart} says the table holds none of the batch's offsets (a new table is fine). */
    boolean claimsNothing(Map<Integer, Long> expectedStart) {
        return expectedStart.values().stream().allMatch(o -> o == NONE);
    }

    /**
     * Checks that {@code snap} holds the offsets batch {@code batchId} of {@code appId} started from.
     *
     * @throws BatchSuperseded (shared) another instance committed one of the batch's partitions
     * @throws TributaryException (whole) the table holds other offsets or another sink's
     */
    void check(Snapshot snap, String tablePath, String appId, long batchId, Map<Integer, Long> expectedStart) {
        Optional<SinkOffsets> stored = snap.getDomainMetadata(SinkOffsets.DOMAIN).map(SinkOffsets::parse);
        String owner = shared() ? sinkId : appId;
        if (stored.isPresent() && !owner.equals(stored.get().appId())) {
            throw CommitErrors.ownedByAnotherSink(tablePath, stored.get().appId(), owner);
        }
        Map<Integer, Long> actual = stored.map(SinkOffsets::offsets).orElse(Map.of());
        if (!shared()) {
            if (!actual.equals(expectedStart)) {
                throw CommitErrors.offsetsStale(tablePath, snap.getVersion(), actual, appId, expectedStart);
            }
            return;
        }
        Map<Integer, Long> moved = new TreeMap<>();
        expectedStart.forEach((p, o) -> {
            long now = actual.getOrDefault(p, NONE);
            if (now != o) {
                moved.put(p, now);
            }
        });
        if (!moved.isEmpty()) {
            throw CommitErrors.partitionsMovedOn(tablePath, snap.getVersion(), moved.keySet(), moved, batchId, appId, expectedStart);
        }
    }

    /** The offsets a commit built on {@code base} writes: the batch's, plus (shared) the other partitions' as {@code base} holds them. */
    String domainJson(Optional<Snapshot> base, SinkOffsets next) {
        if (!shared()) {
            return next.toJson();
        }
        Optional<SinkOffsets> had = base.flatMap(s -> s.getDomainMetadata(SinkOffsets.DOMAIN)).map(SinkOffsets::parse);
        Map<Integer, Long> merged = new TreeMap<>(had.map(SinkOffsets::offsets).orElse(Map.of()));
        merged.putAll(next.offsets());
        Map<Integer, TopicPartition> sources = new TreeMap<>(had.map(SinkOffsets::sources).orElse(Map.of()));
        Map<TopicPartition, Integer> numbers = new HashMap<>();
        sources.forEach((n, tp) -> numbers.put(tp, n));
        next.sources().forEach((n, tp) -> {
            TopicPartition was = sources.get(n);
            Integer numbered = numbers.get(tp);
            if (was != null && !was.equals(tp) || numbered != null && numbered != n.intValue()) {
                // another instance numbered a topic-partition first (it saw other topics then): the batch reads the table's numbers again
                throw CommitErrors.numberedOtherwise(base.get().getPath(), base.get().getVersion(), n, tp, was, numbered);
            }
            sources.put(n, tp);
            numbers.put(tp, n);
        });
        return new SinkOffsets(sinkId, next.topic(), next.topicId(), merged, next.cluster(), sources).toJson();
    }
}
