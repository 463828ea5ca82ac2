package io.tributary.ingest.internal;

import io.tributary.schema.SettledLog;
import io.tributary.schema.TributaryException;
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
 * Reads the compacted ingest-log topic from its start to its last committed record
 * ({@code read_committed}, no consumer group) and rebuilds the {@link IngestState}.
 */
public final class IngestLogReader {
    private static final Duration STALL = Duration.ofSeconds(60);

    private IngestLogReader() {
    }

    public static IngestState read(Map<String, Object> clientProps, String topic) {
        Map<String, Object> props = new HashMap<>(clientProps);
        props.remove("group.id");
        props.remove("group.instance.id");
        props.remove("transactional.id");
        props.put("isolation.level", "read_committed");
        props.put("enable.auto.commit", "false");
        props.put("auto.offset.reset", "earliest");
        props.putIfAbsent("client.id", "tributary-ingest-log-reader");
        IngestState state = new IngestState();
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<PartitionInfo> infos = c.partitionsFor(topic);
            if (infos == null || infos.isEmpty()) {
                throw new TributaryException("topic " + topic + " does not exist; create the pipeline's topics first"
                        + " (FileIngest.createTopics), or check bootstrap.servers");
            }
            List<TopicPartition> tps = new ArrayList<>();
            for (PartitionInfo p : infos) {
                tps.add(new TopicPartition(topic, p.partition()));
            }
            c.assign(tps);
            c.seekToBeginning(tps);
            Map<TopicPartition, Long> end = SettledLog.endOffsets(c, props, tps, STALL);
            long lastProgress = System.nanoTime();
            while (!caughtUp(c, end)) {
                boolean any = false;
                for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200))) {
                    apply(r, state);
                    any = true;
                }
                if (any) {
                    lastProgress = System.nanoTime();
                } else if (System.nanoTime() - lastProgress > STALL.toNanos()) {
                    throw new TributaryException("reading the ingest-log topic " + topic + " made no progress for "
                            + STALL.toSeconds() + " s (end offsets " + end + "); is the broker reachable?");
                }
            }
        }
        return state;
    }

    private static boolean caughtUp(KafkaConsumer<byte[], byte[]> c, Map<TopicPartition, Long> end) {
        for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
            if (c.position(e.getKey()) < e.getValue()) {
                return false;
            }
        }
        return true;
    }

    private static void apply(ConsumerRecord<byte[], byte[]> r, IngestState state) {
        if (r.key() == null) {
            return;
        }
        String key = IngestLogCodec.pathOfKey(r.key());
        if (key.equals(IngestState.STATE_KEY)) {
            if (r.value() != null) {
                IngestLogCodec.applyState(r.value(), state);
            }
        } else if (r.value() == null) {
            state.removeFile(key);
        } else {
            state.putFile(IngestLogCodec.parseFile(r.key(), r.value()));
        }
    }
}
