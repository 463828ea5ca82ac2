package io.tributary.sink;

import io.tributary.kafka.SettledLog;
import io.tributary.schema.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * What of a topic a reader has not taken yet, for tests that must know a stage has finished
 * before they look for duplicates: a continuous pipeline never says it is done, but once the
 * records past a stage's committed offsets are none (or only watermark markers, which the sink
 * reads but commits only with rows), nothing is left for it to write. Shared with other modules
 * through this module's test-jar.
 */
public final class TopicTail {
    private TopicTail() {
    }

    /**
     * Whether the sink writing {@code table} has committed every row of {@code topic}: the records
     * after the offsets stored in the table, up to the topic's settled end, are markers at most.
     */
    public static boolean sinkCaughtUp(Map<String, Object> clientProps, String table, String topic) {
        if (!DeltaTables.exists(table)) {
            return false;
        }
        Map<Integer, Long> stored = DeltaTables.sinkOffsets(table).map(SinkOffsets::offsets).orElse(Map.of());
        return records(clientProps, topic, stored).stream().allMatch(TopicTail::marker);
    }

    /**
     * The records of {@code topic} (read_committed) after {@code from} (per partition; a partition
     * missing there from its start) up to the end offsets once no transaction is open.
     */
    public static List<ConsumerRecord<byte[], byte[]>> records(Map<String, Object> clientProps, String topic, Map<Integer, Long> from) {
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
            Map<TopicPartition, Long> end = SettledLog.endOffsets(c, props, tps, Duration.ofSeconds(30));
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (tps.stream().anyMatch(tp -> c.position(tp) < end.get(tp))) {
                if (System.nanoTime() > deadline) {
                    Map<Integer, Long> at = new java.util.TreeMap<>();
                    tps.forEach(tp -> at.put(tp.partition(), c.position(tp)));
                    throw new AssertionError("reading " + topic + " did not reach its end offsets " + end + " within 60 s; positions " + at);
                }
                for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200))) {
                    if (r.offset() < end.get(new TopicPartition(r.topic(), r.partition()))) {
                        out.add(r);
                    }
                }
            }
        }
        return out;
    }

    /** A watermark marker ({@link Topics#MARKER_HEADER}), not a row. */
    public static boolean marker(ConsumerRecord<byte[], byte[]> r) {
        return r.headers().lastHeader(Topics.MARKER_HEADER) != null;
    }
}
