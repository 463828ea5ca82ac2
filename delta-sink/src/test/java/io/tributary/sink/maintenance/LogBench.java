package io.tributary.sink.maintenance;

import io.delta.kernel.Snapshot;
import io.delta.kernel.engine.Engine;
import io.tributary.delta.KernelEngines;
import io.tributary.sink.internal.TableReader;
import io.tributary.sink.internal.TableSnapshots;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Benchmark, not a test: how long a table takes to open (latest snapshot) and read in full through
 * Kernel after N small sink commits, with the sink's checkpoints every 10 commits, and the same
 * after optimize. Run: {@code java -cp <test classpath> io.tributary.sink.maintenance.LogBench [dir] [commits...]}.
 */
public final class LogBench {
    public static void main(String[] args) throws Exception {
        Path root = args.length > 0 ? Path.of(args[0]) : Files.createTempDirectory("logbench");
        int[] sizes = args.length > 1 ? java.util.Arrays.stream(args).skip(1).mapToInt(Integer::parseInt).toArray() : new int[] {10, 1000};
        for (int n : sizes) {
            Path table = root.resolve("t" + n);
            long t0 = System.nanoTime();
            new TestTables(table.toString(), List.of(), Map.of()).commits(n, 10, 1);
            double writeS = (System.nanoTime() - t0) / 1e9;
            long jsons;
            try (var s = Files.list(table.resolve("_delta_log"))) {
                jsons = s.filter(p -> p.getFileName().toString().endsWith(".json")).count();
            }
            System.out.printf("commits %d: written in %.1f s (%.1f ms/commit), %d commit JSONs, last checkpoint %s%n", n, writeS,
                    writeS * 1000 / n, jsons, TableDescription.of(table.toString(), OptimizeOptions.DEFAULT_TARGET_FILE_SIZE).lastCheckpoint());
            System.out.printf("  open+read before optimize: %s%n", measure(table));
            Optimize.run(table.toString(), OptimizeOptions.defaults());
            System.out.printf("  open+read after optimize:  %s%n", measure(table));
        }
    }

    private static String measure(Path table) {
        List<Long> open = new ArrayList<>();
        List<Long> read = new ArrayList<>();
        long rows = 0;
        for (int i = 0; i < 7; i++) {
            Engine engine = KernelEngines.create();
            long t0 = System.nanoTime();
            Snapshot s = TableSnapshots.latest(engine, table.toString()).orElseThrow();
            s.getSchema();
            long t1 = System.nanoTime();
            rows = TableReader.readAll(engine, s).size();
            long t2 = System.nanoTime();
            if (i >= 2) { // two warm-up runs
                open.add((t1 - t0) / 1000);
                read.add((t2 - t0) / 1000);
            }
        }
        open.sort(null);
        read.sort(null);
        return String.format("open median %.1f ms, open+read all %d rows median %.1f ms (of 5)", open.get(2) / 1000.0, rows, read.get(2) / 1000.0);
    }
}
