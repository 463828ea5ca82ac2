package io.tributary.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.sink.DeltaTables;
import io.tributary.sink.SinkOffsets;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Produce-to-commit latency of a continuous {@code tributary run} (its own process) over a Kafka source: a producer
 * writes {@code -Dtributary.latency.rate} (10,000) JSON records a second for {@code -Dtributary.latency.seconds} (120)
 * onto a 6-partition topic of the embedded broker; for each row of the table, the time from its record's timestamp
 * (CreateTime, set by the producer when it sends) to the timestamp of the Delta commit that holds it (the commit
 * whose sink offsets first pass the record's offset). Prints the median, p99 and maximum: a measurement, run by the
 * soak profile ({@code ./mvnw -Psoak -pl tests -am verify -Dit.test=KafkaSourceLatencyTest}).
 */
@Tag("soak")
@Timeout(900)
class KafkaSourceLatencyTest {
    static final int RATE = Integer.getInteger("tributary.latency.rate", 10_000);
    static final int SECONDS = Integer.getInteger("tributary.latency.seconds", 120);
    static final int PARTITIONS = 6;
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void recordsReachTheTableWithinASecondAtTenThousandRowsPerSecond() throws Exception {
        try (SourceTopics kafka = new SourceTopics(dir)) {
            kafka.create("clicks", PARTITIONS);
            Workspace ws = new Workspace(dir, "name: clicks\nsource:\n  kafka:\n    topics: [clicks]\n    includeMetadata: true\n"
                    + "    schema: \"id INT, user STRING, amt DOUBLE\"\n"
                    + "sink:\n  delta:\n    path: out/\n"
                    + "kafka:\n  bootstrap.servers: \"" + kafka.broker.bootstrapServers() + "\"\n");
            String table = dir.resolve("out").toString();
            ChildProcess run = ChildProcess.start(dir, Map.of(), "run", ws.spec.toString());
            int total = RATE * SECONDS;
            try {
                kafka.produce("clicks", 0, "{\"id\": -1, \"user\": \"warm\", \"amt\": 0}"); // the run is up and reading
                await("the first row").atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(200))
                        .until(() -> DeltaTables.exists(table));
                try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(Map.of("bootstrap.servers", kafka.broker.bootstrapServers(),
                        "linger.ms", 5), new ByteArraySerializer(), new ByteArraySerializer())) {
                    long t0 = System.nanoTime();
                    for (int i = 0; i < total; i++) {
                        if (i % 100 == 0) { // 100 records every 10 ms: the rate, evenly
                            long due = t0 + (long) i * 1_000_000_000L / RATE;
                            long wait = due - System.nanoTime();
                            if (wait > 0) {
                                Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                            }
                        }
                        String v = "{\"id\": " + i + ", \"user\": \"u" + (i % 1000) + "\", \"amt\": " + (i % 977) + ".25}";
                        p.send(new ProducerRecord<>("clicks", i % PARTITIONS, null, v.getBytes(StandardCharsets.UTF_8)));
                    }
                    p.flush();
                    System.out.printf("kafka source latency: %d records produced in %d ms%n", total, (System.nanoTime() - t0) / 1_000_000);
                }
                await("every row in the table").atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofSeconds(1)).until(() -> {
                    assertThat(run.alive()).as("the run goes on; stderr:\n%s", run.err()).isTrue();
                    Map<String, Map<String, Long>> offsets = DeltaTables.sinkOffsets(table).orElseThrow().sparkJson();
                    return offsets.get("clicks").values().stream().mapToLong(Long::longValue).sum() >= total + 1;
                });
                assertThat(run.stop(90)).as("exit code after SIGTERM; stderr:\n%s", run.err()).isZero();
            } finally {
                run.kill();
            }
            List<Long> latencies = latencies(dir.resolve("out"));
            assertThat(latencies).hasSize(total);
            latencies.sort(null);
            long p50 = latencies.get(latencies.size() / 2);
            long p99 = latencies.get((int) (latencies.size() * 0.99));
            System.out.printf("kafka source latency: %d rows at %d rows/s for %d s, produce-to-commit median %d ms, p99 %d ms, max %d ms,"
                    + " %d commits%n", total, RATE, SECONDS, p50, p99, latencies.get(latencies.size() - 1), commits);
        }
    }

    private int commits;

    /** Each row's commit timestamp minus its record's timestamp, in ms; the warm-up record left out. */
    private List<Long> latencies(Path table) throws Exception {
        // per partition: the commits' offsets (exclusive end) and times, in version order
        Map<Integer, TreeMap<Long, Long>> ends = new HashMap<>();
        List<Path> logs;
        try (Stream<Path> s = Files.list(table.resolve("_delta_log"))) {
            logs = s.filter(p -> p.getFileName().toString().matches("\\d{20}\\.json")).sorted().toList();
        }
        for (Path log : logs) {
            long time = -1;
            Map<String, Long> offsets = null;
            for (String line : Files.readAllLines(log)) {
                JsonNode a = JSON.readTree(line);
                if (a.has("commitInfo")) {
                    time = a.get("commitInfo").get("timestamp").asLong();
                }
                JsonNode d = a.path("domainMetadata");
                if (d.path("domain").asText().equals(SinkOffsets.DOMAIN)) {
                    offsets = SinkOffsets.parse(d.get("configuration").asText()).sparkJson().get("clicks");
                }
            }
            if (offsets != null) {
                commits++;
                for (Map.Entry<String, Long> e : offsets.entrySet()) {
                    ends.computeIfAbsent(Integer.parseInt(e.getKey()), k -> new TreeMap<>()).putIfAbsent(e.getValue(), time);
                }
            }
        }
        List<Long> out = new ArrayList<>();
        for (Object[] r : DeltaTables.readRows(table.toString())) {
            if ((Integer) r[0] < 0) {
                continue;
            }
            // id, user, amt, key, topic, partition, offset, timestamp (micros), timestampType, headers
            int partition = (Integer) r[5];
            long offset = (Long) r[6];
            long recordMs = (Long) r[7] / 1000;
            out.add(ends.get(partition).higherEntry(offset).getValue() - recordMs);
        }
        return out;
    }
}
