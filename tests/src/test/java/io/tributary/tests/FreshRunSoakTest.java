package io.tributary.tests;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.schema.Timestamps;
import io.tributary.sink.DeltaTables;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The first run of a new pipeline, over and over on a busy machine: a fresh folder with the
 * quickstart spec and two small files, {@code tributary run} as a process of its own (embedded
 * broker, availableNow), then exit code 0 and exactly the four rows in the table. Races of a
 * pipeline's start (a topic the broker does not serve yet, a transaction marker not yet written)
 * show here one run in many, so this is not part of the default build: {@code -Psoak} runs it.
 * {@code -Dtributary.soak.runs=N} sets the runs (default 30), {@code -Dtributary.soak.busyThreads=N}
 * the threads that keep the CPUs busy meanwhile (default: one per core). The stderr of every
 * failed run is kept in {@code target/soak/} and printed in the failure.
 */
@Tag("soak")
class FreshRunSoakTest {
    static final int RUNS = Integer.getInteger("tributary.soak.runs", 30);
    static final int BUSY_THREADS = Integer.getInteger("tributary.soak.busyThreads", Runtime.getRuntime().availableProcessors());
    static final long RUN_TIMEOUT_S = 600;
    static final Path KEPT = Path.of("target", "soak").toAbsolutePath();

    @TempDir
    Path dir;

    @Test
    void everyFreshTwoFileRunCommitsBothFiles() throws Exception {
        List<String> failures = new ArrayList<>();
        long slowestMs = 0;
        try (Busy busy = new Busy(BUSY_THREADS)) {
            for (int run = 1; run <= RUNS; run++) {
                Path folder = dir.resolve("run-" + run);
                Workspace ws = new Workspace(folder, QuickstartScenarios.SPEC);
                ws.addFile("part-0001.json",
                        "{\"id\": 1, \"user\": \"a\", \"amt\": 5.0, \"ts\": \"2026-01-01T10:01:00Z\"}",
                        "{\"id\": 2, \"user\": \"b\", \"amt\": 7.0, \"ts\": \"2026-01-01T10:05:00Z\"}");
                ws.addFile("part-0002.json",
                        "{\"id\": 3, \"user\": \"a\", \"amt\": 1.5, \"ts\": \"2026-01-01T10:07:00Z\"}",
                        "{\"id\": 4, \"user\": \"c\", \"amt\": 2.5, \"ts\": \"2026-01-01T10:09:00Z\"}");
                long start = System.nanoTime();
                ChildProcess p = ChildProcess.start(folder, Map.of(), "run", ws.spec.toString());
                int code = p.waitFor(RUN_TIMEOUT_S);
                long ms = (System.nanoTime() - start) / 1_000_000;
                slowestMs = Math.max(slowestMs, ms);
                String problem = code < 0 ? "no exit within " + RUN_TIMEOUT_S + " s (killed)"
                        : code != 0 ? "exit code " + code : rowsProblem(folder.resolve("out"));
                if (problem == null) {
                    delete(folder);
                    continue;
                }
                Files.createDirectories(KEPT);
                Path kept = KEPT.resolve("run-" + run + ".stderr");
                Files.writeString(kept, p.err());
                failures.add("run " + run + " (" + ms + " ms): " + problem + "; stderr (kept in " + kept + "):\n" + p.err());
            }
        }
        System.out.println("fresh-run soak: " + RUNS + " runs, " + failures.size() + " failed, slowest " + slowestMs + " ms, "
                + BUSY_THREADS + " busy threads");
        assertThat(failures).as("fresh two-file runs that failed, of " + RUNS).isEmpty();
    }

    /** Null when the table holds exactly the four rows, else what is wrong. */
    private static String rowsProblem(Path table) {
        if (!Files.isDirectory(table.resolve("_delta_log"))) {
            return "exit code 0 but no table at " + table;
        }
        List<String> rows = new ArrayList<>();
        for (Object[] r : DeltaTables.readRows(table.toString())) {
            rows.add(r[0] + "|" + r[1] + "|" + r[2] + "|" + Timestamps.formatMicros((Long) r[3]));
        }
        List<String> expected = List.of("1|a|5.0|2026-01-01T10:01:00Z", "2|b|7.0|2026-01-01T10:05:00Z",
                "3|a|1.5|2026-01-01T10:07:00Z", "4|c|2.5|2026-01-01T10:09:00Z");
        if (rows.size() == expected.size() && rows.containsAll(expected)) {
            return null;
        }
        return "exit code 0 but the table holds " + rows + ", not " + expected;
    }

    private static void delete(Path folder) throws IOException {
        try (Stream<Path> all = Files.walk(folder)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    /** Threads that keep the CPUs busy until closed: the load under which a start's races show. */
    static final class Busy implements AutoCloseable {
        private final List<Thread> threads = new ArrayList<>();
        private volatile boolean done;

        Busy(int n) {
            for (int i = 0; i < n; i++) {
                Thread t = new Thread(() -> {
                    while (!done) { // always runnable: the scheduler counts a busy core
                        Thread.onSpinWait();
                    }
                }, "soak-busy-" + i);
                t.setDaemon(true);
                t.start();
                threads.add(t);
            }
        }

        @Override
        public void close() throws InterruptedException {
            done = true;
            for (Thread t : threads) {
                t.join();
            }
        }
    }
}
