package io.tributary.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.schema.RowJson;
import io.tributary.schema.Schema;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several instances of one sink (as processes on several hosts would be) share the topic's
 * partitions through the sink's consumer group and commit to one table: partitions move when an
 * instance joins or leaves, each resumes at the table's offsets, and the table is exact.
 */
@Tag("integration")
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class SharedSinkIT {
    private static final Schema SCHEMA = Schema.parse("id INT, user STRING");
    private static final RowJson ROWS = new RowJson(SCHEMA);
    private static final String APP = "tributary-shared-sink";
    private static final int PARTITIONS = 4;

    @RegisterExtension
    static final TestKafka KAFKA = new TestKafka();

    @TempDir
    Path dir;

    private int nextId;
    private final List<Integer> published = new ArrayList<>();

    @Test
    void instancesThatJoinAndLeaveShareThePartitionsAndTheTableIsExact() throws Exception {
        String topic = KAFKA.newTopic("shared", PARTITIONS);
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            publish(topic, 40);
            Running a = run(threads, topic, "a");
            await("instance a alone takes every row").atMost(Duration.ofMinutes(1)).until(() -> a.failIfEnded() && ids().size() == 40);

            Running b = run(threads, topic, "b");
            await("the group gives b half the partitions").atMost(Duration.ofMinutes(1))
                    .until(() -> a.failIfEnded() && b.failIfEnded() && owners(topic).values().stream().distinct().count() == 2);
            for (int i = 0; i < 5; i++) {
                publish(topic, 30);
            }
            await("a and b take every row").atMost(Duration.ofMinutes(1))
                    .until(() -> a.failIfEnded() && b.failIfEnded() && ids().size() == published.size());
            assertThat(txnAppIds()).as("both instances committed").contains(APP + "@a", APP + "@b");

            a.stop(); // leaves the group: b takes a's partitions and resumes them at the table's offsets
            publish(topic, 50);
            await("b alone takes every row").atMost(Duration.ofMinutes(1)).until(() -> b.failIfEnded() && ids().size() == published.size());
            b.stop();

            assertThat(ids()).containsExactlyElementsOf(published.stream().sorted().toList());
            Map<Integer, Long> end = new java.util.TreeMap<>();
            try (var consumer = new org.apache.kafka.clients.consumer.KafkaConsumer<byte[], byte[]>(Map.of(
                    "bootstrap.servers", KAFKA.broker().bootstrapServers(), "isolation.level", "read_committed",
                    "key.deserializer", "org.apache.kafka.common.serialization.ByteArrayDeserializer",
                    "value.deserializer", "org.apache.kafka.common.serialization.ByteArrayDeserializer"))) {
                List<org.apache.kafka.common.TopicPartition> tps = new ArrayList<>();
                for (int p = 0; p < PARTITIONS; p++) {
                    tps.add(new org.apache.kafka.common.TopicPartition(topic, p));
                }
                consumer.endOffsets(tps).forEach((tp, o) -> end.put(tp.partition(), o));
            }
            assertThat(DeltaTables.sinkOffsets(table()).orElseThrow().offsets()).as("the table's offsets: every partition's end").isEqualTo(end);
        } finally {
            threads.shutdownNow();
        }
    }

    /** An instance of a running sink, running batches on a thread of the test until {@link #stop()}. */
    private final class Running {
        final AtomicBoolean stop = new AtomicBoolean();
        Future<?> loop;

        boolean failIfEnded() throws Exception {
            if (loop.isDone()) {
                loop.get();
                throw new AssertionError("an instance ended");
            }
            return true;
        }

        void stop() throws Exception {
            stop.set(true);
            loop.get(1, TimeUnit.MINUTES);
        }
    }

    private Running run(ExecutorService threads, String topic, String instance) {
        Running r = new Running();
        SinkConfig config = SinkConfig.of(table(), SCHEMA, topic, APP, "shared/sink");
        r.loop = threads.submit(() -> {
            try (DeltaSink sink = DeltaSink.builder(config, KAFKA.client()).storage(io.tributary.storage.Storage.NONE).instanceId(instance).build()) {
                while (!r.stop.get()) {
                    if (sink.runBatch().isEmpty()) {
                        Thread.sleep(50); // the service's idle poll
                    }
                }
            }
            return null;
        });
        return r;
    }

    private void publish(String topic, int rows) {
        int first = nextId;
        KAFKA.inTransaction(producer -> { // a transaction the coordinator refused is sent again, with the same ids
            for (int id = first; id < first + rows; id++) {
                producer.send(new ProducerRecord<>(topic, id % PARTITIONS, null, ROWS.write(new Object[] {id, "u" + id})));
            }
        });
        for (int id = first; id < first + rows; id++) {
            published.add(id);
        }
        nextId = first + rows;
    }

    /** The group's assignment: partition to the member's instance id. */
    private static Map<Integer, String> owners(String topic) throws Exception {
        Map<Integer, String> out = new java.util.TreeMap<>();
        try (Admin admin = Admin.create(KAFKA.client())) {
            ConsumerGroupDescription d = admin.describeConsumerGroups(List.of(APP)).all().get().get(APP);
            d.members().forEach(m -> m.assignment().topicPartitions().forEach(tp -> out.put(tp.partition(), m.groupInstanceId().orElse("?"))));
        }
        return out;
    }

    private Set<String> txnAppIds() {
        Set<String> out = new java.util.TreeSet<>();
        for (TableCommit c : DeltaTables.history(table())) {
            if (c.txnAppId() != null) {
                out.add(c.txnAppId());
            }
        }
        return out;
    }

    private String table() {
        return dir.resolve("out").toString();
    }

    private List<Integer> ids() {
        if (!DeltaTables.exists(table())) {
            return List.of();
        }
        List<Integer> ids = new ArrayList<>();
        for (Object[] r : DeltaTables.readRows(table())) {
            ids.add((Integer) r[0]);
        }
        ids.sort(Comparator.naturalOrder());
        return ids;
    }
}
