import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.broker.EmbeddedBroker;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Tributary's embedded broker on 127.0.0.1 with topics for Spark's Kafka source to read, as a process of its own
 * (run with the distribution's jars: {@code java -cp 'DIST/lib/*' KafkaTopics.java ...}, Java's single-file
 * launcher). It prints {@code BOOTSTRAP=host:port} once the topics are written and runs until its standard input
 * closes.
 * <ul>
 * <li>{@code golden CASE_DIR LOG_DIR}: the topics of {@code CASE_DIR/topics.json} ({@code {"t": {"partitions": 3,
 * "config": {...}}}}) and the records of {@code CASE_DIR/records.jsonl}, one a line, in the file's order, each sent
 * and acknowledged before the next: {@code topic}, {@code partition}, {@code key} and {@code value} (UTF-8 text or
 * null), {@code headers} ({@code [{"key", "value"}]} or null), {@code timestamp} (ms, CreateTime); lines with a
 * {@code txn} are sent by one transactional producer, consecutive lines of the same {@code txn} in one
 * transaction, committed, or aborted where {@code aborted} is true. Tributary's {@code KafkaSourceGoldenTest}
 * produces the file the same way, so both sides' topics have the same offsets.</li>
 * <li>{@code bench ROWS PARTITIONS LOG_DIR}: topic {@code orders} of PARTITIONS partitions with ROWS JSON records
 * of {@code id INT, user STRING, amt DOUBLE, ts TIMESTAMP}, record i on partition i % PARTITIONS, no key
 * (kafka-bench.sh).</li>
 * </ul>
 */
public final class KafkaTopics {
    private static final ObjectMapper JSON = new ObjectMapper();

    public static void main(String[] args) throws Exception {
        Path logDir = Path.of(args[args.length - 1]);
        try (EmbeddedBroker broker = EmbeddedBroker.start(logDir)) {
            String bootstrap = broker.bootstrapServers();
            if (args[0].equals("golden")) {
                golden(bootstrap, Path.of(args[1]));
            } else if (args[0].equals("bench")) {
                bench(bootstrap, Integer.parseInt(args[1]), Integer.parseInt(args[2]));
            } else {
                throw new IllegalArgumentException("usage: KafkaTopics golden CASE_DIR LOG_DIR | bench ROWS PARTITIONS LOG_DIR");
            }
            System.out.println("BOOTSTRAP=" + bootstrap);
            System.out.flush();
            new BufferedReader(new InputStreamReader(System.in)).lines().forEach(l -> { });
        }
    }

    private static void golden(String bootstrap, Path caseDir) throws Exception {
        JsonNode topics = JSON.readTree(caseDir.resolve("topics.json").toFile());
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            List<NewTopic> news = new ArrayList<>();
            topics.fields().forEachRemaining(t -> {
                Map<String, String> config = new HashMap<>();
                t.getValue().path("config").fields().forEachRemaining(c -> config.put(c.getKey(), c.getValue().asText()));
                news.add(new NewTopic(t.getKey(), t.getValue().get("partitions").asInt(), (short) 1).configs(config));
            });
            admin.createTopics(news).all().get();
        }
        Properties plain = new Properties();
        plain.put("bootstrap.servers", bootstrap);
        Properties tx = new Properties();
        tx.putAll(plain);
        tx.put("transactional.id", "golden-records");
        try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(plain, new ByteArraySerializer(), new ByteArraySerializer());
                KafkaProducer<byte[], byte[]> t = new KafkaProducer<>(tx, new ByteArraySerializer(), new ByteArraySerializer())) {
            t.initTransactions();
            String open = null;
            boolean abort = false;
            int n = 0;
            for (String line : Files.readAllLines(caseDir.resolve("records.jsonl"), StandardCharsets.UTF_8)) {
                if (line.isBlank()) {
                    continue;
                }
                JsonNode r = JSON.readTree(line);
                String txn = r.path("txn").isTextual() ? r.get("txn").asText() : null;
                if (open != null && !open.equals(txn)) {
                    end(t, abort);
                    open = null;
                }
                if (txn != null && open == null) {
                    t.beginTransaction();
                    open = txn;
                    abort = r.path("aborted").asBoolean(false);
                }
                (txn != null ? t : p).send(record(r)).get();
                n++;
            }
            if (open != null) {
                end(t, abort);
            }
            System.err.println("KafkaTopics: " + n + " records written");
        }
    }

    private static void end(KafkaProducer<byte[], byte[]> t, boolean abort) {
        if (abort) {
            t.abortTransaction();
        } else {
            t.commitTransaction();
        }
    }

    private static ProducerRecord<byte[], byte[]> record(JsonNode r) {
        ProducerRecord<byte[], byte[]> rec = new ProducerRecord<>(r.get("topic").asText(), r.get("partition").asInt(),
                r.get("timestamp").asLong(), bytes(r.get("key")), bytes(r.get("value")));
        for (JsonNode h : r.path("headers")) {
            rec.headers().add(new RecordHeader(h.get("key").asText(), bytes(h.get("value"))));
        }
        return rec;
    }

    private static byte[] bytes(JsonNode n) {
        return n == null || n.isNull() ? null : n.asText().getBytes(StandardCharsets.UTF_8);
    }

    private static void bench(String bootstrap, int rows, int partitions) throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            admin.createTopics(List.of(new NewTopic("orders", partitions, (short) 1))).all().get();
        }
        long t0 = System.nanoTime();
        try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(Map.of("bootstrap.servers", bootstrap, "linger.ms", 20,
                "batch.size", 512 * 1024, "compression.type", "lz4"), new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < rows; i++) {
                String v = "{\"id\": " + i + ", \"user\": \"u" + (i % 1000) + "\", \"amt\": " + (i % 977) + ".25, \"ts\": \"2026-01-01T10:"
                        + String.format("%02d", i % 60) + ":00Z\"}";
                p.send(new ProducerRecord<>("orders", i % partitions, null, v.getBytes(StandardCharsets.UTF_8)));
            }
            p.flush();
        }
        System.err.printf("KafkaTopics: %d records on %d partitions written in %d ms%n", rows, partitions, (System.nanoTime() - t0) / 1_000_000);
    }
}
