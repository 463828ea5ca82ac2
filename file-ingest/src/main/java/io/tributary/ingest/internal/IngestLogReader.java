package io.tributary.ingest.internal;

import io.tributary.schema.TributaryException;
import java.nio.charset.StandardCharsets;
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
            Map<TopicPartition, Long> end = settledEndOffsets(c, props, tps, topic);
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

    /**
     * The end of the log once no transaction is open on it. A process stopped dead just after its
     * commit returned leaves the commit's markers to the transaction coordinator, which writes them
     * after the broker restarts; reading before would miss a committed batch and publish its files
     * again. Only this ingest writes the log, and {@code initTransactions} has fenced the one
     * before, so an open transaction here can only be finishing.
     */
    private static Map<TopicPartition, Long> settledEndOffsets(KafkaConsumer<byte[], byte[]> committed, Map<String, Object> props,
                                                               List<TopicPartition> tps, String topic) {
        Map<String, Object> uncommittedProps = new HashMap<>(props);
        uncommittedProps.put("isolation.level", "read_uncommitted");
        uncommittedProps.put("client.id", props.get("client.id") + "-hw");
        try (KafkaConsumer<byte[], byte[]> u = new KafkaConsumer<>(uncommittedProps, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            long deadline = System.nanoTime() + STALL.toNanos();
            while (true) {
                Map<TopicPartition, Long> lso = committed.endOffsets(tps);
                Map<TopicPartition, Long> hw = u.endOffsets(tps);
                if (lso.equals(hw)) {
                    return lso;
                }
                if (System.nanoTime() > deadline) {
                    throw new TributaryException("the ingest-log topic " + topic + " still has an open transaction after "
                            + STALL.toSeconds() + " s (committed up to " + lso + ", written up to " + hw
                            + "); the transaction coordinator has not finished the last batch: retry later");
                }
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new TributaryException("interrupted while waiting for the ingest log to settle", e);
                }
            }
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

    private static void apply(ConsumerRecord<byte[], byte[]> r, IngestState state) {
        if (r.key() == null) {
            return;
        }
        String key = new String(r.key(), StandardCharsets.UTF_8);
        if (key.equals(IngestState.STATE_KEY)) {
            if (r.value() != null) {
                IngestLogCodec.applyState(r.value(), state);
            }
        } else if (r.value() == null) {
            state.removeFile(key);
        } else {
            state.putFile(IngestLogCodec.parseFile(r.value()));
        }
    }
}
