package io.tributary.sink.internal;

import io.tributary.schema.TributaryException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.common.TopicPartition;

/**
 * The partitions a {@link TopicReader}'s consumer is assigned and where it stands in them: every
 * partition of the topic (or of a Kafka source's topics, numbered by {@link SourcePartitions}), or
 * only those this instance owns. Offsets are keyed by those numbers.
 */
final class AssignedPartitions {
    private final String topic;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final TopicLookup lookup;
    private final SourcePartitions sources;
    private final List<TopicPartition> partitions = new ArrayList<>();
    /** The partitions read (those the instance owns), or null for all of the topic's. */
    private Set<Integer> only;

    AssignedPartitions(String topic, KafkaConsumer<byte[], byte[]> consumer, TopicLookup lookup, SourcePartitions sources) {
        this.topic = topic;
        this.consumer = consumer;
        this.lookup = lookup;
        this.sources = sources;
    }

    /** The partitions assigned now. */
    List<TopicPartition> list() {
        return partitions;
    }

    /** Reads only {@code owned} of the topic's partitions from now on (null: all of them), positioned as {@link #assign(Map)} does. */
    void assign(Map<Integer, Long> offsets, Set<Integer> owned) {
        this.only = owned == null ? null : Set.copyOf(owned);
        assign(offsets);
    }

    /**
     * Assigns every partition of the topic (or those given to {@link #assign(Map, Set)});
     * partitions in {@code offsets} start there, others (and new ones) at the beginning.
     */
    void assign(Map<Integer, Long> offsets) {
        partitions.clear();
        for (TopicPartition tp : current()) {
            if (only == null || only.contains(sources.of(tp))) {
                partitions.add(tp);
            }
        }
        consumer.assign(partitions);
        List<TopicPartition> fromBeginning = new ArrayList<>();
        for (TopicPartition tp : partitions) {
            Long o = offsets.get(sources.of(tp));
            if (o == null) {
                fromBeginning.add(tp);
            } else {
                consumer.seek(tp, o);
            }
        }
        if (!fromBeginning.isEmpty()) { // an empty list would mean "all assigned partitions"
            consumer.seekToBeginning(fromBeginning);
        }
    }

    /** Picks up partitions added to the topic since {@link #assign}, reading them from the beginning. */
    void refresh() {
        if (only != null) {
            return; // the group assigns new partitions
        }
        List<TopicPartition> now = current();
        if (!partitions.containsAll(now)) {
            Map<Integer, Long> keep = positions();
            assign(keep);
        }
    }

    /** The topic's partitions now (or a Kafka source's topics' partitions). */
    List<TopicPartition> current() {
        if (sources.isIdentity()) {
            return lookup.partitions(consumer);
        }
        List<TopicPartition> now = sources.current(consumer);
        sources.number(now); // in sorted order, as every instance numbers them
        return now;
    }

    /** The numbers of {@code owned} (a share of a Kafka source's topics), the subscription's topic-partitions numbered first. */
    java.util.Set<Integer> numbers(java.util.Set<TopicPartition> owned) {
        List<TopicPartition> all = new ArrayList<>(current());
        all.addAll(owned);
        sources.number(all);
        java.util.Set<Integer> out = new java.util.TreeSet<>();
        owned.forEach(tp -> out.add(sources.of(tp)));
        return out;
    }

    /** The read_committed end offsets (last stable offsets) of all assigned partitions. */
    Map<Integer, Long> endOffsets() {
        Map<Integer, Long> end = new TreeMap<>();
        consumer.endOffsets(partitions).forEach((tp, o) -> end.put(sources.of(tp), o));
        return end;
    }

    /** The first offset still in the topic, per assigned partition (above 0 where records were deleted). */
    Map<Integer, Long> beginningOffsets() {
        Map<Integer, Long> begin = new TreeMap<>();
        consumer.beginningOffsets(partitions).forEach((tp, o) -> begin.put(sources.of(tp), o));
        return begin;
    }

    /** The next offset to read, per assigned partition. */
    Map<Integer, Long> positions() {
        Map<Integer, Long> pos = new TreeMap<>();
        try {
            for (TopicPartition tp : partitions) {
                pos.put(sources.of(tp), consumer.position(tp));
            }
        } catch (OffsetOutOfRangeException e) {
            throw dataLoss(e);
        }
        return pos;
    }

    /** The assigned partitions whose position is below {@code end}. */
    List<TopicPartition> open(Map<Integer, Long> end) {
        List<TopicPartition> open = new ArrayList<>();
        for (TopicPartition tp : partitions) {
            if (consumer.position(tp) < end.getOrDefault(sources.of(tp), 0L)) {
                open.add(tp);
            }
        }
        return open;
    }

    TributaryException dataLoss(OffsetOutOfRangeException e) {
        return SinkErrors.dataLoss(e.offsetOutOfRangePartitions(), topic, e);
    }
}
