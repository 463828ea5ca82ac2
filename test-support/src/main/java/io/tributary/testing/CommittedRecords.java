package io.tributary.testing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * A topic's committed records as a user checks them: a {@code read_committed} consumer of no group,
 * assigned every partition, from the beginning (or given offsets) to the end offsets {@link Ends}
 * gives, in partition and offset order.
 */
public final class CommittedRecords {
    private CommittedRecords() {
    }

    /** Where a read stops, per partition, asked once the consumer is assigned and positioned. */
    @FunctionalInterface
    public interface Ends {
        /**
         * The end offsets of {@code partitions}; {@code clientProps} are the consumer's settings
         * (e.g. for {@code SettledLog.endOffsets}, which waits until no transaction is open).
         */
        Map<TopicPartition, Long> of(KafkaConsumer<byte[], byte[]> consumer, Map<String, Object> clientProps, List<TopicPartition> partitions);
    }

    /**
     * The read_committed end offsets now, which stop before the first open transaction:
     * {@code commitTransaction()} returns before the coordinator writes the markers, so the end right
     * after a commit can still stop short of its records.
     */
    public static final Ends NOW = (consumer, props, partitions) -> consumer.endOffsets(partitions);

    /** Every committed record of {@code topic} up to its read_committed end now ({@link #NOW}), within a minute. */
    public static List<ConsumerRecord<byte[], byte[]>> read(Map<String, Object> clientProps, String topic) {
        return read(clientProps, topic, Map.of(), NOW, Duration.ofSeconds(60));
    }

    /** Every committed record of {@code topic} up to the end offsets {@code ends} gives, within a minute. */
    public static List<ConsumerRecord<byte[], byte[]>> read(Map<String, Object> clientProps, String topic, Ends ends) {
        return read(clientProps, topic, Map.of(), ends, Duration.ofSeconds(60));
    }

    /**
     * The committed records of {@code topic} after {@code from} (per partition; a partition missing
     * there from its start) up to the end offsets {@code ends} gives; fails, naming the positions, if
     * reading them takes longer than {@code atMost}.
     */
    public static List<ConsumerRecord<byte[], byte[]>> read(Map<String, Object> clientProps, String topic, Map<Integer, Long> from,
            Ends ends, Duration atMost) {
        Map<String, Object> props = new HashMap<>(clientProps);
        props.put("isolation.level", "read_committed");
        props.put("enable.auto.commit", "false");
        props.remove("group.id");
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> tps = new ArrayList<>();
            for (PartitionInfo p : c.partitionsFor(topic)) {
                tps.add(new TopicPartition(topic, p.partition()));
            }
            c.assign(tps);
            c.seekToBeginning(tps);
            for (TopicPartition tp : tps) {
                Long at = from.get(tp.partition());
                if (at != null) {
                    c.seek(tp, at);
                }
            }
            Map<TopicPartition, Long> end = ends.of(c, props, tps);
            try {
                Awaitility.await().atMost(atMost).pollInterval(Duration.ZERO).pollDelay(Duration.ZERO).pollInSameThread().until(() -> {
                    if (tps.stream().allMatch(tp -> c.position(tp) >= end.get(tp))) {
                        return true;
                    }
                    for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200))) {
                        if (r.offset() < end.get(new TopicPartition(r.topic(), r.partition()))) {
                            out.add(r);
                        }
                    }
                    return false;
                });
            } catch (ConditionTimeoutException e) {
                Map<Integer, Long> at = new TreeMap<>();
                tps.forEach(tp -> at.put(tp.partition(), c.position(tp)));
                throw new AssertionError("reading " + topic + " did not reach its end offsets " + end + " within "
                        + atMost.toSeconds() + " s; positions " + at, e);
            }
        }
        out.sort(Comparator.<ConsumerRecord<byte[], byte[]>>comparingInt(ConsumerRecord::partition).thenComparingLong(ConsumerRecord::offset));
        return out;
    }

    /** The values of {@code records} as UTF-8 text (null stays null). */
    public static List<String> values(List<ConsumerRecord<byte[], byte[]>> records) {
        return records.stream().map(r -> r.value() == null ? null : new String(r.value(), java.nio.charset.StandardCharsets.UTF_8)).toList();
    }
}
