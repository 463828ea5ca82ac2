package io.tributary.sink.internal;

import io.delta.kernel.engine.Engine;
import io.tributary.delta.KernelEngines;
import io.tributary.schema.Schema;
import io.tributary.sink.SinkChanges;
import io.tributary.sink.SinkConfig;
import io.tributary.sink.SinkMode;
import io.tributary.sink.SinkOffsets;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What {@link DeletionVectorBench} and {@link HistoryUpsertBench} share: their arguments, the sink they write through,
 * one batch's write measured (wall, process CPU, the batch thread's CPU) and the medians of a run.
 */
final class BenchBatches {
    static final String APP = "bench";
    /** The rows a load writes in one batch (ascending key ranges: each only inserts). */
    static final int LOAD_CHUNK = 1_000_000;
    /** The {@code ts} of the row of id 0 (microseconds); the row of load index {@code i} has {@code TS + i}. */
    static final long TS = 1_700_000_000_000_000L;

    private BenchBatches() {
    }

    /** {@code [dir] [batches] [rows] [rounds] [sides]}, with the defaults {@code defaultDir 3 1000000 2 dv,cow}. */
    record Args(Path dir, int batches, int rows, int rounds, List<String> sides) {
        static Args parse(String[] args, String defaultDir) {
            return new Args(Path.of(args.length > 0 ? args[0] : defaultDir), args.length > 1 ? Integer.parseInt(args[1]) : 3,
                    args.length > 2 ? Integer.parseInt(args[2]) : 1_000_000, args.length > 3 ? Integer.parseInt(args[3]) : 2,
                    List.of((args.length > 4 ? args[4] : "dv,cow").split(",")));
        }
    }

    /** An upsert of {@code schema}'s rows keyed by {@code keys} into {@code table}, created with {@code properties}. */
    static WriteMode mode(Path table, Schema schema, List<String> keys, SinkChanges changes, Map<String, String> properties) {
        Engine engine = KernelEngines.create();
        SinkConfig c = SinkConfig.builder(table.toString(), schema, "events", APP, "bench").mode(SinkMode.UPSERT, keys, null)
                .changes(changes).build();
        return WriteMode.forConfig(c, new DeltaTableWriter(engine, c.tablePath(), c.tableSchema(), properties));
    }

    /** Writes {@code rows} as batch {@code batchId} of partition 0 (offsets {@code batchId} to {@code batchId + 1}). */
    static CommitResult write(WriteMode mode, long batchId, List<Object[]> rows) {
        return mode.write(APP, batchId, new TopicBatch(rows, Map.of(), Map.of(), 0, null),
                batchId == 0 ? Map.of() : Map.of(0, batchId), new SinkOffsets(APP, "events", null, Map.of(0, batchId + 1)));
    }

    /** One batch's write and what it cost: seconds of wall time, of the process's CPU and of the batch thread's CPU. */
    record Measured(CommitResult result, double wall, double cpu, double thread) {
    }

    /** Runs {@code batch} after a collection (the garbage of the load and of the batch before is not this batch's). */
    static Measured measure(Supplier<CommitResult> batch) {
        System.gc();
        long c0 = cpuNanos();
        long m0 = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        CommitResult r = batch.get();
        return new Measured(r, (System.nanoTime() - t0) / 1e9, (cpuNanos() - c0) / 1e9,
                (ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - m0) / 1e9);
    }

    /** The medians of a run's batches: wall, process CPU, batch thread CPU. */
    static Measured medians(List<Measured> batches) {
        return new Measured(null, median(batches.stream().mapToDouble(Measured::wall).toArray()),
                median(batches.stream().mapToDouble(Measured::cpu).toArray()), median(batches.stream().mapToDouble(Measured::thread).toArray()));
    }

    private static double median(double[] values) {
        Arrays.sort(values);
        return values[values.length / 2];
    }

    /** The metric {@code name} of a commit, or 0 when it has none (a copy-on-write commit has no deletion vector counts). */
    static Object metric(CommitResult r, String name) {
        return r.metrics().getOrDefault(name, 0L);
    }

    private static long cpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }
}
