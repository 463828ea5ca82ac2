package io.tributary.topology.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * A stream thread's main consumer that also pauses the partitions whose parked backlog ({@link ParkedBacklog}) reached
 * {@link ParkedBacklog#PAUSE_AT}, and resumes them once it fell below {@link ParkedBacklog#RESUME_BELOW}; and the source
 * partitions no batch knows yet ({@link UnknownPartitions}), until one does. Kafka Streams' own pauses (a full buffer, a
 * task not running) are kept apart: a partition is fetched only when neither pauses it, and {@link #paused()} answers
 * Kafka Streams with its own.
 */
final class PausingConsumer extends KafkaConsumer<byte[], byte[]> {
    private final ParkedBacklog backlog;
    private final UnknownPartitions unknown;
    /** The partitions Kafka Streams paused. */
    private final Set<TopicPartition> byStreams = new HashSet<>();
    /** The partitions paused for their backlog or because no batch knows them: paused by this consumer. */
    private final Set<TopicPartition> byBacklog = new HashSet<>();

    PausingConsumer(Map<String, Object> config, ParkedBacklog backlog, UnknownPartitions unknown) {
        super(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        this.backlog = backlog;
        this.unknown = unknown;
    }

    @Override
    public ConsumerRecords<byte[], byte[]> poll(Duration timeout) {
        Set<TopicPartition> assigned = assignment();
        byBacklog.retainAll(assigned);
        byStreams.retainAll(assigned);
        List<TopicPartition> pause = new ArrayList<>();
        List<TopicPartition> resume = new ArrayList<>();
        for (TopicPartition tp : assigned) {
            int parked = backlog.parked(tp);
            boolean waits = unknown.waits(tp);
            if ((waits || parked >= ParkedBacklog.PAUSE_AT) && byBacklog.add(tp)) {
                pause.add(tp);
            } else if (!waits && parked < ParkedBacklog.RESUME_BELOW && byBacklog.remove(tp) && !byStreams.contains(tp)) {
                resume.add(tp);
            }
        }
        if (!pause.isEmpty()) {
            super.pause(pause);
        }
        if (!resume.isEmpty()) {
            super.resume(resume);
        }
        return super.poll(timeout);
    }

    @Override
    public void pause(Collection<TopicPartition> partitions) {
        byStreams.addAll(partitions);
        super.pause(partitions);
    }

    @Override
    public void resume(Collection<TopicPartition> partitions) {
        byStreams.removeAll(partitions);
        List<TopicPartition> free = partitions.stream().filter(tp -> !byBacklog.contains(tp) && !unknown.waits(tp)).toList();
        List<TopicPartition> waiting = partitions.stream().filter(unknown::waits).toList();
        if (!waiting.isEmpty()) { // a partition no batch knows yet, newly assigned: it stays paused, by this consumer now
            byBacklog.addAll(waiting);
            super.pause(waiting);
        }
        super.resume(free);
    }

    @Override
    public Set<TopicPartition> paused() {
        Set<TopicPartition> out = new HashSet<>(super.paused());
        out.removeIf(tp -> byBacklog.contains(tp) && !byStreams.contains(tp));
        return out;
    }
}
