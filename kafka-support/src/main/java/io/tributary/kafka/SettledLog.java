package io.tributary.kafka;

import io.tributary.schema.TributaryException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Where a stage's own log ends once no transaction is open on it. A process stopped dead just
 * after its commit returned leaves the commit's markers to the transaction coordinator, which
 * writes them after the broker restarts: reading the log before would miss a committed batch and
 * publish it again. The stage is the log's only writer and {@code initTransactions} has fenced
 * the one before, so an open transaction there can only be finishing.
 */
public final class SettledLog {
    /** How long a read may go without a record before the broker is taken for gone. */
    private static final Duration STALL = Duration.ofSeconds(60);

    private SettledLog() {
    }

    /**
     * Reads a stage's compacted log from its start to its settled end ({@code read_committed}, no
     * consumer group, {@link #endOffsets}), handing each record to {@code each} in offset order:
     * how a stage rebuilds its state when it starts.
     *
     * @param clientProps the pipeline's client settings (group, transactional id and offset
     *        settings are replaced: the read commits nothing)
     * @param clientId the {@code client.id} unless the settings name one
     * @param missing the error when the topic is still not visible after {@link TopicWait#bound}
     * @param reading what the stall error says was going on, e.g. {@code "reading the ingest-log topic t"}
     */
    public static void read(Map<String, Object> clientProps, String topic, String clientId, Supplier<TributaryException> missing,
                            String reading, Consumer<ConsumerRecord<byte[], byte[]>> each) {
        Map<String, Object> props = new HashMap<>(clientProps);
        props.remove("group.id");
        props.remove("group.instance.id");
        props.remove("transactional.id");
        props.put("isolation.level", "read_committed");
        props.put("allow.auto.create.topics", false); // never made with a broker's defaults while it is waited for
        props.put("enable.auto.commit", "false");
        props.put("auto.offset.reset", "earliest");
        props.putIfAbsent("client.id", clientId);
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<PartitionInfo> infos = TopicWait.partitions(c, topic, TopicWait.bound(clientProps)); // created a moment ago, perhaps
            if (infos.isEmpty()) {
                throw missing.get();
            }
            List<TopicPartition> tps = new ArrayList<>();
            for (PartitionInfo p : infos) {
                tps.add(new TopicPartition(topic, p.partition()));
            }
            c.assign(tps);
            c.seekToBeginning(tps);
            Map<TopicPartition, Long> end = endOffsets(c, props, tps, STALL);
            long lastProgress = System.nanoTime();
            while (!caughtUp(c, end)) {
                boolean any = false;
                for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200))) {
                    each.accept(r);
                    any = true;
                }
                if (any) {
                    lastProgress = System.nanoTime();
                } else if (System.nanoTime() - lastProgress > STALL.toNanos()) {
                    throw KafkaErrors.noProgress(reading, STALL.toSeconds(), end);
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

    /**
     * The read_committed end offsets of {@code tps}, once they equal the high watermarks.
     *
     * @param committed a read_committed consumer
     * @param clientProps the client settings that made it (a read_uncommitted twin is made from them)
     */
    public static Map<TopicPartition, Long> endOffsets(KafkaConsumer<byte[], byte[]> committed, Map<String, Object> clientProps,
                                                       List<TopicPartition> tps, Duration timeout) {
        Map<String, Object> props = new HashMap<>(clientProps);
        props.put("isolation.level", "read_uncommitted");
        props.put("client.id", props.getOrDefault("client.id", "tributary") + "-hw");
        try (KafkaConsumer<byte[], byte[]> uncommitted = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (true) {
                Map<TopicPartition, Long> lso = committed.endOffsets(tps);
                Map<TopicPartition, Long> hw = uncommitted.endOffsets(tps);
                if (lso.equals(hw)) {
                    return lso;
                }
                if (System.nanoTime() > deadline) {
                    throw KafkaErrors.openTransaction(tps.get(0).topic(), timeout.toSeconds(), lso, hw);
                }
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw KafkaErrors.interruptedSettling(tps.get(0).topic(), e);
                }
            }
        }
    }
}
