package io.tributary.tests;

import io.tributary.broker.EmbeddedBroker;
import io.tributary.sink.DeltaTables;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Topics another application writes, on the project's embedded KRaft broker (127.0.0.1), for the
 * Kafka source's scenarios: created, written to chosen partitions, trimmed as retention would.
 */
final class SourceTopics implements AutoCloseable {
    final EmbeddedBroker broker;
    private final KafkaProducer<byte[], byte[]> producer;

    SourceTopics(Path dir) {
        broker = EmbeddedBroker.start(dir.resolve("kafka"));
        producer = new KafkaProducer<>(client(), new ByteArraySerializer(), new ByteArraySerializer());
    }

    Map<String, Object> client() {
        return Map.of("bootstrap.servers", broker.bootstrapServers());
    }

    void create(String topic, int partitions) throws Exception {
        try (Admin admin = Admin.create(client())) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get();
        }
    }

    /** Writes each value to {@code topic}'s {@code partition}, in order; returns when all are acknowledged. */
    void produce(String topic, int partition, String... values) throws Exception {
        for (String v : values) {
            producer.send(new ProducerRecord<>(topic, partition, null, v.getBytes(StandardCharsets.UTF_8))).get();
        }
    }

    /** Writes each value, as bytes (Avro, Protobuf), to {@code topic}'s {@code partition}, in order. */
    void produceBytes(String topic, int partition, byte[]... values) throws Exception {
        for (byte[] v : values) {
            producer.send(new ProducerRecord<>(topic, partition, null, v)).get();
        }
    }

    /** One record with a key, a timestamp and a header. */
    void produce(String topic, int partition, long timestamp, String key, String value, String header, String headerValue)
            throws Exception {
        ProducerRecord<byte[], byte[]> r = new ProducerRecord<>(topic, partition, timestamp,
                key == null ? null : key.getBytes(StandardCharsets.UTF_8), value == null ? null : value.getBytes(StandardCharsets.UTF_8));
        if (header != null) {
            r.headers().add(new RecordHeader(header, headerValue.getBytes(StandardCharsets.UTF_8)));
        }
        producer.send(r).get();
    }

    /** Writes {@code values} to {@code topic}'s partition 0 in one transaction, committed or aborted. */
    void produceInTransaction(String topic, boolean commit, String... values) throws Exception {
        try (KafkaProducer<byte[], byte[]> tx = new KafkaProducer<>(Map.of("bootstrap.servers", broker.bootstrapServers(),
                "transactional.id", "another-app-" + topic), new ByteArraySerializer(), new ByteArraySerializer())) {
            tx.initTransactions();
            tx.beginTransaction();
            for (String v : values) {
                tx.send(new ProducerRecord<>(topic, 0, null, v.getBytes(StandardCharsets.UTF_8))).get();
            }
            if (commit) {
                tx.commitTransaction();
            } else {
                tx.abortTransaction();
            }
        }
    }

    /** JSON records {"id": n} for each id. */
    static String[] ids(int... ids) {
        List<String> values = new ArrayList<>();
        for (int id : ids) {
            values.add("{\"id\": " + id + ", \"user\": \"u" + id + "\", \"amt\": " + id + ".5}");
        }
        return values.toArray(String[]::new);
    }

    /** Deletes the records of {@code topic}'s {@code partition} before {@code offset}, as retention does (the log start moves). */
    void deleteBefore(String topic, int partition, long offset) throws Exception {
        try (Admin admin = Admin.create(client())) {
            admin.deleteRecords(Map.of(new TopicPartition(topic, partition), RecordsToDelete.beforeOffset(offset))).all().get();
        }
    }

    /** A spec of a Kafka source of JSON records {@code id, user, amt}; {@code source} holds the source's lines, 4 spaces in. */
    String spec(String source) {
        return "name: orders\n"
                + "source:\n  kafka:\n" + source + "    schema: \"id INT, user STRING, amt DOUBLE\"\n"
                + "sink:\n  delta:\n    path: out/\n"
                + "kafka:\n  bootstrap.servers: \"" + broker.bootstrapServers() + "\"\n";
    }

    /** The ids in the table, each asserted once. */
    static TreeSet<Integer> tableIds(Path dir) {
        TreeSet<Integer> ids = new TreeSet<>();
        for (Object[] r : DeltaTables.readRows(dir.resolve("out").toString())) {
            if (!ids.add((Integer) r[0])) {
                throw new AssertionError("id " + r[0] + " more than once in the table");
            }
        }
        return ids;
    }

    /** The offsets the table's last commit holds, per topic and partition, as Spark prints them. */
    static Map<String, Map<String, Long>> tableOffsets(Path dir) {
        return DeltaTables.sinkOffsets(dir.resolve("out").toString()).orElseThrow().sparkJson();
    }

    @Override
    public void close() {
        producer.close();
        broker.close();
    }
}
