package io.tributary.service.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.service.internal.ServiceErrors;
import io.tributary.sink.maintenance.TableDescription;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * {@code tributary bench service}: the continuous service (no trigger) as a user runs it, one
 * {@code bin/tributary run} process on the embedded broker:
 * <ol>
 *   <li>cold start until {@code /health/ready} answers 200;</li>
 *   <li>idle CPU and RSS over a quiet interval;</li>
 *   <li>file-to-commit latency: after three warm-up files (reported apart: the first batches
 *       run cold code), one file of {@code rate * interval} rows dropped every {@code interval}
 *       (written aside, then renamed in, as producers should); a file counts as committed at the
 *       first sink progress line after which the table's rows cover it and every file before it;
 *       the RSS is sampled every 10 s of the phase, so a growing memory shows;</li>
 *   <li>sustained throughput: {@code rows} rows in {@code files} files dropped at once, batches of
 *       {@code maxFilesPerTrigger} files (Spark's anchor: 10), timed until the sink committed the last row;</li>
 *   <li>SIGTERM, then a restart on the same state: time until ready again;</li>
 * </ol>
 * then checks that the table holds exactly the rows written.
 */
public final class ServiceBench {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int WARM_UP_FILES = 3;
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();

    private final Path launcher;
    private final Path work;
    private final List<String> settings;
    private final PrintWriter out;
    /** Rows the sink has committed (summed from its progress lines), and when each line arrived. */
    private final List<long[]> commits = new ArrayList<>();
    private final List<Process> started = new ArrayList<>();
    private final LatencyTrace trace = new LatencyTrace();
    private long committedRows;

    public ServiceBench(Path launcher, Path work, List<String> settings, PrintWriter out) {
        this.launcher = launcher;
        this.work = work;
        this.settings = settings;
        this.out = out;
    }

    /**
     * Runs the five phases; {@code rate} rows a second in a file every {@code intervalMs} for
     * {@code seconds} seconds, then {@code rows} in {@code files} (none with {@code rows} 0).
     */
    public void run(int rate, int intervalMs, int seconds, long rows, int files, int maxFilesPerTrigger)
            throws IOException, InterruptedException {
        try {
            phases(rate, intervalMs, seconds, rows, files, maxFilesPerTrigger);
        } finally {
            started.forEach(Process::destroyForcibly); // a failed phase leaves no service behind
        }
    }

    private void phases(int rate, int intervalMs, int seconds, long rows, int files, int maxFilesPerTrigger)
            throws IOException, InterruptedException {
        Path input = Files.createDirectories(work.resolve("in"));
        Path staging = Files.createDirectories(work.resolve("staging"));
        Path spec = work.resolve("pipeline.yaml");
        int port = freePort();
        Files.writeString(spec, String.join("\n",
                "name: bench-service",
                "source:",
                "  files:",
                "    path: in/",
                "    format: json",
                "    schema: \"" + BenchData.SCHEMA + "\"",
                "    maxFilesPerTrigger: " + maxFilesPerTrigger,
                "sink:",
                "  delta:",
                "    path: out/",
                "state: state/",
                "http:",
                "  port: " + port, ""));

        long t0 = System.nanoTime();
        Process p = start(spec, "run-1");
        double ready = awaitReady(p, port, t0);
        out.printf(Locale.ROOT, "cold start to ready: %.2f s%n", ready);

        Thread.sleep(5_000); // let start-up work (JIT, first polls) settle
        long cpu0 = cpuTicks(p);
        Thread.sleep(10_000);
        double idleCpu = (cpuTicks(p) - cpu0) / 100.0 / 10.0;
        out.printf(Locale.ROOT, "idle: CPU %.1f%% of one core, RSS %.0f MiB%n", idleCpu * 100, rssBytes(p) / 1048576.0);
        out.flush();

        long id = 0;
        long written = 0;
        for (int i = 0; i < WARM_UP_FILES; i++) { // the first batches after start run cold code: timed, but apart
            BenchData.write(staging, "warm-up-" + i, id, rate, 1);
            id += rate;
            written += rate;
            long at = drop(staging.resolve("warm-up-" + i + "-00000.json"), input, null);
            awaitCommitted(p, written, Duration.ofSeconds(60));
            out.printf(Locale.ROOT, "warm-up file %d: %.0f ms to commit%n", i + 1, (committedAt(written) - at) / 1e6);
        }
        int count = (int) (seconds * 1000L / intervalMs);
        long fileRows = Math.max(1, (long) rate * intervalMs / 1000);
        long[] dropped = new long[count];
        long[] upTo = new long[count];
        List<String> rss = new ArrayList<>();
        long phaseStart = System.nanoTime();
        long phaseCpu = cpuTicks(p);
        long next = phaseStart;
        // each file is written an interval before it is moved in, as a producer writes aside, then renames
        BenchData.write(staging, "latency-0", id, fileRows, 1);
        for (int i = 0; i < count; i++) {
            next += TimeUnit.MILLISECONDS.toNanos(intervalMs);
            id += fileRows;
            written += fileRows;
            dropped[i] = drop(staging.resolve("latency-" + i + "-00000.json"), input, trace);
            upTo[i] = written;
            if (i + 1 < count) {
                BenchData.write(staging, "latency-" + (i + 1), id, fileRows, 1);
            }
            if (i % Math.max(1, 10_000 / intervalMs) == 0) {
                rss.add(String.format(Locale.ROOT, "%.0f", rssBytes(p) / 1048576.0));
            }
            TimeUnit.NANOSECONDS.sleep(Math.max(0, next - System.nanoTime()));
        }
        double dropSeconds = (System.nanoTime() - phaseStart) / 1e9;
        awaitCommitted(p, written, Duration.ofSeconds(120));
        double phaseCpuSeconds = (cpuTicks(p) - phaseCpu) / 100.0;
        double[] latency = new double[count];
        for (int i = 0; i < count; i++) {
            latency[i] = (committedAt(upTo[i]) - dropped[i]) / 1e6;
        }
        double[] lastHalf = Arrays.copyOfRange(latency, count / 2, count);
        Arrays.sort(latency);
        Arrays.sort(lastHalf);
        out.printf(Locale.ROOT, "file-to-commit latency at %,d rows/s (%,d rows every %d ms, %d files dropped in %.1f s): "
                        + "median %.0f ms, p99 %.0f ms, max %.0f ms; the last half's p99 %.0f ms%n",
                rate, fileRows, intervalMs, count, dropSeconds, percentile(latency, 0.5), percentile(latency, 0.99),
                latency[count - 1], percentile(lastHalf, 0.99));
        out.printf(Locale.ROOT, "RSS every 10 s of that phase (MiB): %s; peak %.0f MiB; CPU of the service %.1f s (%.0f%% of a core)%n",
                String.join(" ", rss), peakRssBytes(p) / 1048576.0, phaseCpuSeconds, 100 * phaseCpuSeconds / ((System.nanoTime() - phaseStart) / 1e9));
        trace.print(out);
        out.flush();

        if (rows > 0) {
            written = sustained(p, staging, input, id, written, rows, files, maxFilesPerTrigger);
        }
        long stopStart = System.nanoTime();
        p.destroy(); // SIGTERM
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw ServiceErrors.benchDidNotStop(work);
        }
        double stop = (System.nanoTime() - stopStart) / 1e9;
        long restart = System.nanoTime();
        Process again = start(spec, "run-2");
        double readyAgain = awaitReady(again, port, restart);
        again.destroy();
        again.waitFor(60, TimeUnit.SECONDS);
        out.printf(Locale.ROOT, "SIGTERM to exit: %.2f s; restart to ready: %.2f s%n", stop, readyAgain);

        // the log's row counts: a long run's table (tens of millions of rows) does not fit the heap to be read back
        long inTable = TableDescription.of(work.resolve("out").toString(), 1).rowCount().orElse(-1);
        if (inTable != written) {
            throw ServiceErrors.benchTableRowsDiffer(inTable, written, work);
        }
        out.printf(Locale.ROOT, "table: %,d rows, as written%n", inTable);
        out.flush();
    }

    /** The sustained phase: {@code rows} in {@code files} dropped at once; returns the rows written in all. */
    private long sustained(Process p, Path staging, Path input, long id, long written, long rows, int files, int maxFilesPerTrigger)
            throws IOException, InterruptedException {
        BenchData.write(staging, "bulk", id, rows, files);
        long bulkStart = System.nanoTime();
        long cpu1 = cpuTicks(p);
        try (var staged = Files.list(staging)) {
            for (Path f : staged.sorted().toList()) {
                Files.move(f, input.resolve(f.getFileName()), StandardCopyOption.ATOMIC_MOVE);
            }
        }
        written += rows;
        awaitCommitted(p, written, Duration.ofMinutes(10));
        double bulk = (committedAt(written) - bulkStart) / 1e9;
        out.printf(Locale.ROOT, "sustained: %,d rows in %d files, maxFilesPerTrigger %d: %.2f s, %,.0f rows/s, CPU %.1f s, peak RSS %.0f MiB%n",
                rows, files, maxFilesPerTrigger, bulk, rows / bulk, (cpuTicks(p) - cpu1) / 100.0, peakRssBytes(p) / 1048576.0);
        out.flush();
        return written;
    }

    private Process start(Path spec, String name) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(launcher.toString(), "run", spec.toString()));
        settings.forEach(s -> {
            cmd.add("--set");
            cmd.add(s);
        });
        Process p = new ProcessBuilder(cmd).directory(work.toFile())
                .redirectError(work.resolve(name + ".stderr.log").toFile()).start();
        started.add(p);
        Path stdout = work.resolve(name + ".stdout.jsonl");
        Thread reader = new Thread(() -> readProgress(p, stdout), "bench-progress");
        reader.setDaemon(true);
        reader.start();
        return p;
    }

    /** Sums the sink's committed rows from the progress lines as they arrive; keeps them in {@code copy}. */
    private void readProgress(Process p, Path copy) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
             var w = Files.newBufferedWriter(copy)) {
            for (String line; (line = r.readLine()) != null; ) {
                long now = System.nanoTime();
                w.write(line);
                w.newLine();
                if (!line.startsWith("{\"name\"")) {
                    continue;
                }
                JsonNode n = JSON.readTree(line);
                if (n.path("numInputRows").asLong() > 0) {
                    trace.progress(n, System.currentTimeMillis());
                }
                if (n.get("name").asText().endsWith("/sink") && n.path("numInputRows").asLong() > 0) {
                    synchronized (commits) {
                        committedRows += n.path("sink").path("numOutputRows").asLong(n.path("numInputRows").asLong());
                        commits.add(new long[] {committedRows, now});
                        commits.notifyAll();
                    }
                }
            }
        } catch (IOException e) {
            // the process ended
        }
    }

    private void awaitCommitted(Process p, long rows, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (commits) {
            while (committedRows < rows) {
                if (!p.isAlive() || System.nanoTime() > deadline) {
                    throw ServiceErrors.benchNotCommitted(committedRows, rows, p.isAlive(), work);
                }
                commits.wait(100);
            }
        }
    }

    /** When the sink's committed rows first reached {@code rows}. */
    private long committedAt(long rows) {
        synchronized (commits) {
            return commits.stream().filter(c -> c[0] >= rows).findFirst().orElseThrow()[1];
        }
    }

    /** Moves the staged file {@code f} into the input folder; returns when (nanoTime), noted in {@code trace} unless null. */
    private static long drop(Path f, Path input, LatencyTrace trace) throws IOException {
        long at = System.nanoTime();
        long atMs = System.currentTimeMillis();
        Files.move(f, input.resolve(f.getFileName()), StandardCopyOption.ATOMIC_MOVE);
        if (trace != null) {
            trace.dropped(f.getFileName().toString(), atMs);
        }
        return at;
    }

    private double awaitReady(Process p, int port, long since) throws InterruptedException {
        HttpRequest ready = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/health/ready")).build();
        while (p.isAlive()) {
            try {
                if (HTTP.send(ready, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return (System.nanoTime() - since) / 1e9;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(20);
        }
        throw ServiceErrors.benchExitedEarly(p.exitValue(), work);
    }

    private static double percentile(double[] sorted, double q) {
        return sorted[(int) Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static long cpuTicks(Process p) throws IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(p.pid()), "stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]); // utime, stime in USER_HZ (100)
    }

    private static long rssBytes(Process p) throws IOException {
        return statusKb(p, "VmRSS:") * 1024;
    }

    private static long peakRssBytes(Process p) throws IOException {
        return statusKb(p, "VmHWM:") * 1024;
    }

    private static long statusKb(Process p, String key) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(p.pid()), "status"))) {
            if (line.startsWith(key)) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        return -1;
    }
}
