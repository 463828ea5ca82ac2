package io.tributary.sink.internal;

import io.delta.kernel.engine.Engine;
import io.tributary.delta.KernelEngines;
import io.tributary.schema.Schema;
import io.tributary.sink.SinkConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Change-data benchmark (a main, not a test): batches of 10,000 changes over any key of a
 * 200,000-row table, through mode upsert as it is (keys only) and with sequenceBy, deleteWhen
 * (30% deletes) and exceptColumns. Prints each batch's wall time and the medians.
 * Usage: {@code ChangeUpsertBench [dir] [batches]}.
 */
public final class ChangeUpsertBench {
    private static final Schema SCHEMA = Schema.parse("id INT, name STRING, op STRING, lsn BIGINT");
    private static final int ROWS = 200_000;
    private static final int CHANGES = 10_000;

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args.length > 0 ? args[0] : "target/change-upsert-bench");
        int batches = args.length > 1 ? Integer.parseInt(args[1]) : 7;
        Map<String, String> upsert = Map.of("mode", "upsert", "keys", "id");
        Map<String, String> cdc = Map.of("mode", "upsert", "keys", "id", "sequenceBy", "lsn", "deleteWhen", "op = d",
                "exceptColumns", "op");
        for (int round = 0; round < 2; round++) { // the second round's figures count: the JIT has warmed up
            double a = run(dir.resolve("upsert-" + round), upsert, batches, 0);
            double b = run(dir.resolve("cdc-" + round), cdc, batches, 30);
            System.out.printf("round %d: median batch upsert %.3f s, change data with 30%% deletes %.3f s (%.2fx)%n", round, a, b, b / a);
        }
    }

    private static double run(Path table, Map<String, String> settings, int batches, int deletePercent) {
        Engine engine = KernelEngines.create();
        SinkConfig c = ChangeUpsertTest.config(table, new HashMap<>(settings));
        WriteMode mode = WriteMode.forConfig(c, new DeltaTableWriter(engine, c.tablePath(), c.tableSchema(), Map.of()));
        List<Object[]> seed = new ArrayList<>(ROWS);
        for (int id = 0; id < ROWS; id++) {
            seed.add(new Object[] {id, "n" + id, "i", (long) id});
        }
        UpsertTables.write(mode, 0, UpsertTables.batchOf(seed));
        Random rnd = new Random(7);
        long lsn = ROWS;
        double[] seconds = new double[batches];
        for (int b = 0; b < batches; b++) {
            List<Object[]> changes = new ArrayList<>(CHANGES);
            for (int i = 0; i < CHANGES; i++) {
                changes.add(new Object[] {rnd.nextInt(ROWS), "m" + i, rnd.nextInt(100) < deletePercent ? "d" : "u", ++lsn});
            }
            long t0 = System.nanoTime();
            UpsertTables.write(mode, b + 1, UpsertTables.batchOf(changes));
            seconds[b] = (System.nanoTime() - t0) / 1e9;
        }
        System.out.println("  " + table.getFileName() + ": " + Arrays.toString(seconds));
        Arrays.sort(seconds);
        return seconds[batches / 2];
    }
}
