package io.tributary.sink.internal;

import io.delta.kernel.engine.Engine;
import io.tributary.delta.KernelEngines;
import io.tributary.schema.Schema;
import io.tributary.sink.DeltaTables;
import io.tributary.sink.SinkConfig;
import io.tributary.sink.SinkMode;
import io.tributary.sink.SinkOffsets;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Deletion vectors against copy-on-write (a main, not a test): a 1M-row table (10 files of 100k rows, as the
 * upsert writes them) takes batches that upsert 1% of its keys, spread over all of it (half updates of
 * existing keys, half new keys), with {@code delta.enableDeletionVectors} on and off. Per batch: wall and
 * process CPU seconds, rows written, files removed. Usage: {@code DeletionVectorBench [dir] [batches]}.
 */
public final class DeletionVectorBench {
    private static final Schema SCHEMA = Schema.parse("id INT, user STRING, amt DOUBLE, ts TIMESTAMP");
    private static final String APP = "bench";
    private static final int ROWS = 1_000_000;

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args.length > 0 ? args[0] : "target/dv-bench");
        int batches = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        UpsertBench.delete(dir);
        List<Object[]> distinct = new ArrayList<>(ROWS);
        for (int id = 0; id < ROWS; id++) {
            distinct.add(new Object[] {id * 2, "u" + (id % 1000), id * 0.5, 1_700_000_000_000_000L + id});
        }
        for (boolean dv : new boolean[] {false, true, false, true}) { // each twice: the first round warms the JVM
            Path table = dir.resolve((dv ? "dv-" : "cow-") + System.nanoTime());
            WriteMode mode = mode(table, dv);
            write(mode, 0, new ArrayList<>(distinct));
            double[] cpu = new double[batches];
            double[] wall = new double[batches];
            for (int b = 1; b <= batches; b++) {
                List<Object[]> rows = batch(new Random(b));
                long c0 = cpuNanos();
                long t0 = System.nanoTime();
                CommitResult r = write(mode, b, rows);
                wall[b - 1] = (System.nanoTime() - t0) / 1e9;
                cpu[b - 1] = (cpuNanos() - c0) / 1e9;
                System.out.printf("  %s batch %d: %.2f s wall, %.2f s CPU; rows copied %s, files removed %s, added %s, deletion vectors %s/%s%n",
                        dv ? "dv " : "cow", b, wall[b - 1], cpu[b - 1], r.metrics().get("numTargetRowsCopied"),
                        r.metrics().get("numTargetFilesRemoved"), r.metrics().get("numTargetFilesAdded"),
                        r.metrics().getOrDefault("numTargetDeletionVectorsAdded", 0L), r.metrics().getOrDefault("numTargetDeletionVectorsUpdated", 0L));
            }
            Arrays.sort(cpu);
            Arrays.sort(wall);
            System.out.printf("RESULT %s: 1%% of keys into 1M rows, median per batch %.2f s CPU, %.2f s wall; table %d rows%n",
                    dv ? "deletion vectors" : "copy-on-write", cpu[batches / 2], wall[batches / 2],
                    DeltaTables.readRows(table.toString()).size());
        }
    }

    /** 10,000 keys: 5,000 existing (even ids) updated, 5,000 new (odd ids), spread over the whole key range. */
    private static List<Object[]> batch(Random rnd) {
        List<Object[]> rows = new ArrayList<>(ROWS / 100);
        for (int k = 0; k < ROWS / 100; k++) {
            int id = rnd.nextInt(ROWS) * 2 + (k % 2);
            rows.add(new Object[] {id, "upd", -1.0, 0L});
        }
        return rows;
    }

    private static WriteMode mode(Path table, boolean dv) {
        Engine engine = KernelEngines.create();
        SinkConfig c = SinkConfig.builder(table.toString(), SCHEMA, "events", APP, "bench").mode(SinkMode.UPSERT, List.of("id"), null).build();
        Map<String, String> properties = dv ? Map.of("delta.enableDeletionVectors", "true") : Map.of();
        return WriteMode.forConfig(c, new DeltaTableWriter(engine, c.tablePath(), SCHEMA, properties));
    }

    private static CommitResult write(WriteMode mode, long batchId, List<Object[]> rows) {
        return mode.write(APP, batchId, new TopicBatch(rows, Map.of(), Map.of(), 0, null),
                batchId == 0 ? Map.of() : Map.of(0, batchId), new SinkOffsets(APP, "events", null, Map.of(0, batchId + 1)));
    }

    private static long cpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }
}
