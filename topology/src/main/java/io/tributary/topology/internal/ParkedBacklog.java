package io.tributary.topology.internal;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.common.TopicPartition;

/**
 * How many source records each partition of a Kafka source has parked ({@link HeldRecords}) in one application, so
 * that its consumer stops fetching a partition whose backlog grew past {@link #PAUSE_AT} ({@link PausingConsumer}):
 * Spark reads nothing past a batch's {@code maxOffsetsPerTrigger} bounds, and a fast topic read under a small limit
 * would otherwise park without end. The tasks write it, the stream threads' consumers read it.
 */
final class ParkedBacklog {
    /** A partition that parks this many records is paused: about what Kafka Streams buffers of a partition itself. */
    static final int PAUSE_AT = 1000;
    /** A paused partition is resumed once it parks fewer than this. */
    static final int RESUME_BELOW = PAUSE_AT / 2;
    private static final Map<String, ParkedBacklog> BY_APPLICATION = new ConcurrentHashMap<>();

    private final Map<TopicPartition, Integer> parked = new ConcurrentHashMap<>();

    private ParkedBacklog() {
    }

    /** The backlog of an application's tasks in this process. */
    static ParkedBacklog of(String applicationId) {
        return BY_APPLICATION.computeIfAbsent(applicationId, id -> new ParkedBacklog());
    }

    /** Forgets the partitions of a task (partition {@code task} of every source topic): it opens here anew. */
    void forgetTask(int task) {
        parked.keySet().removeIf(tp -> tp.partition() == task);
    }

    void set(TopicPartition tp, int records) {
        if (records <= 0) {
            parked.remove(tp);
        } else {
            parked.put(tp, records);
        }
    }

    int parked(TopicPartition tp) {
        return parked.getOrDefault(tp, 0);
    }
}
