package io.tributary.schema;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.KafkaConsumer;
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
    private SettledLog() {
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
                    throw new TributaryException("topic " + tps.get(0).topic() + " still has an open transaction after "
                            + timeout.toSeconds() + " s (committed up to " + lso + ", written up to " + hw
                            + "); the transaction coordinator has not finished the last batch: run again later");
                }
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new TributaryException("interrupted while waiting for topic " + tps.get(0).topic() + " to settle", e);
                }
            }
        }
    }
}
