package io.tributary.source.internal;

import io.tributary.schema.SettledLog;
import io.tributary.schema.TopicWait;
import io.tributary.schema.TributaryException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads the compacted progress topic from its start to its end ({@code read_committed}, no consumer
 * group) and returns the last committed record for one table; a tombstone clears it.
 */
public final class ProgressLog {
    private static final Duration STALL = Duration.ofSeconds(60);

    private ProgressLog() {
    }

    public static Optional<StoredProgress> read(Map<String, Object> clientProps, String topic, String key) {
        Map<String, Object> props = new HashMap<>(clientProps);
        props.remove("group.id");
        props.remove("group.instance.id");
        props.remove("transactional.id");
        props.put("isolation.level", "read_committed");
        props.put("allow.auto.create.topics", false); // never made with a broker's defaults while it is waited for
        props.put("enable.auto.commit", "false");
        props.put("auto.offset.reset", "earliest");
        props.putIfAbsent("client.id", "tributary-delta-source-log-reader");
        byte[] last = null;
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            Duration bound = TopicWait.bound(clientProps);
            List<PartitionInfo> infos = TopicWait.partitions(c, topic, bound); // created a moment ago at start
            if (infos.isEmpty()) {
                throw new TributaryException("delta-source: progress topic " + topic + " does not exist (looked for it for "
                        + bound.toSeconds() + " s); it is created at start, check bootstrap.servers and that the client may create topics");
            }
            List<TopicPartition> tps = new ArrayList<>();
            for (PartitionInfo p : infos) {
                tps.add(new TopicPartition(topic, p.partition()));
            }
            c.assign(tps);
            c.seekToBeginning(tps);
            Map<TopicPartition, Long> end = SettledLog.endOffsets(c, props, tps, Duration.ofSeconds(60));
            long lastProgress = System.nanoTime();
            boolean found = false;
            while (!caughtUp(c, end)) {
                boolean any = false;
                for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200))) {
                    any = true;
                    if (r.key() != null && key.equals(new String(r.key(), StandardCharsets.UTF_8))) {
                        last = r.value();
                        found = true;
                    }
                }
                if (any) {
                    lastProgress = System.nanoTime();
                } else if (System.nanoTime() - lastProgress > STALL.toNanos()) {
                    throw new TributaryException("delta-source: reading progress topic " + topic + " made no progress for "
                            + STALL.toSeconds() + " s (end offsets " + end + "); is the broker reachable?");
                }
            }
            return found && last != null ? Optional.of(StoredProgress.parse(last)) : Optional.empty();
        }
    }

    private static boolean caughtUp(KafkaConsumer<byte[], byte[]> c, Map<TopicPartition, Long> end) {
        for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
            if (c.position(e.getKey()) < e.getValue()) {
                return false;
            }
        }
        return true;
    }
}
