package io.tributary.topology.internal;

import io.tributary.kafka.SettledEnds;
import io.tributary.kafka.TopicTrim;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;

/**
 * The events topic's offsets as the aggregation sees them, through an admin client of its own: the
 * read_committed end, what the application's group has committed, and the records before it deleted.
 */
public final class EventsOffsets implements AutoCloseable {
    private final Admin admin;
    private final String eventsTopic;
    private final String applicationId;

    public EventsOffsets(Map<String, Object> clientProps, String eventsTopic, String applicationId) {
        this.admin = Admin.create(clientProps);
        this.eventsTopic = eventsTopic;
        this.applicationId = applicationId;
    }

    /**
     * The read_committed end offset of every partition of the events topic, once the transactions that had
     * written records are complete ({@link SettledEnds}), or after {@code maxWait}: a partition is settled once
     * its committed end reaches its high watermark or moves past {@code from} (what the application last
     * committed there; what is still open then is a later transaction). Right after the ingest's commit
     * returned, the committed end can still stand before its rows: a batch that took it would find nothing.
     */
    public Map<TopicPartition, Long> settledEnd(Map<TopicPartition, Long> from, Duration maxWait) {
        try {
            List<TopicPartition> tps = admin.describeTopics(List.of(eventsTopic)).allTopicNames().get().get(eventsTopic)
                    .partitions().stream().map(p -> new TopicPartition(eventsTopic, p.partition())).toList();
            Map<TopicPartition, Long> high = SettledEnds.highWatermarks(admin, tps, tp -> tp);
            return SettledEnds.await(eventsTopic, () -> committedEnd(tps), high, from, maxWait);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw OffsetErrors.interruptedReadingEndOffsets(eventsTopic, e);
        } catch (ExecutionException e) {
            throw OffsetErrors.cannotReadEndOffsets(eventsTopic, e.getCause(), e);
        }
    }

    private Map<TopicPartition, Long> committedEnd(List<TopicPartition> tps) {
        Map<TopicPartition, OffsetSpec> req = tps.stream().collect(Collectors.toMap(tp -> tp, tp -> OffsetSpec.latest()));
        try {
            return admin.listOffsets(req, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED)).all().get().entrySet().stream()
                    .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw OffsetErrors.interruptedReadingEndOffsets(eventsTopic, e);
        } catch (ExecutionException e) {
            throw OffsetErrors.cannotReadEndOffsets(eventsTopic, e.getCause(), e);
        }
    }

    /** Asks for the group's committed offsets; {@link #committed(KafkaFuture)} reads the answer. */
    public KafkaFuture<Map<TopicPartition, OffsetAndMetadata>> askCommitted() {
        return admin.listConsumerGroupOffsets(applicationId).partitionsToOffsetAndMetadata();
    }

    /** The offsets the application's group has committed on the events topic now. */
    public Map<TopicPartition, Long> committed() {
        return committed(askCommitted());
    }

    /** The events topic's offsets in an answer of {@link #askCommitted()}. */
    public Map<TopicPartition, Long> committed(KafkaFuture<Map<TopicPartition, OffsetAndMetadata>> asked) {
        try {
            Map<TopicPartition, OffsetAndMetadata> m = asked.get();
            Map<TopicPartition, Long> out = new HashMap<>();
            m.forEach((tp, om) -> {
                if (om != null && tp.topic().equals(eventsTopic)) {
                    out.put(tp, om.offset());
                }
            });
            return out;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw OffsetErrors.interruptedReadingCommitted(applicationId, e);
        } catch (ExecutionException e) {
            throw OffsetErrors.cannotReadCommitted(applicationId, e.getCause(), e);
        }
    }

    /** Starts deleting the records before {@code offsets} ({@link TopicTrim}). */
    public KafkaFuture<Void> trimBefore(Map<TopicPartition, Long> offsets) {
        return TopicTrim.before(admin, offsets);
    }

    /** True when {@code committed} is at or past {@code end} on every partition that holds records. */
    public static boolean caughtUp(Map<TopicPartition, Long> committed, Map<TopicPartition, Long> end) {
        return end.entrySet().stream().allMatch(e -> e.getValue() == 0 || committed.getOrDefault(e.getKey(), 0L) >= e.getValue());
    }

    /** {@code offsets} on the partitions of {@code keep} only. */
    public static Map<TopicPartition, Long> only(Map<TopicPartition, Long> offsets, Set<TopicPartition> keep) {
        Map<TopicPartition, Long> out = new HashMap<>(offsets);
        out.keySet().retainAll(keep);
        return out;
    }

    /** {@code offsets} with those of {@code newer} over them. */
    public static Map<TopicPartition, Long> merged(Map<TopicPartition, Long> offsets, Map<TopicPartition, Long> newer) {
        Map<TopicPartition, Long> out = new HashMap<>(offsets);
        out.putAll(newer);
        return out;
    }

    public void close(Duration timeout) {
        admin.close(timeout);
    }

    @Override
    public void close() {
        close(Duration.ofSeconds(5));
    }
}
