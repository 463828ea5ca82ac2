package io.tributary.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.schema.Topics;
import io.tributary.sink.DeltaTables;
import io.tributary.sink.TopicTail;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;

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
    private volatile String lastReadFailure;

    PipelineInstances(Path dir, Workspace ws, String pipeline, String bootstrapServers) {
        this.dir = dir;
        this.ws = ws;
        this.pipeline = pipeline;
        this.client = Map.of("bootstrap.servers", bootstrapServers);
    }

    /** Starts instance {@code id} (its state in {@code state-<id>/}). */
    ChildProcess start(String id) throws IOException {
        return start(id, ws.spec);
    }

    /** Starts instance {@code id} of {@code spec}, with {@code args} after it (e.g. {@code --set key=value}). */
    ChildProcess start(String id, Path spec, String... args) throws IOException {
        List<String> all = new java.util.ArrayList<>(List.of("run", spec.toString()));
        all.addAll(List.of(args));
        ChildProcess p = ChildProcess.start(dir, Map.of("TRIBUTARY_INSTANCE_ID", id,
                "TRIBUTARY_STATE", dir.resolve("state-" + id).toString()), all.toArray(String[]::new));
        running.put(id, p);
        return p;
    }

    /**
     * Waits for instance {@code id} to end by itself (a refused start), which then no longer counts
     * as running; its exit code, or -1 if it still ran after {@code seconds} (it is then killed).
     */
    int awaitExit(String id, long seconds) throws InterruptedException {
        return running.remove(id).waitFor(seconds);
    }

    /** Waits until instance {@code id} serves HTTP and is a member of the sink's group. */
    void awaitJoined(String id, Duration atMost) {
        await("instance " + id + " joined the sink's group").atMost(atMost).pollInterval(Duration.ofMillis(250)).until(() -> {
            assertAlive();
            return running.get(id).err().contains("serving http://") && owners("sink").containsKey(id);
        });
    }

    /** SIGKILL, as a host that dies. */
    void kill(String id) throws InterruptedException {
        running.remove(id).kill();
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

    /** GET {@code path} of instance {@code id}'s HTTP endpoints (the port it logged at start). */
    String http(String id, String path) throws Exception {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("serving http://127\\.0\\.0\\.1:(\\d+)/").matcher(running.get(id).err());
        assertThat(m.find()).as("instance %s logged its HTTP port", id).isTrue();
        java.net.http.HttpResponse<String> r = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
                java.net.URI.create("http://127.0.0.1:" + m.group(1) + path)).build(), java.net.http.HttpResponse.BodyHandlers.ofString());
        return r.body();
    }

    Map<String, Object> client() {
        return client;
    }

    /** Group {@code role} ({@code ingest}, {@code aggregate}, {@code sink}) of the pipeline: each member's instance id and partitions. */
    Map<String, List<Integer>> owners(String role) throws Exception {
        String group = "tributary-" + pipeline + "-" + role;
        Map<String, List<Integer>> out = new TreeMap<>();
        try (Admin admin = Admin.create(client)) {
            ConsumerGroupDescription d;
            try {
                d = admin.describeConsumerGroups(List.of(group)).all().get().get(group);
            } catch (java.util.concurrent.ExecutionException e) {
                if (e.getCause() instanceof org.apache.kafka.common.errors.GroupIdNotFoundException) {
                    return out; // no member joined yet
                }
                throw e;
            }
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
     * Waits until every instance that runs is a member of the sink's group, and every stage has
     * committed all there is: every file of {@code in/} in the ingest log, no record past the
     * aggregation's committed offsets in the events topic (with an aggregation), and the sink's
     * table at the end of its topic.
     */
    void awaitDrained(String table, boolean windowed, Duration atMost) throws Exception {
        try {
            awaitDrainedOrTimeOut(table, windowed, atMost);
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            throw new AssertionError(e.getMessage() + "\n" + state(table, windowed), e);
        }
    }

    /** What a person looks at when the stages did not drain: the table's offsets, the topic's ends, the owners, each instance's log. */
    private String state(String table, boolean windowed) throws Exception {
        StringBuilder s = new StringBuilder();
        String topic = windowed ? Topics.results(pipeline) : Topics.events(pipeline);
        if (lastReadFailure != null) {
            s.append("the check's last read of the topic: ").append(lastReadFailure).append('\n');
        }
        s.append("table offsets: ").append(DeltaTables.sinkOffsets(table).map(o -> o.offsets().toString()).orElse("none")).append('\n');
        try (Admin admin = Admin.create(client)) {
            int partitions = admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic).partitions().size();
            Map<TopicPartition, OffsetSpec> ask = new HashMap<>();
            for (int p = 0; p < partitions; p++) {
                ask.put(new TopicPartition(topic, p), OffsetSpec.latest());
            }
            Map<Integer, Long> ends = new TreeMap<>();
            admin.listOffsets(ask, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED))
                    .all().get().forEach((tp, o) -> ends.put(tp.partition(), o.offset()));
            s.append(topic).append(" ends (read_committed): ").append(ends).append('\n');
            s.append("open transactions: ").append(admin.listTransactions().all().get().stream()
                    .filter(t -> t.state() == TransactionState.ONGOING).map(t -> t.transactionalId()).toList()).append('\n');
        }
        for (String role : List.of("ingest", "aggregate", "sink")) {
            s.append(role).append(" group: ").append(owners(role)).append('\n');
        }
        for (Map.Entry<String, ChildProcess> e : running.entrySet()) {
            String err = e.getValue().err();
            s.append("---- instance ").append(e.getKey()).append(" stderr (last 8000 chars):\n").append(err.substring(Math.max(0, err.length() - 8000)));
        }
        return s.toString();
    }

    private void awaitDrainedOrTimeOut(String table, boolean windowed, Duration atMost) {
        await("every instance's stages have taken all there is").atMost(atMost).pollInterval(Duration.ofMillis(500)).until(() -> {
            assertAlive();
            if (!allServing()) {
                return false; // an instance started a moment ago: its killed predecessor's static membership may still stand for it
            }
            if (!DeltaTables.exists(table) || !owners("sink").keySet().containsAll(running.keySet())) {
                return false; // an instance started a moment ago is not in the sink's group yet
            }
            if (!read(this::ingestLoggedEveryFile)) {
                return false; // files added a moment ago: the topics may be at their ends before the ingest lists them
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
                if (committed.isEmpty() || !read(() -> TopicTail.records(client, events, committed).isEmpty())) {
                    return false;
                }
            }
            return read(() -> TopicTail.sinkCaughtUp(client, table, windowed ? Topics.results(pipeline) : events));
        });
    }

    /**
     * Over a Kafka source: waits until every instance that runs serves HTTP and is a member of the sink's group,
     * and the table holds every row of {@code topic} (the source's topic, or the results of an aggregation over it).
     */
    void awaitCaughtUp(String table, String topic, Duration atMost) {
        await("every instance's sink has taken all of " + topic).atMost(atMost).pollInterval(Duration.ofMillis(500)).until(() -> {
            assertAlive();
            return allServing() && DeltaTables.exists(table) && owners("sink").keySet().containsAll(running.keySet())
                    && read(() -> TopicTail.sinkCaughtUp(client, table, topic));
        });
    }

    /** Whether every instance has got as far as serving HTTP (a SIGTERM before that ends a JVM still starting, exit 143). */
    private boolean allServing() throws IOException {
        for (ChildProcess p : running.values()) {
            if (!p.err().contains("serving http://")) {
                return false;
            }
        }
        return true;
    }

    /** Whether the ingest log names every file of {@code in/} (each file's record commits with its rows). */
    private boolean ingestLoggedEveryFile() {
        Set<String> logged = new HashSet<>();
        for (ConsumerRecord<byte[], byte[]> r : TopicTail.records(client, Topics.ingestLog(pipeline), Map.of())) {
            if (r.key() != null && r.value() != null) {
                logged.add(Path.of(new String(r.key(), StandardCharsets.UTF_8)).getFileName().toString());
            }
        }
        try (Stream<Path> files = Files.list(ws.dir.resolve("in"))) {
            return files.map(f -> f.getFileName().toString()).filter(n -> !n.startsWith(".")).allMatch(logged::contains);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A read of a topic by the drain check; one that does not reach the topic's end is "not yet", tried again with a new consumer. */
    private boolean read(java.util.function.BooleanSupplier check) {
        try {
            return check.getAsBoolean();
        } catch (AssertionError e) {
            lastReadFailure = e.getMessage();
            return false;
        }
    }

    /** Stops every instance that runs (SIGTERM, all at once) and checks that each exits with 0 (else shows its stderr). */
    void stopAll() throws InterruptedException, IOException {
        running.values().forEach(ChildProcess::destroyGently);
        for (String id : List.copyOf(running.keySet())) {
            ChildProcess p = running.remove(id);
            int code = p.waitFor(120);
            assertThat(code).as("instance %s's exit code after SIGTERM; its stderr:\n%s", id, tail(p.err())).isZero();
        }
    }

    /** Stops instance {@code id} (SIGTERM) and checks that it exits with 0. */
    void stopAndCheck(String id) throws InterruptedException, IOException {
        ChildProcess p = running.remove(id);
        assertThat(p.stop(90)).as("instance %s's exit code after SIGTERM; its stderr:\n%s", id, tail(p.err())).isZero();
    }

    private static String tail(String s) {
        return s.length() > 20_000 ? "..." + s.substring(s.length() - 20_000) : s;
    }

    @Override
    public void close() throws InterruptedException {
        for (ChildProcess p : running.values()) {
            p.kill();
        }
        running.clear();
    }
}
