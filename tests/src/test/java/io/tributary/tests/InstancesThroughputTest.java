package io.tributary.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.broker.BrokerCluster;
import io.tributary.sink.DeltaTables;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rows per second of 1, 2 and 3 instances of a raw pipeline with 6 partitions on a cluster of
 * three broker processes, all on this machine, and the CPU each instance used: a measurement,
 * run by the soak profile ({@code ./mvnw -Psoak -pl tests -am verify -Dit.test=InstancesThroughputTest}).
 * The files are dropped at once once every instance has joined; the time runs until the table
 * holds every row. {@code -Dtributary.throughput.files} (30) files of 10,000 rows.
 */
@Tag("soak")
@Timeout(3600)
class InstancesThroughputTest {
    static final int FILES = Integer.getInteger("tributary.throughput.files", 30);
    static final int ROWS_PER_FILE = 10_000;
    static final long CLOCK_TICKS = 100; // /proc/<pid>/stat counts CPU time in these per second (USER_HZ)

    @TempDir
    Path dir;

    @Test
    void rowsPerSecondOfOneTwoAndThreeInstances() throws Exception {
        try (BrokerCluster cluster = BrokerCluster.startProcesses(dir.resolve("kafka"), 3, InstancesTest.LIB)) {
            for (int n = 1; n <= 3; n++) {
                System.out.println(run(cluster, n));
            }
        }
    }

    private String run(BrokerCluster cluster, int instances) throws Exception {
        Path d = dir.resolve("run-" + instances);
        String name = "throughput" + instances;
        Workspace ws = new Workspace(d, InstancesTest.spec(name, InstancesTest.RAW, cluster.bootstrapServers())
                .replace("    maxFilesPerTrigger: 2\n", "    maxFilesPerTrigger: 4\n"));
        String table = d.resolve("out").toString();
        try (PipelineInstances running = new PipelineInstances(d, ws, name, cluster.bootstrapServers())) {
            Map<String, ChildProcess> processes = new TreeMap<>();
            for (int i = 0; i < instances; i++) {
                String id = "i" + i;
                processes.put(id, running.start(id));
            }
            await("every instance joined the sink's group").atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(200))
                    .until(() -> {
                        running.assertAlive();
                        return running.owners("sink").size() == instances;
                    });
            Map<String, Long> cpuBefore = cpu(processes);
            List<Path> staged = stage(d);
            long t0 = System.nanoTime();
            for (Path f : staged) {
                Files.move(f, d.resolve("in").resolve(f.getFileName().toString().substring(1)));
            }
            long total = (long) FILES * ROWS_PER_FILE;
            await("every row in the table").atMost(Duration.ofMinutes(20)).pollInterval(Duration.ofMillis(250)).until(() -> {
                running.assertAlive();
                return DeltaTables.exists(table) && DeltaTables.latestVersion(table) >= 0 && rows(table) >= total;
            });
            double seconds = (System.nanoTime() - t0) / 1e9;
            Map<String, Long> cpuAfter = cpu(processes);
            Map<String, List<Integer>> owners = running.owners("sink");
            running.stopAll();
            assertThat(rows(table)).as("rows in the table").isEqualTo(total);
            StringBuilder cpu = new StringBuilder();
            cpuAfter.forEach((id, ticks) -> cpu.append(' ').append(id).append('=')
                    .append(String.format("%.1f s", (ticks - cpuBefore.get(id)) / (double) CLOCK_TICKS)));
            return String.format("instances %d: %,d rows in %.1f s = %,.0f rows/s; CPU per instance:%s; sink partitions %s",
                    instances, total, seconds, total / seconds, cpu, owners);
        }
    }

    private static long rows(String table) {
        return DeltaTables.readRows(table).size();
    }

    /** The input files written under dot-names (not listed yet), to be renamed in at once. */
    private static List<Path> stage(Path d) throws IOException {
        List<Path> out = new ArrayList<>();
        int id = 0;
        for (int f = 0; f < FILES; f++) {
            StringBuilder lines = new StringBuilder();
            for (int r = 0; r < ROWS_PER_FILE; r++) {
                id++;
                lines.append("{\"id\": ").append(id).append(", \"user\": \"u").append(id % 97).append("\", \"amt\": ").append(id % 1000)
                        .append(".5, \"ts\": \"2026-01-01T10:00:00Z\"}\n");
            }
            Path p = d.resolve("in").resolve(String.format(".f-%05d.json", f));
            Files.writeString(p, lines);
            out.add(p);
        }
        return out;
    }

    /** CPU time (user + system, in clock ticks) of each process so far, from /proc. */
    private static Map<String, Long> cpu(Map<String, ChildProcess> processes) throws IOException {
        Map<String, Long> out = new TreeMap<>();
        for (Map.Entry<String, ChildProcess> e : processes.entrySet()) {
            String stat = Files.readString(Path.of("/proc", String.valueOf(e.getValue().pid()), "stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            out.put(e.getKey(), Long.parseLong(f[11]) + Long.parseLong(f[12])); // utime, stime (fields 14 and 15)
        }
        return out;
    }
}
