package io.tributary.sink.internal;

import io.delta.kernel.engine.Engine;
import io.tributary.delta.KernelEngines;
import io.tributary.schema.Schema;
import io.tributary.sink.DeltaTables;
import io.tributary.sink.SinkChanges;
import io.tributary.sink.SinkConfig;
import io.tributary.sink.SinkMode;
import io.tributary.sink.SinkOffsets;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Deletion vectors against copy-on-write (a main, not a test): a table of ROWS rows (files of 100,000 rows, as the
 * upsert writes them; even ids 0, 2, 4...) takes batches that change 1% of its keys, spread over all of it: half
 * updates of existing keys, a tenth deletes of existing keys ({@code deleteWhen: "op = 'd'"}), the rest new keys (odd
 * ids), with {@code delta.enableDeletionVectors} on and off. Per batch: wall and process CPU seconds, rows copied,
 * files removed; at the end the table's row count against the keys the batches leave. {@code compat/spark}'s
 * {@code SparkDvBench} makes the same table and batches for Spark's MERGE.
 * Usage: {@code DeletionVectorBench [dir] [batches] [rows] [rounds] [sides]} (defaults {@code target/dv-bench 3 1000000 2
 * dv,cow}: the first round warms the JVM; {@code sides}, run in the order given each round: {@code dv}, {@code cow}, and
 * variants of {@code dv}: {@code dv-2keys} keyed by {@code id} and {@code ts} (an INT and a TIMESTAMP; a change's
 * {@code ts} is then its row's), {@code dv-skey} keyed by the STRING {@code user} ({@code "k"} and the id), {@code dv-cdf}
 * with {@code delta.enableChangeDataFeed} on, {@code dv-2keys-cdf} and {@code dv-skey-cdf} both).
 */
public final class DeletionVectorBench {
    private static final Schema SCHEMA = Schema.parse("id INT, user STRING, amt DOUBLE, ts TIMESTAMP, op STRING");
    private static final String APP = "bench";
    private static final int LOAD_CHUNK = 1_000_000;
    private static final long TS = 1_700_000_000_000_000L;

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args.length > 0 ? args[0] : "target/dv-bench");
        int batches = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        int rows = args.length > 2 ? Integer.parseInt(args[2]) : 1_000_000;
        int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 2;
        List<String> sides = List.of((args.length > 4 ? args[4] : "dv,cow").split(","));
        UpsertBench.delete(dir);
        for (int round = 0; round < rounds; round++) {
            for (String side : sides) {
                run(dir, side, rows, batches);
            }
        }
    }

    private static void run(Path dir, String side, int rows, int batches) {
        boolean dv = side.startsWith("dv");
        boolean twoKeys = side.contains("2keys");
        boolean stringKey = side.contains("skey");
        Path table = dir.resolve(side + "-" + System.nanoTime());
        WriteMode mode = mode(table, dv, twoKeys ? List.of("id", "ts") : stringKey ? List.of("user") : List.of("id"), side.contains("cdf"));
        BitSet keys = new BitSet();
        long batchId = 0;
        long l0 = System.nanoTime();
        for (int from = 0; from < rows; from += LOAD_CHUNK) { // ascending key ranges: each chunk only inserts
            List<Object[]> chunk = new ArrayList<>();
            for (int id = from; id < Math.min(rows, from + LOAD_CHUNK); id++) {
                chunk.add(new Object[] {id * 2, stringKey ? "k" + id * 2 : "u" + (id % 1000), id * 0.5, TS + id, "i"});
                keys.set(id * 2);
            }
            write(mode, batchId++, chunk);
        }
        System.out.printf("  %s: %,d rows loaded in %.1f s wall%n", side, rows, (System.nanoTime() - l0) / 1e9);
        double[] cpu = new double[batches];
        double[] wall = new double[batches];
        for (int b = 1; b <= batches; b++) {
            List<Object[]> changes = batch(new Random(b), rows, twoKeys);
            if (stringKey) {
                changes.forEach(c -> c[1] = "k" + c[0]);
            }
            for (Object[] c : changes) {
                keys.set((Integer) c[0], !"d".equals(c[4]));
            }
            System.gc(); // the garbage of the load and of the batch before is not this batch's
            long c0 = cpuNanos();
            long m0 = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
            long t0 = System.nanoTime();
            CommitResult r = write(mode, batchId++, changes);
            wall[b - 1] = (System.nanoTime() - t0) / 1e9;
            cpu[b - 1] = (cpuNanos() - c0) / 1e9;
            double main = (ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - m0) / 1e9;
            System.out.printf("  %s batch %d: %.2f s wall, %.2f s CPU (%.2f s of it the batch's own thread, the rest GC and JIT); %,d keys: rows updated %s, deleted %s, inserted %s, copied %s;"
                    + " files removed %s, added %s, deletion vectors %s/%s%n", side, b, wall[b - 1], cpu[b - 1], main, changes.size(),
                    r.metrics().get("numTargetRowsUpdated"), r.metrics().get("numTargetRowsDeleted"), r.metrics().get("numTargetRowsInserted"),
                    r.metrics().get("numTargetRowsCopied"), r.metrics().get("numTargetFilesRemoved"), r.metrics().get("numTargetFilesAdded"),
                    r.metrics().getOrDefault("numTargetDeletionVectorsAdded", 0L), r.metrics().getOrDefault("numTargetDeletionVectorsUpdated", 0L));
        }
        Arrays.sort(cpu);
        Arrays.sort(wall);
        int count = DeltaTables.readRows(table.toString()).size();
        System.out.printf("RESULT %s: 1%% of keys into %,d rows, median per batch %.2f s CPU, %.2f s wall; table %,d rows (%s)%n",
                dv ? "deletion vectors" + side.substring(2) : "copy-on-write", rows, cpu[batches / 2], wall[batches / 2], count,
                count == keys.cardinality() ? "as expected" : "EXPECTED " + keys.cardinality());
    }

    /**
     * rows / 100 changes (the last per key kept): half updates of existing keys (even ids), a tenth deletes of existing
     * keys, the rest new keys (odd ids), spread over the whole key range. {@code SparkDvBench} makes the same.
     */
    static List<Object[]> batch(Random rnd, int rows) {
        return batch(rnd, rows, false);
    }

    /** As above; with {@code twoKeys} each change's {@code ts} is the one its key's row was loaded with (new keys: their own). */
    static List<Object[]> batch(Random rnd, int rows, boolean twoKeys) {
        Map<Integer, Object[]> changes = new LinkedHashMap<>();
        for (int k = 0; k < rows / 100; k++) {
            int kind = k % 10;
            int id = rnd.nextInt(rows) * 2 + (kind >= 6 ? 1 : 0);
            changes.remove(id);
            changes.put(id, new Object[] {id, "upd", -1.0, twoKeys ? TS + id / 2 : 0L, kind == 5 ? "d" : "u"});
        }
        return new ArrayList<>(changes.values());
    }

    private static WriteMode mode(Path table, boolean dv, List<String> keys, boolean cdf) {
        Engine engine = KernelEngines.create();
        SinkConfig c = SinkConfig.builder(table.toString(), SCHEMA, "events", APP, "bench")
                .mode(SinkMode.UPSERT, keys, null)
                .changes(new SinkChanges(null, "op = 'd'", List.of("op"), SinkChanges.DEFAULT_DELETE_RETENTION)).build();
        Map<String, String> properties = new java.util.HashMap<>();
        if (dv) {
            properties.put("delta.enableDeletionVectors", "true");
        }
        if (cdf) {
            properties.put("delta.enableChangeDataFeed", "true");
        }
        return WriteMode.forConfig(c, new DeltaTableWriter(engine, c.tablePath(), c.tableSchema(), properties));
    }

    private static CommitResult write(WriteMode mode, long batchId, List<Object[]> rows) {
        return mode.write(APP, batchId, new TopicBatch(rows, Map.of(), Map.of(), 0, null),
                batchId == 0 ? Map.of() : Map.of(0, batchId), new SinkOffsets(APP, "events", null, Map.of(0, batchId + 1)));
    }

    private static long cpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }
}
