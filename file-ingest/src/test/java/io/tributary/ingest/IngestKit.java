package io.tributary.ingest;

import io.tributary.broker.EmbeddedBroker;
import io.tributary.kafka.SettledLog;
import io.tributary.schema.RowPack;
import io.tributary.testing.CommittedRecords;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/** Test helpers: the pipeline's topics, files with set modification times, and read_committed reads. */
final class IngestKit {
    private static final AtomicInteger SEQ = new AtomicInteger();

    private IngestKit() {
    }

    static String uniquePipeline(String base) {
        return base + "-" + SEQ.incrementAndGet();
    }

    static Map<String, Object> props(EmbeddedBroker broker) {
        return Map.of("bootstrap.servers", broker.bootstrapServers());
    }

    static void createTopics(EmbeddedBroker broker, IngestConfig config, int partitions) {
        try (Admin admin = Admin.create(props(broker))) {
            FileIngest.createTopics(admin, config, partitions);
            FileIngest.createTopics(admin, config, partitions); // a second time is harmless
        }
    }

    static Path write(Path dir, String name, String content, long mtimeMs) throws IOException {
        Files.createDirectories(dir);
        Path p = dir.resolve(name);
        Files.writeString(p, content, StandardCharsets.UTF_8);
        Files.setLastModifiedTime(p, FileTime.fromMillis(mtimeMs));
        return p;
    }

    /**
     * Every committed row of {@code topic}, partition by partition, in offset order, as one record
     * per row: a record that packs several ({@link RowPack}) gives one copy per row, each with its
     * value, the other records (markers, ingest-log and dead-letter records) are as read. Read once no
     * transaction is open: {@code commitTransaction()} returns before the coordinator writes the
     * markers, so the read_committed end right after a batch can still stop short of its rows.
     */
    static List<ConsumerRecord<byte[], byte[]>> readCommitted(EmbeddedBroker broker, String topic) {
        return perRow(read(broker, topic, true));
    }

    /** Every committed record of {@code topic}, as stored: a record may pack several rows. */
    static List<ConsumerRecord<byte[], byte[]>> readRecords(EmbeddedBroker broker, String topic) {
        return read(broker, topic, true);
    }

    /**
     * The committed rows of {@code topic} ({@link #readCommitted}) up to its read_committed end now, which stops
     * before the first open transaction: for a test that leaves one open on purpose.
     */
    static List<ConsumerRecord<byte[], byte[]>> readCommittedNow(EmbeddedBroker broker, String topic) {
        return perRow(read(broker, topic, false));
    }

    private static List<ConsumerRecord<byte[], byte[]>> perRow(List<ConsumerRecord<byte[], byte[]>> records) {
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : records) {
            if (r.value() == null) {
                out.add(r);
                continue;
            }
            RowPack.forEachRow(r.value(), (bytes, offset, length) -> out.add(new ConsumerRecord<>(r.topic(), r.partition(),
                    r.offset(), r.timestamp(), r.timestampType(), r.serializedKeySize(), length, r.key(),
                    java.util.Arrays.copyOfRange(bytes, offset, offset + length), r.headers(), r.leaderEpoch())));
        }
        return out;
    }

    private static List<ConsumerRecord<byte[], byte[]>> read(EmbeddedBroker broker, String topic, boolean settled) {
        return CommittedRecords.read(props(broker), topic, settled
                ? (c, props, tps) -> SettledLog.endOffsets(c, props, tps, Duration.ofSeconds(60)) : CommittedRecords.NOW);
    }

    /** The sum of {@code topic}'s end offsets as read_uncommitted sees them: the records of an open transaction count. */
    static long endOffsets(EmbeddedBroker broker, String topic) {
        try (KafkaConsumer<byte[], byte[]> c = uncommitted(broker)) {
            return c.endOffsets(partitions(c, topic)).values().stream().mapToLong(Long::longValue).sum();
        }
    }

    /** Waits until {@code topic} holds records past end offsets summing to {@code before} (an open transaction's records count). */
    static void awaitRecordsPast(EmbeddedBroker broker, String topic, long before) {
        try (KafkaConsumer<byte[], byte[]> c = uncommitted(broker)) {
            List<TopicPartition> tps = partitions(c, topic);
            c.assign(tps);
            while (c.endOffsets(tps).values().stream().mapToLong(Long::longValue).sum() <= before) {
                c.poll(Duration.ofMillis(100));
            }
        }
    }

    private static KafkaConsumer<byte[], byte[]> uncommitted(EmbeddedBroker broker) {
        return new KafkaConsumer<>(Map.of("bootstrap.servers", broker.bootstrapServers(), "isolation.level", "read_uncommitted"),
                new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    private static List<TopicPartition> partitions(KafkaConsumer<byte[], byte[]> c, String topic) {
        return c.partitionsFor(topic).stream().map(p -> new TopicPartition(topic, p.partition())).toList();
    }

    static String text(byte[] b) {
        return b == null ? null : new String(b, StandardCharsets.UTF_8);
    }
}
