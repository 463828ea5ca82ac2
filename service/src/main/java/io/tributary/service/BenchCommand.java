package io.tributary.service;

import io.tributary.service.bench.BenchFiles;
import io.tributary.service.bench.BenchStorage;
import io.tributary.service.bench.ChildRun;
import io.tributary.service.bench.ServiceBench;
import io.tributary.service.internal.ServiceErrors;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code tributary bench raw}: times the raw pipeline (JSON files to a Delta table through Kafka,
 * availableNow, embedded broker) as a whole new {@code bin/tributary run} process per run, as a
 * user starts it: wall time, rows/s, peak RSS, CPU and peak heap, then the medians. With
 * {@code --set source.files.path=s3a://...} the input is uploaded there once; with
 * {@code --set sink.delta.path=s3a://...} each run writes a table of its own below that prefix
 * ({@code storage.*} settings reach the server, as in a spec).
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = {"Benchmarks a pipeline from a cold start: generates deterministic input (JSON lines, CSV or Parquet), runs "
                + "'tributary run' as a new process per run and prints wall time, rows/s, peak RSS and peak heap, "
                + "then the medians; also times a run over an empty folder, and the same run again on its state (nothing new)."})
final class BenchCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "SCENARIO", description = {"raw: files -> Kafka -> Delta, no aggregation, availableNow, a new process per run",
            "service: the continuous service: start to ready, idle CPU and RSS, file-to-commit latency at --rate rows/s, "
                    + "sustained rows/s over --rows in --files (none with --rows 0), restart to ready"})
    String scenario;

    @Option(names = "--rate", defaultValue = "1000", description = "service: rows per second of the latency phase (default ${DEFAULT-VALUE})")
    int rate;

    @Option(names = "--interval", defaultValue = "1000", description = "service: milliseconds between the latency phase's files, "
            + "each of rate * interval rows, e.g. --rate 50000 --interval 100: 5,000 rows every 0.1 s (default ${DEFAULT-VALUE})")
    int intervalMs;

    @Option(names = "--seconds", defaultValue = "60", description = "service: how long the latency phase drops files (default ${DEFAULT-VALUE})")
    int seconds;

    @Option(names = "--max-files-per-trigger", defaultValue = "10", description = "service: maxFilesPerTrigger of the sustained phase (default ${DEFAULT-VALUE}, as Spark's anchor)")
    int maxFilesPerTrigger;

    @Option(names = "--rows", defaultValue = "1000000", description = "rows of input (default ${DEFAULT-VALUE})")
    long rows;

    @Option(names = "--files", defaultValue = "100", description = "input files (default ${DEFAULT-VALUE})")
    int files;

    @Option(names = "--runs", defaultValue = "3", description = "timed runs; the medians are printed (default ${DEFAULT-VALUE})")
    int runs;

    @Option(names = "--dir", description = "work folder (kept); default a new temporary folder, deleted at the end")
    Path dir;

    @Option(names = "--repeated-ids", defaultValue = "0", description = "raw: the fraction of rows that repeat an earlier row's id, "
            + "e.g. 0.3 with --set sink.delta.mode=upsert --set sink.delta.keys=id for the upsert benchmark (default ${DEFAULT-VALUE})")
    double repeatedIds;

    @Option(names = "--format", defaultValue = "json", description = "raw: the input's format, json, csv (with a header line) or parquet;"
            + " the same rows in each (default ${DEFAULT-VALUE})")
    String format;

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = {"a pipeline setting for the runs, as 'run --set' takes it",
            "source.files.path=s3a://bucket/in/ uploads the input there; sink.delta.path=s3a://bucket/tables/ gives each run "
                    + "a table below it; storage.fs.s3a.endpoint=... and the other storage settings reach the server"})
    List<String> settings = new ArrayList<>();

    @Spec
    CommandSpec command;

    @Override
    public Integer call() throws Exception {
        if (!"raw".equals(scenario) && !"service".equals(scenario)) {
            throw ServiceErrors.unknownBenchScenario(scenario);
        }
        if (!BenchFiles.FORMATS.contains(format)) {
            throw ServiceErrors.unknownBenchFormat(format, String.join(", ", BenchFiles.FORMATS));
        }
        if (rows < 0 || files < 1 || runs < 1 || intervalMs < 1 || rate < 1 || seconds < 1) {
            throw ServiceErrors.badBenchCounts();
        }
        Path launcher = launcher();
        PrintWriter out = command.commandLine().getOut();
        boolean temporary = dir == null;
        Path work = temporary ? Files.createTempDirectory("tributary-bench") : Files.createDirectories(dir.toAbsolutePath());
        try {
            if ("service".equals(scenario)) {
                runOnce(launcher, work.resolve("run-prepare"), Files.createDirectories(work.resolve("empty"))); // a dist without an archive records it here
                Path folder = work.resolve("service");
                if (Files.exists(folder)) {
                    delete(folder); // a cold start: no state, no table
                }
                new ServiceBench(launcher, Files.createDirectories(folder), settings, out)
                        .run(rate, intervalMs, seconds, rows, files, maxFilesPerTrigger);
                return 0;
            }
            Path input = work.resolve("input");
            long t0 = System.nanoTime();
            long bytes = BenchFiles.write(format, input, rows, files, repeatedIds);
            out.printf(Locale.ROOT, "input: %,d rows in %d %s files, %,d bytes (%.1f MB), generated in %.1f s%n",
                    rows, files, format, bytes, bytes / 1e6, (System.nanoTime() - t0) / 1e9);
            BenchStorage remote = BenchStorage.of(settings);
            if (remote.input() != null) {
                long t1 = System.nanoTime();
                remote.upload(input);
                out.printf(Locale.ROOT, "input uploaded to %s in %.1f s%n", remote.input(), (System.nanoTime() - t1) / 1e9);
            }
            out.println("launcher: " + launcher);
            out.flush();
            // left out of the medians: a user's first run after an install, shown on its own (a
            // distribution without a class-data archive, e.g. unpacked from the tarball, records one
            // on its first run, of the classes that run loads; so this run reads the same input)
            ChildRun first = runOnce(launcher, work.resolve("run-first"), input, remote);
            if (first.rows() != rows) {
                throw ServiceErrors.benchFirstRunRowsLost(first.rows(), rows, first.folder());
            }
            print(out, "first run (not in the medians)", first);
            List<ChildRun> results = new ArrayList<>();
            for (int i = 1; i <= runs; i++) {
                ChildRun r = runOnce(launcher, work.resolve("run-" + i), input, remote);
                if (r.rows() != rows) {
                    throw ServiceErrors.benchRowsLost(i, r.rows(), rows, r.folder());
                }
                results.add(r);
                print(out, "run " + i, r);
            }
            ChildRun empty = runOnce(launcher, work.resolve("run-empty"), Files.createDirectories(work.resolve("empty")), remote);
            // a scheduled run that finds nothing new since the last: on the same state, which the run above left
            ChildRun again = runOnce(launcher, work.resolve("run-empty"), work.resolve("empty"), remote, false);
            out.printf(Locale.ROOT, "median of %d: wall %.2f s, %,.0f rows/s, peak RSS %.0f MiB, peak heap %.0f MiB, CPU %.1f s%n", runs,
                    median(results, ChildRun::wallSeconds), median(results, r -> r.rows() / r.wallSeconds()),
                    median(results, r -> r.peakRssBytes() / 1048576.0), median(results, r -> r.peakHeapBytes() / 1048576.0),
                    median(results, ChildRun::cpuSeconds));
            print(out, "empty folder", empty);
            print(out, "empty folder again, the same state", again);
        } finally {
            if (temporary) {
                delete(work);
            }
        }
        return 0;
    }

    private ChildRun runOnce(Path launcher, Path folder, Path input) throws IOException, InterruptedException {
        return runOnce(launcher, folder, input, BenchStorage.of(List.of()));
    }

    private ChildRun runOnce(Path launcher, Path folder, Path input, BenchStorage remote) throws IOException, InterruptedException {
        return runOnce(launcher, folder, input, remote, true);
    }

    /** A run of the bench's pipeline over {@code input} in {@code folder}: a new state and table when {@code fresh}, else the folder's. */
    private ChildRun runOnce(Path launcher, Path folder, Path input, BenchStorage remote, boolean fresh) throws IOException, InterruptedException {
        if (fresh && Files.exists(folder)) {
            delete(folder); // a cold start: no state, no table
        }
        Files.createDirectories(folder);
        Path spec = folder.resolve("pipeline.yaml");
        List<String> lines = new ArrayList<>(List.of("name: bench", "source:", "  files:", "    path: \"" + input.toAbsolutePath() + "\""));
        lines.addAll(BenchFiles.sourceLines(format));
        lines.addAll(List.of("sink:", "  delta:", "    path: out/", "state: state/", "trigger: availableNow", ""));
        Files.writeString(spec, String.join("\n", lines));
        List<String> extra = new ArrayList<>();
        remote.settingsFor(settings, folder.getFileName().toString(), input.getFileName().toString().equals("empty")).forEach(s -> {
            extra.add("--set");
            extra.add(s);
        });
        return ChildRun.run(launcher, spec, folder, extra);
    }

    private static void print(PrintWriter out, String label, ChildRun r) {
        Map<String, Long> d = r.stageMs();
        out.printf(Locale.ROOT, "%s: wall %.2f s, %,.0f rows/s, peak RSS %.0f MiB, peak heap %.0f MiB, CPU %.1f s; "
                        + "JVM to main %.2f s, ingest %d ms (publish %d), %ssink %d ms (read %d, write+commit %d)%n",
                label, r.wallSeconds(), r.rows() / r.wallSeconds(), r.peakRssBytes() / 1048576.0, r.peakHeapBytes() / 1048576.0,
                r.cpuSeconds(), r.mainSeconds(), d.getOrDefault("ingest.triggerExecution", 0L), d.getOrDefault("ingest.addBatch", 0L),
                d.containsKey("aggregate.triggerExecution") ? "aggregate " + d.get("aggregate.triggerExecution") + " ms, " : "",
                d.getOrDefault("sink.triggerExecution", 0L), d.getOrDefault("sink.getBatch", 0L), d.getOrDefault("sink.addBatch", 0L));
        if (!r.threadSeconds().isEmpty()) {
            StringBuilder t = new StringBuilder("  CPU by thread:");
            r.threadSeconds().forEach((group, s) -> t.append(String.format(Locale.ROOT, " %s %.2f s,", group, s)));
            out.println(t.substring(0, t.length() - 1));
        }
        out.flush();
    }

    private static double median(List<ChildRun> runs, ToDoubleFunction<ChildRun> f) {
        double[] v = runs.stream().mapToDouble(f).sorted().toArray();
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    /** The {@code bin/tributary} of the distribution this command runs from (the launcher says where). */
    private static Path launcher() {
        String home = System.getProperty("tributary.home");
        Path bin = home == null ? null : Path.of(home, "bin", "tributary");
        if (bin == null || !Files.isExecutable(bin)) {
            throw ServiceErrors.noLauncher(home);
        }
        return bin;
    }

    private static void delete(Path root) throws IOException {
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
