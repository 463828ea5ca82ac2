package io.tributary.tests;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.sink.DeltaTables;
import io.tributary.testing.CommittedRecords;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Spark's {@code readStream.format("kafka")} into a Delta table: a topic another application writes
 * JSON to, landed by {@code tributary run} with {@code source.kafka}, exactly once across runs,
 * bad records to the dead-letter topic, the topic itself left as it was.
 */
@Tag("integration")
@Timeout(300)
class KafkaSourceScenarioTest {
    @TempDir
    Path dir;
    @RegisterExtension
    final PipelineBroker kafka = new PipelineBroker();

    @BeforeEach
    void createTopic() throws Exception {
        try (Admin admin = Admin.create(client())) {
            admin.createTopics(List.of(new NewTopic("orders", 2, (short) 1))).all().get();
        }
    }

    private Map<String, Object> client() {
        return kafka.client();
    }

    private String spec(String extra) {
        return "name: orders\n"
                + "source:\n  kafka:\n    topics: [orders]\n    schema: \"id INT, user STRING, amt DOUBLE\"\n"
                + "sink:\n  delta:\n    path: out/\n"
                + "kafka:\n  bootstrap.servers: \"" + kafka.bootstrapServers() + "\"\n" + extra;
    }

    private void produce(String... values) throws Exception {
        try (KafkaProducer<String, String> p = new KafkaProducer<>(Map.<String, Object>of("bootstrap.servers", kafka.bootstrapServers()),
                new StringSerializer(), new StringSerializer())) {
            for (String v : values) {
                p.send(new ProducerRecord<>("orders", v)).get();
            }
        }
    }

    /** Records keyed by their id, as a producer that wants one partition per key writes them. */
    private void produceKeyed(String... values) throws Exception {
        try (KafkaProducer<String, String> p = new KafkaProducer<>(Map.<String, Object>of("bootstrap.servers", kafka.bootstrapServers()),
                new StringSerializer(), new StringSerializer())) {
            for (String v : values) {
                String id = v.replaceAll(".*\"id\": (\\d+).*", "$1");
                p.send(new ProducerRecord<>("orders", id, v)).get();
            }
        }
    }

    private TreeSet<Integer> ids() {
        TreeSet<Integer> ids = new TreeSet<>();
        List<Object[]> rows = DeltaTables.readRows(dir.resolve("out").toString());
        rows.forEach(r -> assertThat(ids.add((Integer) r[0])).as("id %s once", r[0]).isTrue());
        return ids;
    }

    @Test
    void aTopicAnotherApplicationWritesLandsInTheTableExactlyOnceAcrossRuns() throws Exception {
        produce("{\"id\": 1, \"user\": \"a\", \"amt\": 5.0}", "{\"id\": 2, \"user\": \"b\", \"amt\": 7.5}", "not json at all",
                "{\"id\": 3, \"user\": \"c\", \"amt\": 1.0}");
        Workspace ws = new Workspace(dir, spec(""));

        Workspace.Result first = ws.tributary("run", "--trigger", "availableNow").assertOk();
        assertThat(ids()).containsExactly(1, 2, 3);
        assertThat(first.summary().get("numInputRows").asLong()).as("the rows landed; the bad record is counted apart").isEqualTo(3);
        List<String> dead = CommittedRecords.read(client(), "tributary.orders.deadletter").stream()
                .map(r -> new String(r.value(), StandardCharsets.UTF_8)).toList();
        assertThat(dead).hasSize(1);
        assertThat(dead.get(0)).contains("not json at all");

        ws.tributary("run", "--trigger", "availableNow").assertOk();
        assertThat(ids()).as("a second run with nothing new writes nothing").containsExactly(1, 2, 3);

        produce("{\"id\": 4, \"user\": \"d\", \"amt\": 2.0}", "{\"id\": 5, \"user\": \"e\", \"amt\": 3.0}");
        ws.tributary("run", "--trigger", "availableNow").assertOk();
        assertThat(ids()).containsExactly(1, 2, 3, 4, 5);

        try (Admin admin = Admin.create(client())) {
            long kept = 0;
            for (int p = 0; p < 2; p++) {
                TopicPartition tp = new TopicPartition("orders", p);
                kept += admin.listOffsets(Map.of(tp, OffsetSpec.latest())).all().get().get(tp).offset()
                        - admin.listOffsets(Map.of(tp, OffsetSpec.earliest())).all().get().get(tp).offset();
            }
            assertThat(kept).as("the source topic is someone else's: nothing of it is deleted").isEqualTo(6);
        }
    }

    @Test
    void aKeyedTopicUpsertsByIdAcrossRuns() throws Exception {
        produceKeyed("{\"id\": 1, \"user\": \"a\", \"amt\": 5.0}", "{\"id\": 2, \"user\": \"b\", \"amt\": 7.5}",
                "{\"id\": 1, \"user\": \"a\", \"amt\": 6.0}");
        Workspace ws = new Workspace(dir, spec("").replace("    path: out/\n", "    path: out/\n    mode: upsert\n    keys: [id]\n"));
        ws.tributary("run", "--trigger", "availableNow").assertOk();
        produceKeyed("{\"id\": 2, \"user\": \"b\", \"amt\": 8.0}", "{\"id\": 3, \"user\": \"c\", \"amt\": 1.0}");
        ws.tributary("run", "--trigger", "availableNow").assertOk();
        assertThat(ids()).containsExactly(1, 2, 3);
        assertThat(DeltaTables.readRows(dir.resolve("out").toString())).extracting(r -> r[0] + "=" + r[2])
                .containsExactlyInAnyOrder("1=6.0", "2=8.0", "3=1.0");
    }

    /**
     * A pipeline whose values come through a schema registry that does not answer: checkpoint show still prints
     * the table's offsets, the topic's ends and the lag (offsets need only Kafka and the table), and says nothing of the registry.
     */
    @Test
    void checkpointShowPrintsTheOffsetsAndTheLagWithTheSchemaRegistryDown() throws Exception {
        produce("{\"id\": 1, \"user\": \"a\", \"amt\": 5.0}", "{\"id\": 2, \"user\": \"b\", \"amt\": 7.5}",
                "{\"id\": 3, \"user\": \"c\", \"amt\": 1.0}");
        new Workspace(dir, spec("")).tributary("run", "--trigger", "availableNow").assertOk();
        produce("{\"id\": 4, \"user\": \"d\", \"amt\": 2.0}");
        int closedPort;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort(); // nothing listens there once closed
        }
        Workspace avro = new Workspace(dir, spec("").replace("    schema: \"id INT, user STRING, amt DOUBLE\"\n",
                "    format: avro\n    schemaRegistry:\n      url: http://127.0.0.1:" + closedPort + "\n"));

        Workspace.Result show = avro.tributary("checkpoint show").assertOk();
        String line = show.out().lines().filter(l -> l.startsWith("  orders  ")).findFirst().orElseThrow();
        assertThat(line).matches("  orders  0: table \\d+, end \\d+, lag \\d+; 1: table \\d+, end \\d+, lag \\d+");
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("table (\\d+), end (\\d+), lag (\\d+)").matcher(line);
        long table = 0;
        long end = 0;
        long lag = 0;
        while (m.find()) {
            table += Long.parseLong(m.group(1));
            end += Long.parseLong(m.group(2));
            lag += Long.parseLong(m.group(3));
        }
        assertThat(List.of(table, end, lag)).as("the table's offsets, the ends, the lag, over both partitions: %s", line)
                .containsExactly(3L, 4L, 1L);
        assertThat(show.err()).as("the registry is not needed for offsets").doesNotContainIgnoringCase("registry");
    }
}
