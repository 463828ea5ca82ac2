package io.tributary.kafka;

import io.tributary.settings.Values;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * Spark's {@code minOffsetsPerTrigger} with {@code maxTriggerDelay}, as {@code KafkaMicroBatchStream.delayBatch} decides
 * it: a trigger is skipped while fewer than the minimum of offsets are there past where the last batch ended (counted to
 * each partition's end offset, over all partitions), unless {@code maxTriggerDelay} passed since the last trigger that
 * ran. As Spark's, the clock starts at 0 when the query starts, so the first trigger is never delayed, and it is not kept
 * across restarts. availableNow and once read all there is, as Spark's do: their callers do not ask.
 */
public final class MinOffsets {
    /** The settings: at least {@code minOffsets} per batch, unless {@code maxTriggerDelay} passed. */
    public record Limit(long minOffsets, Duration maxTriggerDelay) {
        public Limit {
            Objects.requireNonNull(maxTriggerDelay, "maxTriggerDelay");
            if (minOffsets < 1) {
                throw new IllegalArgumentException("minOffsets must be at least 1, not " + minOffsets);
            }
        }
    }

    private final Limit limit;
    private long lastTriggerMs;

    public MinOffsets(Limit limit) {
        this.limit = Objects.requireNonNull(limit, "limit");
    }

    /** The limit a source's settings give, or null without {@code minOffsetsPerTrigger}; refused above {@code maxOffsetsPerTrigger}. */
    static Limit limit(Values v) {
        if (!v.has(KafkaSourceSettings.MIN_OFFSETS_PER_TRIGGER)) {
            return null;
        }
        long min = v.get(KafkaSourceSettings.MIN_OFFSETS_PER_TRIGGER);
        if (v.has(KafkaSourceSettings.MAX_OFFSETS_PER_TRIGGER) && min > v.get(KafkaSourceSettings.MAX_OFFSETS_PER_TRIGGER)) {
            throw KafkaErrors.minOffsetsAboveMax(v.name(KafkaSourceSettings.MIN_OFFSETS_PER_TRIGGER), min,
                    v.name(KafkaSourceSettings.MAX_OFFSETS_PER_TRIGGER), v.get(KafkaSourceSettings.MAX_OFFSETS_PER_TRIGGER));
        }
        return new Limit(min, v.get(KafkaSourceSettings.MAX_TRIGGER_DELAY));
    }

    /**
     * True when this trigger waits: fewer than the minimum of offsets from {@code from} to {@code latest} (a partition
     * missing from {@code from}: from 0), and less than {@code maxTriggerDelay} since the last trigger that ran. A trigger
     * that is not delayed is taken as run.
     */
    public <K> boolean delays(Map<K, Long> from, Map<K, Long> latest, long nowMs) {
        if (nowMs - lastTriggerMs >= limit.maxTriggerDelay().toMillis()) {
            lastTriggerMs = nowMs;
            return false;
        }
        long available = 0;
        for (Map.Entry<K, Long> e : latest.entrySet()) {
            available += e.getValue() - from.getOrDefault(e.getKey(), 0L);
        }
        if (available < limit.minOffsets()) {
            return true;
        }
        lastTriggerMs = nowMs;
        return false;
    }
}
