package io.tributary.source;

import io.tributary.schema.SettledLog;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads a whole topic as a user checks it: read_committed, from the beginning to the end offsets once
 * no transaction is open ({@code commitTransaction()} returns before the coordinator writes the markers).
 */
final class TopicReader {
    private TopicReader() {
    }

    static List<String> values(String bootstrap, String topic) {
        Map<String, Object> props = Map.of("bootstrap.servers", bootstrap, "isolation.level", "read_committed",
                "enable.auto.commit", "false", "auto.offset.reset", "earliest");
        List<String> out = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> tps = new ArrayList<>();
            for (PartitionInfo p : c.partitionsFor(topic)) {
                tps.add(new TopicPartition(topic, p.partition()));
            }
            c.assign(tps);
            c.seekToBeginning(tps);
            Map<TopicPartition, Long> end = SettledLog.endOffsets(c, props, tps, Duration.ofSeconds(30));
            while (tps.stream().anyMatch(tp -> c.position(tp) < end.get(tp))) {
                for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200))) {
                    out.add(r.value() == null ? null : new String(r.value(), StandardCharsets.UTF_8));
                }
            }
        }
        return out;
    }
}
