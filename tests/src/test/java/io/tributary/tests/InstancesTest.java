package io.tributary.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.BrokerCluster;
import io.tributary.schema.Timestamps;
import io.tributary.sink.DeltaTables;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several {@code tributary run} processes of one pipeline on a Kafka cluster of three brokers
 * (each a process; every topic with 3 replicas, min.insync.replicas 2), as Kafka tests its own
 * transactions: instances SIGKILLed and started again, brokers bounced, instances added and
 * removed, and the table must equal the expected rows exactly (none lost, none twice).
 * {@code -Dtributary.instances.kills=N} sets the kills per pipeline (default 2, the first of the
 * instance that runs the ingest; the soak profile's {@link InstancesSoakTest} runs 10, one every 15
 * to 30 s, and measures the failover).
 */
@Tag("integration")
@Tag("scenarios")
@Timeout(1800)
class InstancesTest {
    static final int KILLS = Integer.getInteger("tributary.instances.kills", 2);
    static final long SEED = Long.getLong("tributary.instances.seed", 21L);
    static final long BASE_MS = 1_767_261_600_000L; // 2026-01-01T10:00:00Z
    static final String LIB = ChildProcess.LAUNCHER.getParent().getParent().resolve("lib") + "/*";

    /** One cluster for the class: each test's pipeline has a name, and so topics and groups, of its own. */
    @TempDir
    static Path clusterDir;
    static BrokerCluster cluster;

    @TempDir
    Path dir;

    int fileNumber;
    int id;

    @BeforeAll
    static void startCluster() {
        startCluster(clusterDir);
    }

    static void startCluster(Path in) {
        cluster = BrokerCluster.startProcesses(in.resolve("kafka"), 3, LIB);
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
            cluster = null;
        }
    }

    static String spec(String name, String body, String bootstrap) {
        return "name: " + name + "\n" + """
                source:
                  files:
                    path: in/
                    format: json
                    schema: "id INT, user STRING, amt DOUBLE, ts TIMESTAMP"
                    maxFilesPerTrigger: 2
                topic:
                  partitions: 6
                """ + body + "kafka:\n  bootstrap.servers: \"" + bootstrap + "\"\n";
    }

    static final String RAW = "sink:\n  delta:\n    path: out/\n";
    static final String UPSERT = "sink:\n  delta:\n    path: out/\n    mode: upsert\n    keys: [id]\n";
    static final String WINDOWED = """
            aggregate:
              eventTime: ts
              watermark: 5 minutes
              window: 10 minutes
              groupBy: [user]
              select: { t: sum(amt) }
            outputMode: append
            sink:
              delta:
                path: out/
            """;

    @Test
    void threeInstancesOfARawPipelineSurviveKillsExactly() throws Exception {
        Workspace ws = new Workspace(dir, spec("raw", RAW, cluster.bootstrapServers()));
        List<String> expected = new ArrayList<>();
        killLoop(ws, "raw", false, rows -> expected.addAll(rows), 0, KILLS);
        assertThat(rawRows()).containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void threeInstancesOfAnUpsertPipelineSurviveKillsExactly() throws Exception {
        Workspace ws = new Workspace(dir, spec("upserts", UPSERT, cluster.bootstrapServers()));
        Map<Integer, String> lastById = new TreeMap<>();
        killLoop(ws, "upserts", false, rows -> rows.forEach(r -> {
            String[] f = r.split("\\|");
            int key = Integer.parseInt(f[0]) % 97;
            lastById.put(key, key + "|" + f[1] + "|" + f[2] + "|" + f[3]);
        }), 97, KILLS);
        assertThat(rawRows()).containsExactlyInAnyOrderElementsOf(lastById.values());
    }

    @Test
    void threeInstancesOfAWindowedPipelineSurviveKillsExactly() throws Exception {
        Workspace ws = new Workspace(dir, spec("windowed", WINDOWED, cluster.bootstrapServers()));
        List<String> input = new ArrayList<>();
        killLoop(ws, "windowed", true, input::addAll, 0, KILLS);
        assertThat(GoldenWindowsScenarioTest.table(dir.resolve("out").toString())).containsExactlyInAnyOrderElementsOf(closedWindows(input));
    }

    /**
     * Adds files while three instances run, and SIGKILLs a random one {@code kills} times (each
     * started again at once, with its state folder); then waits until every stage has taken all
     * there is and stops them. With {@code keys > 0} the ids repeat modulo {@code keys} (upserts).
     */
    void killLoop(Workspace ws, String pipeline, boolean windowed, java.util.function.Consumer<List<String>> expected, int keys,
                  int kills) throws Exception {
        Random random = new Random(SEED);
        try (PipelineInstances instances = new PipelineInstances(dir, ws, pipeline, cluster.bootstrapServers())) {
            for (String i : List.of("a", "b", "c")) {
                instances.start(i);
            }
            for (int k = 0; k < kills; k++) {
                addFiles(ws, 4, keys, expected);
                Thread.sleep(3_000 + random.nextInt(5_000)); // the kill lands anywhere in the instances' work
                instances.assertAlive();
                // the first kill takes the instance that runs the ingest, so that a standby's takeover is always tried
                String victim = k == 0 && instances.activeIngest() != null ? instances.activeIngest()
                        : instances.ids().get(random.nextInt(3));
                instances.kill(victim);
                instances.start(victim);
            }
            addFiles(ws, 4, keys, expected);
            instances.awaitDrained(dir.resolve("out").toString(), windowed, Duration.ofMinutes(5));
            instances.stopAll();
        }
    }

    /** {@code n} files of 40 rows each; every row's expected form ({@code id|user|amt|ts}) goes to {@code expected}. */
    void addFiles(Workspace ws, int n, int keys, java.util.function.Consumer<List<String>> expected) {
        for (int f = 0; f < n; f++) {
            List<String> lines = new ArrayList<>();
            List<String> rows = new ArrayList<>();
            for (int r = 0; r < 40; r++) {
                id++;
                String user = "u" + (id % 5);
                double amt = id % 17;
                String ts = Timestamps.formatMicros((BASE_MS + id * 7_000L) * 1000);
                int written = keys > 0 ? id % keys : id;
                lines.add("{\"id\": " + written + ", \"user\": \"" + user + "\", \"amt\": " + amt + ", \"ts\": \"" + ts + "\"}");
                rows.add(id + "|" + user + "|" + amt + "|" + ts);
            }
            ws.addFile(String.format("f-%05d.json", fileNumber++), lines.toArray(String[]::new)).toFile()
                    .setLastModified(BASE_MS + fileNumber * 1000L);
            expected.accept(rows);
        }
    }

    List<String> rawRows() {
        List<String> actual = new ArrayList<>();
        for (Object[] r : DeltaTables.readRows(dir.resolve("out").toString())) {
            actual.add(r[0] + "|" + r[1] + "|" + r[2] + "|" + Timestamps.formatMicros((Long) r[3]));
        }
        return actual;
    }

    /** Every event is in time (they only move forward): the table holds every window the final watermark closed. */
    static List<String> closedWindows(List<String> input) {
        long maxMs = 0;
        for (String row : input) {
            maxMs = Math.max(maxMs, java.time.Instant.parse(row.split("\\|")[3]).toEpochMilli());
        }
        long watermark = maxMs - 5 * 60_000;
        Map<String, Double> sums = new TreeMap<>();
        for (String row : input) {
            String[] f = row.split("\\|");
            long ms = java.time.Instant.parse(f[3]).toEpochMilli();
            long start = ms - Math.floorMod(ms, 600_000L);
            if (start + 600_000 <= watermark) {
                sums.merge("{" + ts(start) + ", " + ts(start + 600_000) + "}|" + f[1], Double.parseDouble(f[2]), Double::sum);
            }
        }
        List<String> out = new ArrayList<>();
        sums.forEach((k, v) -> out.add(k + "|" + v));
        return out;
    }

    private static String ts(long ms) {
        return Timestamps.formatMicros(ms * 1000).replace('T', ' ').replace("Z", "");
    }

    /** Each broker bounced under two running instances: node 1 stopped cleanly, node 2 killed, node 3 stopped cleanly. */
    @Test
    void aBrokerBouncedUnderRunningInstancesLeavesTheTableExact() throws Exception {
        Workspace ws = new Workspace(dir, spec("bounced", RAW, cluster.bootstrapServers()));
        List<String> expected = new ArrayList<>();
        try (PipelineInstances instances = new PipelineInstances(dir, ws, "bounced", cluster.bootstrapServers())) {
            instances.start("a");
            instances.start("b");
            for (int node = 1; node <= 3; node++) {
                addFiles(ws, 3, 0, expected::addAll);
                if (node == 2) {
                    cluster.kill(node);
                } else {
                    cluster.stop(node);
                }
                addFiles(ws, 3, 0, expected::addAll);
                cluster.start(node);
                instances.assertAlive();
            }
            addFiles(ws, 2, 0, expected::addAll);
            instances.awaitDrained(dir.resolve("out").toString(), false, Duration.ofMinutes(5));
            instances.stopAll();
        }
        assertThat(rawRows()).containsExactlyInAnyOrderElementsOf(expected);
    }

    /** One instance, then three (the partitions spread over them), then one again (they come back): exact. */
    @Test
    void scalingOneToThreeToOneSpreadsThePartitionsAndLeavesTheTableExact() throws Exception {
        Workspace ws = new Workspace(dir, spec("scaled", RAW, cluster.bootstrapServers()));
        List<String> expected = new ArrayList<>();
        try (PipelineInstances instances = new PipelineInstances(dir, ws, "scaled", cluster.bootstrapServers())) {
            instances.start("a");
            addFiles(ws, 4, 0, expected::addAll);
            instances.awaitDrained(dir.resolve("out").toString(), false, Duration.ofMinutes(3));
            assertThat(instances.owners("sink")).containsOnlyKeys("a");

            instances.start("b");
            instances.start("c");
            addFiles(ws, 4, 0, expected::addAll);
            await("the sink's six partitions spread over the three instances").atMost(Duration.ofMinutes(2))
                    .pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
                        instances.assertAlive();
                        Map<String, List<Integer>> owners = instances.owners("sink");
                        assertThat(owners).containsOnlyKeys("a", "b", "c");
                        assertThat(owners.values()).allSatisfy(p -> assertThat(p).hasSize(2));
                    });
            addFiles(ws, 4, 0, expected::addAll);
            instances.awaitDrained(dir.resolve("out").toString(), false, Duration.ofMinutes(3));
            // checkpoint show names the owners, as the groups say: one active ingest, two sink partitions each
            String show = ws.tributary("checkpoint show").assertOk().out();
            assertThat(show).contains("instances  (who owns what now").containsPattern("ingest lease:( [abc] \\((active|standby)\\)){3}")
                    .containsPattern("sink:( [abc] partitions \\[\\d, \\d\\]){3}");
            assertThat(show.split("\\(active\\)", -1)).as("one active ingest in:\n%s", show).hasSize(2);
            // each instance's /instance says what it owns: one runs the ingest, each two sink partitions
            int active = 0;
            for (String i : List.of("a", "b", "c")) {
                com.fasterxml.jackson.databind.JsonNode own = new com.fasterxml.jackson.databind.ObjectMapper().readTree(instances.http(i, "/instance"));
                assertThat(own.path("instance").asText()).isEqualTo(i);
                assertThat(own.path("stages").path("scaled/sink").path("partitions")).hasSize(2);
                active += "active".equals(own.path("stages").path("scaled/ingest").path("role").asText()) ? 1 : 0;
            }
            assertThat(active).as("instances that run the ingest").isEqualTo(1);

            instances.stopAndCheck("b");
            instances.stopAndCheck("c");
            addFiles(ws, 4, 0, expected::addAll);
            await("a owns every partition again").atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(500))
                    .untilAsserted(() -> assertThat(instances.owners("sink")).containsOnlyKeys("a")
                            .allSatisfy((i, p) -> assertThat(p).containsExactly(0, 1, 2, 3, 4, 5)));
            instances.awaitDrained(dir.resolve("out").toString(), false, Duration.ofMinutes(3));
            instances.stopAll();
        }
        assertThat(rawRows()).containsExactlyInAnyOrderElementsOf(expected);
    }

    /**
     * Failover, measured: the instance that runs the ingest SIGKILLed, then one that runs only
     * sink partitions; each time a file is added at the kill, and the time until its rows are in
     * the table is the failover (session timeout, rebalance, the new owner's start included).
     * Upsert keys spread a file's rows over every partition. Printed; the test checks exactness.
     * A measurement: {@link InstancesSoakTest#failoverFiveRounds} runs it (the kill loops above
     * take the ingest's instance too).
     */
    void failoverAfterAKillIsMeasuredAndTheTableIsExact() throws Exception {
        Workspace ws = new Workspace(dir, spec("failover", UPSERT, cluster.bootstrapServers()));
        Map<Integer, String> lastById = new TreeMap<>();
        java.util.function.Consumer<List<String>> expected = rows -> rows.forEach(r -> {
            String[] f = r.split("\\|");
            int key = Integer.parseInt(f[0]) % 997;
            lastById.put(key, key + "|" + f[1] + "|" + f[2] + "|" + f[3]);
        });
        List<Long> ingest = new ArrayList<>();
        List<Long> sinkOnly = new ArrayList<>();
        String table = dir.resolve("out").toString();
        try (PipelineInstances instances = new PipelineInstances(dir, ws, "failover", cluster.bootstrapServers())) {
            for (String i : List.of("a", "b", "c")) {
                instances.start(i);
            }
            addFiles(ws, 2, 997, expected);
            instances.awaitDrained(table, false, Duration.ofMinutes(3));
            for (int round = 0; round < Integer.getInteger("tributary.failover.rounds", 1); round++) {
                String active = instances.activeIngest();
                assertThat(active).as("an instance runs the ingest").isNotNull();
                ingest.add(killAndTime(instances, ws, active, expected));
                instances.awaitDrained(table, false, Duration.ofMinutes(3)); // the restarted instance is back in the groups
                String holder = instances.activeIngest();
                String other = instances.owners("sink").entrySet().stream()
                        .filter(e -> !e.getKey().equals(holder) && !e.getValue().isEmpty())
                        .map(Map.Entry::getKey).findFirst().orElseThrow();
                sinkOnly.add(killAndTime(instances, ws, other, expected));
            }
            instances.awaitDrained(table, false, Duration.ofMinutes(3));
            System.out.println("failover (ms from SIGKILL to the next file's rows in the table): instance running the ingest "
                    + summary(ingest) + "; instance running only sink partitions " + summary(sinkOnly));
            instances.stopAll();
        }
        assertThat(rawRows()).containsExactlyInAnyOrderElementsOf(lastById.values());
    }

    /** Kills {@code victim}, adds a file at once, waits for its rows in the table; the milliseconds that took. Starts it again. */
    private long killAndTime(PipelineInstances instances, Workspace ws, String victim, java.util.function.Consumer<List<String>> expected)
            throws Exception {
        instances.kill(victim);
        long t0 = System.nanoTime();
        int firstId = id + 1;
        addFiles(ws, 1, 997, expected);
        int lastId = id;
        await("the rows of the file added at the kill of " + victim).atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(100))
                .until(() -> {
                    instances.assertAlive();
                    return tableHasIds(firstId, lastId);
                });
        long ms = (System.nanoTime() - t0) / 1_000_000;
        instances.start(victim);
        return ms;
    }

    /** Whether the (upsert) table holds rows ids firstId..lastId wrote: their keys with the user and amount of that id. */
    private boolean tableHasIds(int firstId, int lastId) {
        String table = dir.resolve("out").toString();
        Map<Integer, String> byKey = new TreeMap<>();
        for (Object[] r : DeltaTables.readRows(table)) {
            byKey.put((Integer) r[0], r[1] + "|" + r[2]);
        }
        for (int i = firstId; i <= lastId; i++) {
            String want = "u" + (i % 5) + "|" + (double) (i % 17);
            if (!want.equals(byKey.get(i % 997))) {
                return false;
            }
        }
        return true;
    }

    static String summary(List<Long> ms) {
        List<Long> sorted = new ArrayList<>(ms);
        Collections.sort(sorted);
        return sorted.isEmpty() ? "n/a" : "median " + sorted.get(sorted.size() / 2) + " of " + sorted;
    }
}
