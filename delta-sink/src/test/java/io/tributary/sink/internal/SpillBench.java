package io.tributary.sink.internal;

import static io.tributary.sink.internal.UpsertTables.APP;
import static io.tributary.sink.internal.UpsertTables.config;
import static io.tributary.sink.internal.UpsertTables.offsets;
import static io.tributary.sink.internal.UpsertTables.start;

import io.delta.kernel.engine.Engine;
import io.tributary.delta.KernelEngines;
import io.tributary.schema.Schema;
import io.tributary.sink.SinkConfig;
import io.tributary.sink.SinkMode;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;

/** The bench's one-batch upsert alone: {@code SpillBench RECORDS SPILL_KEYS}: CPU of collecting and committing a batch into a new table. */
public final class SpillBench {
    public static void main(String[] args) throws Exception {
        int records = Integer.parseInt(args[0]);
        int spillKeys = Integer.parseInt(args[1]);
        Schema schema = Schema.parse("id INT, user STRING, amt DOUBLE, ts TIMESTAMP");
        Path table = Files.createTempDirectory("spill-bench").resolve("t");
        Engine engine = KernelEngines.create();
        SinkConfig c = config(table, schema, SinkMode.UPSERT, List.of("id"), null, 100_000);
        DeltaTableWriter w = new DeltaTableWriter(engine, c.tablePath(), schema, Map.of());
        CopyOnWriteUpsert mode = new CopyOnWriteUpsert(w, new RewriteCommitter(w), new KeyColumns(schema, List.of("id")), null, 100_000, spillKeys);
        var bean = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long cpu0 = bean.getProcessCpuTime();
        KeyedBatch batch = mode.openKeyed(APP, 0, start(0), Math.min(records, 1 << 20)).orElseThrow();
        Random random = new Random(1);
        int next = 0;
        String[] users = new String[10_000];
        for (int i = 0; i < users.length; i++) {
            users[i] = "user" + i;
        }
        for (int i = 0; i < records; i++) {
            int id = next > 0 && random.nextInt(10) < 3 ? random.nextInt(next) : next++;
            batch.add(new RecordOrigin(0, i, 0, null), new Object[] {id, new String(users[random.nextInt(users.length)]), random.nextDouble(),
                    1_700_000_000_000_000L + i});
        }
        long cpu1 = bean.getProcessCpuTime();
        batch.commit(offsets(records), records);
        long cpu2 = bean.getProcessCpuTime();
        System.out.printf("records %,d spillKeys %,d: collect %.1f s CPU, commit %.1f s CPU, total %.1f s; heap used now %d MiB%n", records, spillKeys,
                (cpu1 - cpu0) / 1e9, (cpu2 - cpu1) / 1e9, (cpu2 - cpu0) / 1e9,
                (Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory()) >> 20);
        SpillFolder.delete(table.getParent());
    }
}
