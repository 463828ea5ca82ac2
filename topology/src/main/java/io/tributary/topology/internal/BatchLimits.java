package io.tributary.topology.internal;

import io.tributary.kafka.KafkaSubscription;
import io.tributary.kafka.MinOffsets;
import io.tributary.kafka.RateLimit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.kafka.common.TopicPartition;

/**
 * The limits of the batches an aggregation over a Kafka source cuts, as Spark's Kafka source reads them: a batch waits
 * while fewer than {@code minOffsetsPerTrigger} offsets are there past where the last batch ended, until
 * {@code maxTriggerDelay} passed since the last batch (not in a bounded run: availableNow and once read what is there),
 * and spans at most {@code maxOffsetsPerTrigger} offsets, split over the partitions by how far each is behind.
 */
final class BatchLimits {
    private final KafkaSubscription subscription;
    /** minOffsetsPerTrigger, or null. */
    private final MinOffsets min;
    private final boolean bounded;
    /** A bounded run: the end offsets when it began, which its batches count to (Spark's availableNow). */
    private Map<TopicPartition, Long> endsAtStart;
    /**
     * The partitions whose bound stopped at their last record short of where Spark's batch ends (a commit marker after it):
     * that bound, and Spark's end, from which Spark's next batch counts. Not kept across restarts.
     */
    private final Map<TopicPartition, long[]> endedAt = new HashMap<>();

    BatchLimits(KafkaSubscription subscription, boolean bounded) {
        this.subscription = subscription;
        this.bounded = bounded;
        this.min = bounded || subscription.minOffsets() == null ? null : new MinOffsets(subscription.minOffsets());
    }

    /**
     * The next batch's bounds: {@code bounds} capped by maxOffsetsPerTrigger, or null when minOffsetsPerTrigger delays the
     * batch's offsets that are there. A partition stands where the last batch ended, else where the query started, else at its earliest offset.
     * As Spark's, both count to each partition's end offset (a transaction's commit marker at the end counts), and a
     * bound is then no further than the partition's last record ({@code bounds}), which a task can read up to.
     *
     * @param bounds each partition's offset after its last record a read_committed reader gets
     * @param beginnings each partition's earliest offset, asked only for a partition that neither gives
     * @param ends each partition's end offset
     */
    Map<TopicPartition, Long> next(SourceBatch last, Map<TopicPartition, Long> starts, Map<TopicPartition, Long> bounds,
                                   Function<List<TopicPartition>, Map<TopicPartition, Long>> beginnings,
                                   Function<List<TopicPartition>, Map<TopicPartition, Long>> ends) {
        long limit = subscription.maxOffsetsPerTrigger();
        if (limit <= 0 && min == null) {
            return bounds;
        }
        if (bounds.isEmpty()) {
            if (min != null) {
                min.delays(Map.of(), Map.of(), System.currentTimeMillis()); // Spark's first trigger starts the clock, even with nothing there
            }
            return bounds;
        }
        Map<TopicPartition, Long> from = new HashMap<>();
        List<TopicPartition> fresh = new ArrayList<>();
        for (TopicPartition tp : bounds.keySet()) {
            Long at = last != null && last.bounds().containsKey(tp) ? last.bounds().get(tp) : starts.get(tp);
            long[] ended = endedAt.get(tp);
            if (at == null) {
                fresh.add(tp);
            } else {
                from.put(tp, ended != null && ended[0] == at ? ended[1] : at);
            }
        }
        if (!fresh.isEmpty()) {
            from.putAll(beginnings.apply(fresh));
        }
        if (bounded && endsAtStart == null) {
            endsAtStart = Map.copyOf(ends.apply(List.copyOf(bounds.keySet())));
        }
        Map<TopicPartition, Long> until = new HashMap<>(bounded ? endsAtStart : ends.apply(List.copyOf(bounds.keySet())));
        until.keySet().retainAll(bounds.keySet());
        bounds.forEach((tp, b) -> until.merge(tp, b, Math::max));
        if (min != null && min.delays(from, until, System.currentTimeMillis())) {
            boolean any = until.entrySet().stream().anyMatch(e -> e.getValue() > from.getOrDefault(e.getKey(), 0L));
            return any ? null : bounds; // nothing there: no batch either way, and a quiet source
        }
        Map<TopicPartition, Long> capped = new HashMap<>(RateLimit.cap(limit, from, until));
        endedAt.clear();
        capped.replaceAll((tp, c) -> {
            long b = bounds.get(tp);
            if (c > b) {
                endedAt.put(tp, new long[] {b, c});
            }
            return Math.min(c, b);
        });
        return capped;
    }
}
