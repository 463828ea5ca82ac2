package io.tributary.service.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.broker.BrokerCluster;
import io.tributary.service.spec.PipelineSpec;
import io.tributary.sink.DeltaTables;
import io.tributary.testing.InputFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A pipeline on a cluster of three brokers (default.replication.factor 3, min.insync.replicas 2):
 * the topics it creates, Kafka Streams' changelogs included, take the cluster's replication or
 * {@code topic.replicationFactor}, and the table is exact.
 */
@Tag("integration")
@Timeout(300)
class ReplicatedTopicsTest {
    private static final Instant BASE = Instant.parse("2026-01-01T10:00:00Z");
    private static Path clusterDir;
    private static BrokerCluster cluster;

    @TempDir
    Path dir;

    @BeforeAll
    static void startCluster() throws IOException {
        clusterDir = Files.createTempDirectory("tributary-cluster");
        cluster = BrokerCluster.start(clusterDir, 3);
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void aWindowedPipelineOnThreeBrokersTakesTheirReplicationAndItsTableIsExact() throws Exception {
        run("""
                name: replicated
                aggregate:
                  eventTime: ts
                  watermark: 5 minutes
                  window: 10 minutes
                  groupBy: [user]
                  select: { n: count(*) }
                outputMode: append
                topic:
                  partitions: 2
                """);
        Map<String, Integer> replicas = replicas("replicated");
        assertThat(replicas).containsKeys("tributary.replicated.events", "tributary.replicated.ingest-log",
                "tributary.replicated.deadletter", "tributary.replicated.results",
                "tributary-replicated-aggregate-aggregate-windows-changelog");
        assertThat(replicas.values()).as("replicas of every topic: %s", replicas).containsOnly(3);
        // ten rows per window of ten minutes, windows 0..4; the watermark (10:40:09 - 5 min) closes the first three
        List<String> rows = new ArrayList<>();
        for (Object[] r : DeltaTables.readRows(dir.resolve("out").toString())) {
            rows.add(((Object[]) r[0])[0] + "|" + r[1] + "|" + r[2]);
        }
        List<String> expected = new ArrayList<>();
        for (int w = 0; w < 3; w++) {
            expected.add(BASE.plusSeconds(600L * w).toEpochMilli() * 1000 + "|u|10");
        }
        assertThat(rows).containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void topicReplicationFactorSetsTheReplicasOfTheTopicsThePipelineCreates() throws Exception {
        run("name: two\ntopic:\n  partitions: 2\n  replicationFactor: 2\n");
        Map<String, Integer> replicas = replicas("two");
        assertThat(replicas).containsKeys("tributary.two.events", "tributary.two.ingest-log", "tributary.two.deadletter");
        assertThat(replicas.values()).as("replicas of every topic: %s", replicas).containsOnly(2);
        assertThat(DeltaTables.readRows(dir.resolve("out").toString())).hasSize(50);
    }

    private void run(String head) throws Exception {
        Files.createDirectories(dir.resolve("in"));
        for (int f = 0; f < 5; f++) {
            List<String> lines = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                lines.add("{\"id\": " + (f * 100 + i) + ", \"user\": \"u\", \"amt\": 1.0, \"ts\": \"" + BASE.plusSeconds(600L * f + i) + "\"}");
            }
            InputFiles.place(dir.resolve("in"), "f-" + f + ".json", lines.toArray(String[]::new));
        }
        Path specFile = dir.resolve("pipeline.yaml");
        Files.writeString(specFile, head + """
                source:
                  files:
                    path: in/
                    schema: "id INT, user STRING, amt DOUBLE, ts TIMESTAMP"
                sink:
                  delta:
                    path: out/
                trigger: availableNow
                kafka:
                  bootstrap.servers: "%s"
                """.formatted(cluster.bootstrapServers()));
        PipelineSpec spec = PipelineSpec.load(specFile, Map.of(), Map.of());
        try (Pipeline pipeline = Pipeline.open(spec, RunOptions.DEFAULT)) {
            pipeline.run(spec.trigger(), p -> { });
        }
    }

    /** Replicas per topic of the pipeline (its own topics and its Kafka Streams application's). */
    private static Map<String, Integer> replicas(String pipeline) throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", cluster.bootstrapServers()))) {
            List<String> topics = admin.listTopics().names().get().stream()
                    .filter(t -> t.startsWith("tributary." + pipeline + ".") || t.startsWith("tributary-" + pipeline + "-")).toList();
            Map<String, Integer> out = new TreeMap<>();
            for (TopicDescription d : admin.describeTopics(topics).allTopicNames().get().values()) {
                out.put(d.name(), d.partitions().get(0).replicas().size());
            }
            return out;
        }
    }
}
