package io.tributary.sink.internal;

import io.delta.kernel.defaults.engine.DefaultEngine;
import io.tributary.delta.KernelEngines;
import io.tributary.sink.SinkOffsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;

/**
 * Benchmark, not a test: the time of one sink commit (a one-row batch appended with its offsets,
 * the post-commit hooks included, a checkpoint every 10 commits) to a local table, through
 * Tributary's log store and through Delta's default one ({@code HDFSLogStore}), alternated, a new
 * table each round. Run: {@code java -cp <test classpath> io.tributary.sink.internal.CommitBench
 * [commits per round] [rounds]}.
 */
public final class CommitBench {
    public static void main(String[] args) throws Exception {
        int commits = args.length > 0 ? Integer.parseInt(args[0]) : 300;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        Map<String, List<Double>> msPerCommit = new TreeMap<>();
        for (int round = 0; round < rounds; round++) {
            for (String store : List.of("tributary", "delta")) {
                Configuration conf = KernelEngines.configuration();
                if (store.equals("delta")) {
                    conf.set("io.delta.kernel.logStore.file.impl", "io.delta.storage.HDFSLogStore");
                }
                String table = Files.createTempDirectory("commitbench").resolve("t").toString();
                DeltaTableWriter writer = new DeltaTableWriter(DefaultEngine.create(conf), table, CopyOnWriteUpsertTest.SCHEMA, Map.of());
                long t0 = System.nanoTime();
                for (int b = 0; b < commits; b++) {
                    writer.append("bench", b, List.<Object[]>of(CopyOnWriteUpsertTest.r(b, "u", b)), b == 0 ? Map.of() : Map.of(0, (long) b),
                            new SinkOffsets("bench", "events", "topic-id", Map.of(0, b + 1L)));
                }
                double ms = (System.nanoTime() - t0) / 1e6 / commits;
                msPerCommit.computeIfAbsent(store, k -> new ArrayList<>()).add(ms);
                System.out.printf("round %d, %s log store: %.1f ms per commit%n", round + 1, store, ms);
            }
        }
        msPerCommit.forEach((store, ms) -> {
            ms.sort(null);
            System.out.printf("%s log store: median %.1f ms per commit (%d rounds of %d)%n", store, ms.get(ms.size() / 2), ms.size(), commits);
        });
    }
}
