package io.tributary.sink.maintenance;

import io.delta.kernel.Snapshot;
import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.engine.FileSystemClient;
import io.delta.kernel.engine.MetricsReporter;
import io.delta.kernel.metrics.MetricsReport;
import io.delta.kernel.metrics.SnapshotReport;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.FileStatus;
import io.tributary.delta.ForwardingEngine;
import io.tributary.delta.KernelEngines;
import io.tributary.sink.SinkOffsets;
import io.tributary.sink.internal.TableReader;
import io.tributary.sink.internal.TableSnapshots;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Benchmark, not a test: where Kernel's table open goes. {@code make DIR N...} writes
 * {@code DIR/tN} with N one-file sink commits (skipped if it exists); {@code append TABLE N} adds N
 * more; {@code age TABLE DAYS} moves every file's time back (the log clean-up goes by it); {@code optimize
 * TABLE} compacts it; {@code list DIR FILES} times listing a synthetic log of that many files, 20 of
 * them after the checkpoint; {@code open [--reps R]
 * [--read] TABLE...} opens each table R times (after a JIT warm-up of as many opens of every table, then R/5 more), each with a new engine, and prints
 * medians: the open (latest snapshot + schema) with a new engine (its creation included), as a command does, with Kernel's
 * own split (log segment = listing, protocol and metadata from the {@code .crc}); the same with one
 * engine kept, as the sink and delta-source keep theirs; the sink's check before a commit (+ txn
 * version + offsets domain); the bare listing of {@code _delta_log} from the checkpoint through
 * Hadoop's LogStore (Kernel's default engine) and through Tributary's engine; optionally reading
 * every row.
 * Run: {@code java -cp <test classpath> io.tributary.sink.maintenance.OpenBench make|open ...}.
 */
public final class OpenBench {
    public static void main(String[] args) throws Exception {
        if (args.length > 1 && args[0].equals("make")) {
            Path root = Path.of(args[1]);
            for (int i = 2; i < args.length; i++) {
                int n = Integer.parseInt(args[i]);
                Path table = root.resolve("t" + n);
                if (Files.exists(table)) {
                    continue;
                }
                long t0 = System.nanoTime();
                new TestTables(table.toString(), List.of(), Map.of()).commits(n, 10, 1);
                double s = (System.nanoTime() - t0) / 1e9;
                System.out.printf("%s: %d commits written in %.1f s (%.1f ms/commit)%n", table, n, s, s * 1000 / n);
            }
            return;
        }
        if (args.length == 3 && args[0].equals("append")) {
            new TestTables(args[1], List.of(), Map.of()).commits(Integer.parseInt(args[2]), 10, 1);
            return;
        }
        if (args.length == 3 && args[0].equals("list")) {
            listing(Path.of(args[1]), Integer.parseInt(args[2]));
            return;
        }
        if (args.length == 2 && args[0].equals("optimize")) {
            System.out.println(Optimize.run(args[1], OptimizeOptions.defaults()));
            return;
        }
        if (args.length == 3 && args[0].equals("age")) {
            // as if every file of the table were written that many days earlier (the log clean-up goes by file times)
            long days = Long.parseLong(args[2]);
            try (var files = Files.walk(Path.of(args[1]))) {
                for (Path f : files.filter(Files::isRegularFile).toList()) {
                    Files.setLastModifiedTime(f, java.nio.file.attribute.FileTime.fromMillis(
                            Files.getLastModifiedTime(f).toMillis() - days * 86_400_000L));
                }
            }
            return;
        }
        if (args.length < 2 || !args[0].equals("open")) {
            System.err.println("usage: OpenBench make DIR N... | append TABLE N | age TABLE DAYS | optimize TABLE | list DIR FILES | open [--reps R] [--read] TABLE...");
            System.exit(2);
        }
        int reps = 50;
        boolean read = false;
        List<String> tables = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            switch (args[i]) {
                case "--reps" -> reps = Integer.parseInt(args[++i]);
                case "--read" -> read = true;
                default -> tables.add(args[i]);
            }
        }
        // JIT warm-up on every table first, so that the first table measured is not the coldest
        for (String t : tables) {
            measure(KernelEngines.tablePath(t), reps, read, false);
        }
        for (String t : tables) {
            measure(KernelEngines.tablePath(t), reps, read, true);
        }
    }

    private static void measure(String table, int reps, boolean read, boolean print) throws Exception {
        long logFiles;
        try (var s = Files.list(Path.of(table, "_delta_log"))) {
            logFiles = s.count();
        }
        long cpu0 = cpuNanos();
        long wall0 = System.nanoTime();
        int warm = Math.max(5, reps / 5);
        long[] open = new long[reps];
        long[] openReused = new long[reps];
        long[] sinkOpen = new long[reps];
        long[] segment = new long[reps];
        long[] protocolMetadata = new long[reps];
        long[] listHadoop = new long[reps];
        long[] listOurs = new long[reps];
        long[] readAll = new long[read ? reps : 0];
        Engine reused = KernelEngines.create();
        Engine hadoop = DefaultEngine.create(KernelEngines.configuration());
        Engine ours = KernelEngines.create();
        long rows = 0;
        for (int i = -warm; i < reps; i++) {
            long t0 = System.nanoTime();
            SnapshotReports reports = new SnapshotReports(KernelEngines.create());
            Snapshot s = TableSnapshots.latest(reports, table).orElseThrow();
            s.getSchema();
            long t1 = System.nanoTime();
            Snapshot s1 = TableSnapshots.latest(reused, table).orElseThrow();
            s1.getSchema();
            long t2 = System.nanoTime();
            Snapshot s2 = TableSnapshots.latest(reused, table).orElseThrow();
            s2.getLatestTransactionVersion(reused, TestTables.APP);
            s2.getDomainMetadata(SinkOffsets.DOMAIN);
            long t3 = System.nanoTime();
            long checkpoint = reports.last.getCheckpointVersion().orElse(0L);
            String from = "file:" + Path.of(table, "_delta_log", String.format("%020d", checkpoint));
            int listed = count(hadoop, from);
            long t4 = System.nanoTime();
            count(ours, from);
            long t5 = System.nanoTime();
            if (read) {
                rows = TableReader.readAll(reused, TableSnapshots.latest(reused, table).orElseThrow()).size();
            }
            long t6 = System.nanoTime();
            if (i >= 0) {
                open[i] = t1 - t0;
                openReused[i] = t2 - t1;
                sinkOpen[i] = t3 - t2;
                var m = reports.last.getSnapshotMetrics();
                segment[i] = m.getLoadLogSegmentTotalDurationNs();
                protocolMetadata[i] = m.getLoadProtocolMetadataTotalDurationNs();
                listHadoop[i] = t4 - t3;
                listOurs[i] = t5 - t4;
                if (read) {
                    readAll[i] = t6 - t5;
                }
                if (print && i == reps - 1) {
                    System.out.printf("%s: version %d, checkpoint %d, %d files in _delta_log, %d listed from the checkpoint%n",
                            table, s.getVersion(), checkpoint, logFiles, listed);
                }
            }
        }
        if (!print) {
            return;
        }
        double cpuS = (cpuNanos() - cpu0) / 1e9;
        double wallS = (System.nanoTime() - wall0) / 1e9;
        System.out.printf("  medians of %d (after %d warm-ups), ms: open (new engine) %s [Kernel: log segment %s, protocol+metadata %s] | "
                        + "open (engine reused) %s | sink open (+txn +offsets) %s | listFrom(checkpoint): Hadoop LogStore %s, Tributary %s%s%n",
                reps, warm, med(open), med(segment), med(protocolMetadata), med(openReused), med(sinkOpen), med(listHadoop), med(listOurs),
                read ? " | open+read all " + rows + " rows " + med(readAll) : "");
        System.out.printf("  %.1f s wall, %.1f s CPU (process), load average %.2f%n", wallS, cpuS,
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }

    /** listFrom over a folder of {@code files} empty log files (commit + crc per version), from the 10th-last version. */
    private static void listing(Path dir, int files) throws Exception {
        Path log = Files.createDirectories(dir.resolve("_delta_log"));
        int versions = files / 2;
        for (int v = 0; v < versions; v++) {
            for (String ext : new String[] {".json", ".crc"}) {
                Path f = log.resolve(String.format("%020d", v) + ext);
                if (!Files.exists(f)) {
                    Files.createFile(f);
                }
            }
        }
        String from = "file:" + log.resolve(String.format("%020d", versions - 10));
        Engine hadoop = DefaultEngine.create(KernelEngines.configuration());
        Engine ours = KernelEngines.create();
        int reps = files > 50_000 ? 5 : 30;
        long[] h = new long[reps];
        long[] o = new long[reps];
        for (int i = -2; i < reps; i++) {
            long t0 = System.nanoTime();
            count(hadoop, from);
            long t1 = System.nanoTime();
            count(ours, from);
            long t2 = System.nanoTime();
            if (i >= 0) {
                h[i] = t1 - t0;
                o[i] = t2 - t1;
            }
        }
        System.out.printf("%d files in %s, 20 listed: listFrom medians of %d, ms: Hadoop LogStore %s, Tributary %s (load average %.2f)%n",
                versions * 2, log, reps, med(h), med(o), ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }

    private static int count(Engine engine, String from) throws java.io.IOException {
        int n = 0;
        try (CloseableIterator<FileStatus> it = engine.getFileSystemClient().listFrom(from)) {
            while (it.hasNext()) {
                it.next();
                n++;
            }
        }
        return n;
    }

    private static String med(long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        return String.format("%.2f", sorted[sorted.length / 2] / 1e6);
    }

    private static long cpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    /** An engine that keeps the last {@link SnapshotReport} Kernel reports (Kernel times its own phases of an open). */
    private static final class SnapshotReports extends ForwardingEngine {
        private SnapshotReport last;
        private final MetricsReporter reporter = new MetricsReporter() {
            @Override
            public void report(MetricsReport report) {
                if (report instanceof SnapshotReport s) {
                    last = s;
                }
            }
        };

        SnapshotReports(Engine engine) {
            super(engine);
        }

        @Override
        public List<MetricsReporter> getMetricsReporters() {
            return List.of(reporter);
        }
    }
}
