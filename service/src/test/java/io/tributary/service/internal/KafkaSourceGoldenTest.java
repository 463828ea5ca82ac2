package io.tributary.service.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.broker.EmbeddedBroker;
import io.tributary.schema.Timestamps;
import io.tributary.service.spec.PipelineSpec;
import io.tributary.sink.DeltaTables;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The differential against Spark 4.2's own Kafka source (golden/kafka-source/case-1, recorded by compat/spark's
 * kafka-golden.sh): the case's records (3 partitions of JSON values with keys and headers, an aborted transaction in
 * the middle and a committed one, a compacted topic whose keys repeat) are produced to a real broker as the recorder
 * produced them, and an availableNow pipeline over {@code source.kafka} leaves the table Spark's
 * {@code readStream.format("kafka")} left: every row with its key, topic, partition, offset, timestamp and headers
 * ({@code includeMetadata}), and with {@code aggregate:} Spark's {@code withWatermark + window + sum} windows.
 */
@Tag("integration")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class KafkaSourceGoldenTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    static final String CASE = "/golden/kafka-source/case-1/";

    @TempDir
    static Path dir;
    private static EmbeddedBroker broker; // one for both tests: the topics are written once
    /** Each record's offset as the broker acknowledged it, by the value's id. */
    private static final Map<Integer, Long> OFFSETS = new HashMap<>();

    @BeforeAll
    static void produceTheCasesRecords() throws Exception {
        broker = EmbeddedBroker.start(dir.resolve("kafka"));
        produce(broker.bootstrapServers(), JSON.readTree(golden("topics.json")), golden("records.jsonl"));
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    @Test
    void theTableHoldsSparksRowsWithTheirKafkaColumnsAndNoAbortedRecord() throws Exception {
        run("rows", "    includeMetadata: true\n", "");
        List<String> rows = new ArrayList<>();
        for (Object[] r : DeltaTables.readRows(dir.resolve("rows").toString())) {
            StringBuilder s = new StringBuilder();
            for (int i = 0; i < r.length; i++) {
                s.append(i == 0 ? "" : "|").append(text(r[i], i == 3 || i == 8));
            }
            rows.add(s.toString());
        }
        // the offset column aside: a transaction's marker is written after commitTransaction() returns, so a record sent
        // right after it may come before or after the marker; each row's offset is the one the broker gave its record
        assertThat(rows.stream().map(KafkaSourceGoldenTest::withoutOffset).toList())
                .containsExactlyInAnyOrderElementsOf(expected("spark-rows.txt").stream().map(KafkaSourceGoldenTest::withoutOffset).toList());
        for (String row : rows) {
            String[] c = row.split("\\|");
            assertThat(Long.parseLong(c[7])).as("the offset of id %s", c[0]).isEqualTo(OFFSETS.get(Integer.parseInt(c[0])));
        }
    }

    @Test
    @Tag("scenarios") // about 90 s under load: Kafka Streams' start and the no-data batch
    void aWindowedSumOverTheTopicsWritesSparksClosedWindows() throws Exception {
        run("window", "", """
                aggregate:
                  eventTime: ts
                  watermark: 10 minutes
                  window: 10 minutes
                  groupBy: [user]
                  select: { t: sum(amt) }
                outputMode: append
                topic:
                  partitions: 3
                """);
        List<String> rows = new ArrayList<>();
        for (Object[] r : DeltaTables.readRows(dir.resolve("window").toString())) {
            Object[] w = (Object[]) r[0];
            rows.add(ts(w[0]) + "|" + ts(w[1]) + "|" + r[1] + "|" + r[2]);
        }
        assertThat(rows).containsExactlyInAnyOrderElementsOf(expected("spark-window.txt"));
    }

    /** An availableNow pipeline NAME over the case's topics into the table NAME/, with more source settings and more of the spec. */
    private void run(String name, String source, String more) throws Exception {
        Path spec = dir.resolve(name + ".yaml");
        String yaml = "name: " + name + "\nsource:\n  kafka:\n    topics: [orders, customers]\n"
                + "    schema: \"id INT, user STRING, amt DOUBLE, ts TIMESTAMP\"\n" + source + more;
        yaml += "sink:\n  delta:\n    path: " + name + "/\ntrigger: availableNow\nkafka:\n  bootstrap.servers: " + broker.bootstrapServers() + "\n";
        Files.writeString(spec, yaml);
        PipelineSpec s = PipelineSpec.load(spec, Map.of(), Map.of());
        try (Pipeline pipeline = Pipeline.open(s, RunOptions.DEFAULT)) {
            pipeline.run(s.trigger(), p -> { });
        }
    }

    /**
     * The case's records in the file's order, each acknowledged before the next, as compat/spark's KafkaTopics.java
     * writes them: lines with a {@code txn} by one transactional producer, consecutive lines of one txn in one
     * transaction, aborted where {@code aborted} is true (so the markers, and the offsets, are Spark's).
     */
    static void produce(String bootstrap, JsonNode topics, String records) throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            List<NewTopic> news = new ArrayList<>();
            topics.fields().forEachRemaining(t -> {
                Map<String, String> config = new HashMap<>();
                t.getValue().path("config").fields().forEachRemaining(c -> config.put(c.getKey(), c.getValue().asText()));
                news.add(new NewTopic(t.getKey(), t.getValue().get("partitions").asInt(), (short) 1).configs(config));
            });
            admin.createTopics(news).all().get();
        }
        Map<String, Object> tx = Map.of("bootstrap.servers", bootstrap, "transactional.id", "golden-records");
        try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(Map.of("bootstrap.servers", bootstrap), new ByteArraySerializer(),
                new ByteArraySerializer());
                KafkaProducer<byte[], byte[]> t = new KafkaProducer<>(tx, new ByteArraySerializer(), new ByteArraySerializer())) {
            t.initTransactions();
            String open = null;
            boolean abort = false;
            for (String line : records.lines().filter(l -> !l.isBlank()).toList()) {
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
                ProducerRecord<byte[], byte[]> rec = new ProducerRecord<>(r.get("topic").asText(), r.get("partition").asInt(),
                        r.get("timestamp").asLong(), bytes(r.get("key")), bytes(r.get("value")));
                for (JsonNode h : r.path("headers")) {
                    rec.headers().add(new RecordHeader(h.get("key").asText(), bytes(h.get("value"))));
                }
                long offset = (txn != null ? t : p).send(rec).get().offset();
                OFFSETS.put(JSON.readTree(r.get("value").asText()).get("id").asInt(), offset);
            }
            if (open != null) {
                end(t, abort);
            }
        }
    }

    private static String withoutOffset(String row) {
        String[] c = row.split("\\|", -1);
        c[7] = "-";
        return String.join("|", c);
    }

    private static void end(KafkaProducer<byte[], byte[]> t, boolean abort) {
        if (abort) {
            t.abortTransaction();
        } else {
            t.commitTransaction();
        }
    }

    private static byte[] bytes(JsonNode n) {
        return n == null || n.isNull() ? null : n.asText().getBytes(StandardCharsets.UTF_8);
    }

    /** A value as the golden files print it: binary as UTF-8 text, headers as {@code [k=v,...]}, timestamps in UTC. */
    private static String text(Object v, boolean timestamp) {
        if (v == null) {
            return "null";
        }
        if (timestamp) {
            return ts(v);
        }
        if (v instanceof byte[] b) {
            return new String(b, StandardCharsets.UTF_8);
        }
        List<?> list = v instanceof Object[] a ? List.of(a) : v instanceof List<?> l ? l : null;
        if (list != null) {
            StringBuilder s = new StringBuilder("[");
            for (int i = 0; i < list.size(); i++) {
                Object[] h = (Object[]) list.get(i);
                s.append(i == 0 ? "" : ",").append(h[0]).append('=').append(text(h[1], false));
            }
            return s.append(']').toString();
        }
        return v.toString();
    }

    private static String ts(Object micros) {
        return Timestamps.formatMicros((Long) micros).replace('T', ' ').replace("Z", "");
    }

    private static List<String> expected(String file) throws IOException {
        return golden(file).lines().filter(l -> !l.startsWith("#") && !l.isBlank()).toList();
    }

    static String golden(String file) throws IOException {
        try (InputStream in = KafkaSourceGoldenTest.class.getResourceAsStream(CASE + file)) {
            if (in == null) {
                throw new IOException("no golden fixture " + CASE + file);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
