package io.tributary.topology.internal;

import io.tributary.kafka.TopicWait;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Tells whether the few offsets between two positions of a topic hold only transaction control
 * records (commit or abort markers) or records of aborted transactions: nothing a read_committed
 * reader gets. A read_committed consumer of its own, with no group; opened and connected at once,
 * as its first use is at the end of a run (0.1 to 0.2 s measured).
 */
public final class ControlRecordGap implements AutoCloseable {
    /** The largest gap read; a larger one holds records, or is not worth reading. */
    public static final long MAX_GAP = 4;
    private static final Duration TIMEOUT = Duration.ofMillis(500);

    private final KafkaConsumer<byte[], byte[]> reader;

    public ControlRecordGap(Map<String, Object> clientProps, String clientId) {
        Map<String, Object> p = new HashMap<>(clientProps);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false); // waited for at start: never made with a broker's defaults
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        // it reads a few records at the end of the topic: a fetch that finds nothing must not wait
        // the default 500 ms at the broker, as the next seek's fetch waits for it
        p.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 10);
        p.remove(ConsumerConfig.GROUP_ID_CONFIG);
        this.reader = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    /** Connects, and waits up to {@code bound} for {@code topic} to be visible ({@link TopicWait}); false if it is not. */
    public boolean awaitTopic(String topic, Duration bound) {
        return !TopicWait.partitions(reader, topic, bound).isEmpty();
    }

    /**
     * True when, for every partition of {@code end}, nothing a read_committed reader gets lies
     * between {@code from} and {@code end}: {@code from} at or past the end, or a gap of at most
     * {@link #MAX_GAP} offsets with only control records or aborted records. False when a
     * partition has no {@code from}, a larger gap, a record, or the read did not finish in time.
     */
    public boolean onlyControlRecords(Map<TopicPartition, Long> from, Map<TopicPartition, Long> end) {
        Map<TopicPartition, Long> gaps = new HashMap<>();
        for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
            long c = from.getOrDefault(e.getKey(), -1L);
            if (e.getValue() == 0 || c >= e.getValue()) {
                continue;
            }
            if (c < 0 || e.getValue() - c > MAX_GAP) {
                return false;
            }
            gaps.put(e.getKey(), c);
        }
        if (gaps.isEmpty()) {
            return true;
        }
        reader.assign(gaps.keySet());
        gaps.forEach(reader::seek);
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            for (ConsumerRecord<byte[], byte[]> r : reader.poll(Duration.ofMillis(20))) {
                if (r.offset() < end.get(new TopicPartition(r.topic(), r.partition()))) {
                    return false; // a record a reader gets
                }
            }
            if (gaps.keySet().stream().allMatch(tp -> reader.position(tp) >= end.get(tp))) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void close() {
        reader.close(Duration.ofSeconds(5));
    }
}
