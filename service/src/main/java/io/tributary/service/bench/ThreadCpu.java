package io.tributary.service.bench;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The CPU of a running process's threads, read from {@code /proc/<pid>/task/<tid>/stat} while it
 * runs and summed by what the threads do: the JIT's two compilers, the garbage collector, the run
 * loop ({@code main}), the sink's Parquet writer, the read-ahead, Kafka (the embedded broker and the
 * clients), the rest. On a machine shared with other work the whole process's CPU varies by tens of
 * percent from run to run; a thread's share tells which part of a run a change moved. A thread's CPU
 * is the last sample of it, so each thread's last moments before it ends (up to a sampling interval)
 * are not counted.
 */
final class ThreadCpu {
    private static final long CLOCK_TICKS = 100; // USER_HZ on Linux

    /** Thread id to {name, ticks} as last read. */
    private final Map<String, Object[]> last = new HashMap<>();
    private final Path tasks;

    ThreadCpu(Path proc) {
        this.tasks = proc.resolve("task");
    }

    /** Reads every thread's CPU so far; the process may be gone already. */
    void sample() {
        try (DirectoryStream<Path> threads = Files.newDirectoryStream(tasks)) {
            for (Path t : threads) {
                try {
                    String stat = Files.readString(t.resolve("stat"));
                    String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    last.put(t.getFileName().toString(), new Object[] {name, Long.parseLong(f[11]) + Long.parseLong(f[12])});
                } catch (IOException | RuntimeException gone) {
                    // the thread ended between the listing and the read
                }
            }
        } catch (IOException | RuntimeException gone) {
            // the process exited
        }
    }

    /** CPU seconds by group, largest first; groups without CPU left out. */
    Map<String, Double> byGroup() {
        Map<String, Long> ticks = new HashMap<>();
        for (Object[] t : last.values()) {
            ticks.merge(group((String) t[0]), (Long) t[1], Long::sum);
        }
        Map<String, Double> out = new LinkedHashMap<>();
        ticks.entrySet().stream().filter(e -> e.getValue() > 0).sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .forEach(e -> out.put(e.getKey(), e.getValue() / (double) CLOCK_TICKS));
        return out;
    }

    private static final List<String> KAFKA = List.of("data-plane", "kafka", "quorum", "broker-", "controller-", "TxnMarker",
            "ExpirationReap", "transaction-", "group-", "share-", "metrics-meter", "LogDirFailure", "feature-", "raft-");

    /** The group of a thread by its name as {@code /proc} shows it (at most 15 characters). */
    static String group(String name) {
        if (name.startsWith("C1 Compiler")) {
            return "C1";
        }
        if (name.startsWith("C2 Compiler")) {
            return "C2";
        }
        if (name.startsWith("GC Thread") || name.equals("VM Thread")) {
            return "GC";
        }
        if (name.equals("java")) {
            return "main";
        }
        if (name.startsWith("tributary-parqu")) {
            return "parquet";
        }
        if (name.startsWith("tributary-read-")) {
            return "read-ahead";
        }
        if (name.startsWith("ForkJoinPool")) {
            return "pool";
        }
        for (String k : KAFKA) {
            if (name.startsWith(k)) {
                return "kafka";
            }
        }
        return "other";
    }
}
