package io.tributary.sink.internal;

import io.delta.kernel.engine.Engine;
import io.tributary.delta.KernelEngines;
import io.tributary.schema.Schema;
import io.tributary.sink.SinkConfig;
import io.tributary.sink.SinkMode;
import io.tributary.sink.SinkOffsets;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

/**
 * Upsert benchmark (a main, not a test): the sink's write path from in-memory batches (Kafka
 * reading excluded). Shapes: 1M input rows with ~30% repeated ids (100 "files" of 10k rows)
 * upserted in one batch and in 10 batches; a 100-key batch into a 1M-row table (keys clustered
 * in 1% of the id range, and spread over all of it). Medians of 3. Usage: {@code UpsertBench [dir]}.
 */
public final class UpsertBench {
    private static final Schema SCHEMA = Schema.parse("id INT, user STRING, amt DOUBLE, ts TIMESTAMP");
    private static final String APP = "bench";
    private static final int ROWS = 1_000_000;

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args.length > 0 ? args[0] : "target/upsert-bench");
        List<Object[]> input = input(new Random(42));
        report("1M rows, 1 batch", run(dir, 3, i -> new double[][] {oneShape(dir.resolve("one-" + i), input, 1)}));
        report("1M rows, 10 batches", run(dir, 3, i -> new double[][] {oneShape(dir.resolve("ten-" + i), input, 10)}));
        Path big = dir.resolve("big");
        List<Object[]> distinct = new ArrayList<>();
        for (int id = 0; id < ROWS; id++) {
            distinct.add(new Object[] {id, "u" + (id % 1000), id * 0.5, 1_700_000_000_000_000L + id});
        }
        write(mode(big), 0, distinct);
        long[] batch = {1};
        report("100 keys (1% range) into 1M rows", run(dir, 3, i -> new double[][] {smallBatch(big, batch, true, i)}));
        report("100 keys (any id) into 1M rows", run(dir, 3, i -> new double[][] {smallBatch(big, batch, false, i)}));
    }

    /** 1M rows: 70% new ids in order, 30% an earlier id again. */
    static List<Object[]> input(Random rnd) {
        List<Object[]> rows = new ArrayList<>(ROWS);
        int next = 0;
        for (int i = 0; i < ROWS; i++) {
            int id = next > 0 && rnd.nextInt(100) < 30 ? rnd.nextInt(next) : next++;
            rows.add(new Object[] {id, "u" + rnd.nextInt(1000), rnd.nextDouble() * 100, 1_700_000_000_000_000L + i * 1000L});
        }
        return rows;
    }

    interface Run {
        double[][] once(int i) throws Exception;
    }

    /** {seconds, files removed per batch (max), peak heap MiB} per run. */
    private static List<double[]> run(Path dir, int times, Run r) throws Exception {
        List<double[]> out = new ArrayList<>();
        for (int i = 0; i < times; i++) {
            System.gc();
            resetPeaks();
            long cpu0 = cpuNanos();
            double[] m = Arrays.copyOf(r.once(i)[0], 4);
            m[2] = peakHeapMiB();
            m[3] = (cpuNanos() - cpu0) / 1e9;
            out.add(m);
            System.out.printf("  run %d: %.2f s wall, %.2f s process CPU, files rewritten/batch %.0f, peak heap %.0f MiB%n", i, m[0], m[3], m[1], m[2]);
        }
        return out;
    }

    private static double[] oneShape(Path table, List<Object[]> input, int batches) {
        long t0 = System.nanoTime();
        WriteMode upsert = mode(table);
        int per = input.size() / batches;
        double maxRemoved = 0;
        for (int b = 0; b < batches; b++) {
            CommitResult r = write(upsert, b, new ArrayList<>(input.subList(b * per, (b + 1) * per)));
            maxRemoved = Math.max(maxRemoved, ((Number) r.metrics().get("numTargetFilesRemoved")).doubleValue());
        }
        double s = (System.nanoTime() - t0) / 1e9;
        System.out.printf("  %s: %d rows in table, %.0f rows/s%n", table.getFileName(), io.tributary.sink.DeltaTables.readRows(table.toString()).size(),
                input.size() / s);
        return new double[] {s, maxRemoved, 0};
    }

    private static double[] smallBatch(Path table, long[] batch, boolean clustered, int i) {
        Random rnd = new Random(7 + i);
        int base = rnd.nextInt(ROWS - ROWS / 100);
        List<Object[]> rows = new ArrayList<>();
        for (int k = 0; k < 100; k++) {
            int id = clustered ? base + rnd.nextInt(ROWS / 100) : rnd.nextInt(ROWS);
            rows.add(new Object[] {id, "upd", -1.0, 0L});
        }
        long t0 = System.nanoTime();
        CommitResult r = write(mode(table), batch[0]++, rows);
        double s = (System.nanoTime() - t0) / 1e9;
        System.out.printf("    %s%n", r.metrics());
        return new double[] {s, ((Number) r.metrics().get("numTargetFilesRemoved")).doubleValue(), 0};
    }

    private static WriteMode mode(Path table) {
        Engine engine = KernelEngines.create();
        SinkConfig c = SinkConfig.builder(table.toString(), SCHEMA, "events", APP, "bench").mode(SinkMode.UPSERT, List.of("id"), null).build();
        return WriteMode.forConfig(c, new DeltaTableWriter(engine, c.tablePath(), SCHEMA, Map.of()));
    }

    private static CommitResult write(WriteMode mode, long batchId, List<Object[]> rows) {
        return mode.write(APP, batchId, new TopicBatch(rows, Map.of(), Map.of(), 0, null),
                batchId == 0 ? Map.of() : Map.of(0, batchId), new SinkOffsets(APP, "events", null, Map.of(0, batchId + 1)));
    }

    private static void report(String name, List<double[]> runs) {
        double[] secs = runs.stream().mapToDouble(m -> m[0]).sorted().toArray();
        double[] heap = runs.stream().mapToDouble(m -> m[2]).sorted().toArray();
        double[] files = runs.stream().mapToDouble(m -> m[1]).sorted().toArray();
        double[] cpu = runs.stream().mapToDouble(m -> m[3]).sorted().toArray();
        System.out.printf("RESULT %s: median %.2f s wall (%.2f s process CPU), files rewritten per batch (max) %.0f, median peak heap %.0f MiB (runs %s)%n",
                name, secs[1], cpu[1], files[1], heap[1], Arrays.toString(secs));
    }

    private static long cpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    private static void resetPeaks() {
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            p.resetPeakUsage();
        }
    }

    private static double peakHeapMiB() {
        long sum = 0;
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getType() == MemoryType.HEAP) {
                sum += p.getPeakUsage().getUsed();
            }
        }
        return sum / 1024.0 / 1024.0;
    }

    static void delete(Path p) throws IOException {
        if (Files.exists(p)) {
            try (Stream<Path> s = Files.walk(p)) {
                for (Path x : s.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(x);
                }
            }
        }
    }
}
