package io.tributary.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.schema.Topics;
import io.tributary.sink.DeltaTables;
import io.tributary.sink.TopicTail;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;

/**
 * Several {@code tributary run} processes of one pipeline, as on several hosts: each with its own
 * {@code instance.id} and state folder, all on one Kafka cluster. A test starts, kills and stops
 * them by id, and asks Kafka's groups who owns what.
 */
final class PipelineInstances implements AutoCloseable {
    private final Path dir;
    private final Workspace ws;
    private final String pipeline;
    private final Map<String, Object> client;
    private final Map<String, ChildProcess> running = new TreeMap<>();

    PipelineInstances(Path dir, Workspace ws, String pipeline, String bootstrapServers) {
        this.dir = dir;
        this.ws = ws;
        this.pipeline = pipeline;
        this.client = Map.of("bootstrap.servers", bootstrapServers);
    }

    /** Starts instance {@code id} (its state in {@code state-<id>/}). */
    ChildProcess start(String id) throws IOException {
        ChildProcess p = ChildProcess.start(dir, Map.of("TRIBUTARY_INSTANCE_ID", id,
                "TRIBUTARY_STATE", dir.resolve("state-" + id).toString()), "run", ws.spec.toString());
        running.put(id, p);
        return p;
    }

    /** SIGKILL, as a host that dies. */
    void kill(String id) throws InterruptedException {
        running.remove(id).kill();
    }

    /** SIGTERM, as a service manager stops it (scale down); its exit code. */
    int stop(String id) throws InterruptedException {
        return running.remove(id).stop(90);
    }

    List<String> ids() {
        return List.copyOf(running.keySet());
    }

    /** Fails when an instance ended by itself, with its stderr. */
    void assertAlive() throws IOException {
        for (Map.Entry<String, ChildProcess> e : running.entrySet()) {
            assertThat(e.getValue().alive()).as("instance %s runs; its stderr:\n%s", e.getKey(), e.getValue().err()).isTrue();
        }
    }

    Map<String, Object> client() {
        return client;
    }

    /** Group {@code role} ({@code ingest}, {@code aggregate}, {@code sink}) of the pipeline: each member's instance id and partitions. */
    Map<String, List<Integer>> owners(String role) throws Exception {
        String group = "tributary-" + pipeline + "-" + role;
        Map<String, List<Integer>> out = new TreeMap<>();
        try (Admin admin = Admin.create(client)) {
            ConsumerGroupDescription d = admin.describeConsumerGroups(List.of(group)).all().get().get(group);
            for (MemberDescription m : d.members()) {
                String id = m.groupInstanceId().orElse(m.consumerId());
                id = id.startsWith(group + "-") ? id.substring(group.length() + 1) : id;
                out.put(id, m.assignment().topicPartitions().stream().map(tp -> tp.partition()).sorted().toList());
            }
        }
        return out;
    }

    /** The instance that runs the source now (holds partition 0 of the ingest group), or null. */
    String activeIngest() throws Exception {
        return owners("ingest").entrySet().stream().filter(e -> e.getValue().contains(0)).map(Map.Entry::getKey).findFirst().orElse(null);
    }

    /**
     * Waits until every stage has committed all there is: no record past the aggregation's committed
     * offsets in the events topic (with an aggregation), and the sink's table at the end of its topic.
     */
    void awaitDrained(String table, boolean windowed, Duration atMost) {
        await("every instance's stages have taken all there is").atMost(atMost).pollInterval(Duration.ofMillis(500)).until(() -> {
            assertAlive();
            if (!DeltaTables.exists(table)) {
                return false;
            }
            String events = Topics.events(pipeline);
            if (windowed) {
                Map<Integer, Long> committed = new HashMap<>();
                try (Admin admin = Admin.create(client)) {
                    admin.listConsumerGroupOffsets("tributary-" + pipeline + "-aggregate").partitionsToOffsetAndMetadata().get()
                            .forEach((tp, o) -> {
                                if (tp.topic().equals(events) && o != null) {
                                    committed.put(tp.partition(), o.offset());
                                }
                            });
                }
                if (committed.isEmpty() || !TopicTail.records(client, events, committed).isEmpty()) {
                    return false;
                }
            }
            return TopicTail.sinkCaughtUp(client, table, windowed ? Topics.results(pipeline) : events);
        });
    }

    /** Stops every instance that runs (SIGTERM, all at once) and returns their exit codes by id. */
    Map<String, Integer> stopAll() throws InterruptedException {
        Map<String, Integer> codes = new TreeMap<>();
        running.values().forEach(p -> p.destroyGently());
        for (String id : List.copyOf(running.keySet())) {
            codes.put(id, running.remove(id).waitFor(120));
        }
        return codes;
    }

    @Override
    public void close() throws InterruptedException {
        for (ChildProcess p : running.values()) {
            p.kill();
        }
        running.clear();
    }
}
