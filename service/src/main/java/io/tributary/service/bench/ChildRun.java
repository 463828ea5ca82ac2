package io.tributary.service.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.service.internal.ServiceErrors;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * One timed {@code bin/tributary run} as a new process: wall time from spawn to exit, peak RSS
 * ({@code VmHWM}) and CPU time sampled from {@code /proc} while it runs (and its threads' CPU by
 * group, {@link ThreadCpu}), peak heap as the child reports it ({@link BenchStats}), and the stages'
 * durations from its progress lines.
 */
public record ChildRun(double wallSeconds, long rows, long peakRssBytes, long peakHeapBytes, double cpuSeconds,
                       double mainSeconds, Map<String, Long> stageMs, Path folder, Map<String, Double> threadSeconds) {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long CLOCK_TICKS = 100; // USER_HZ on Linux

    /** Runs {@code launcher run spec} in {@code folder}; throws if it fails. */
    public static ChildRun run(Path launcher, Path spec, Path folder, List<String> extraArgs) throws IOException, InterruptedException {
        Path out = folder.resolve("stdout.jsonl");
        Path err = folder.resolve("stderr.log");
        Path stats = folder.resolve("stats.properties");
        List<String> cmd = new ArrayList<>(List.of(launcher.toString(), "run", spec.toString()));
        cmd.addAll(extraArgs);
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(folder.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile());
        pb.environment().put(BenchStats.ENV, stats.toString());
        long t0 = System.nanoTime();
        Process p = pb.start();
        long[] peak = {0, 0};
        Path proc = Path.of("/proc", Long.toString(p.pid()));
        ThreadCpu threads = new ThreadCpu(proc);
        for (int tick = 0; !p.waitFor(20, java.util.concurrent.TimeUnit.MILLISECONDS); tick++) {
            sample(proc, peak);
            if (tick % 5 == 0) {
                threads.sample();
            }
        }
        double wall = (System.nanoTime() - t0) / 1e9;
        if (p.exitValue() != 0) {
            throw ServiceErrors.benchRunFailed(folder, p.exitValue(), err);
        }
        Properties s = new Properties();
        if (Files.exists(stats)) {
            try (var r = Files.newBufferedReader(stats)) {
                s.load(r);
            }
        }
        long heap = Long.parseLong(s.getProperty("peakHeapBytes", "-1"));
        double main = Long.parseLong(s.getProperty("mainUptimeMs", "-1")) / 1000.0;
        long rows = 0;
        Map<String, Long> stageMs = new LinkedHashMap<>();
        for (String line : Files.readAllLines(out)) {
            if (!line.startsWith("{")) {
                continue; // not a progress line
            }
            JsonNode n = JSON.readTree(line);
            if (n.has("summary")) {
                rows = n.get("summary").path("numInputRows").asLong();
            } else if (n.has("name")) {
                String name = n.get("name").asText();
                String stage = name.substring(name.indexOf('/') + 1);
                n.path("durationMs").fields().forEachRemaining(e ->
                        stageMs.merge(stage + "." + e.getKey(), e.getValue().asLong(), Long::sum));
            }
        }
        return new ChildRun(wall, rows, peak[0], heap, peak[1] / (double) CLOCK_TICKS, main, stageMs, folder, threads.byGroup());
    }

    /** Updates {peak RSS bytes, CPU ticks} from /proc; the process may be gone already. */
    private static void sample(Path proc, long[] peak) {
        try {
            for (String line : Files.readAllLines(proc.resolve("status"))) {
                if (line.startsWith("VmHWM:")) {
                    long kb = Long.parseLong(line.replaceAll("[^0-9]", ""));
                    peak[0] = Math.max(peak[0], kb * 1024);
                }
            }
            String stat = Files.readString(proc.resolve("stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            peak[1] = Math.max(peak[1], Long.parseLong(f[11]) + Long.parseLong(f[12])); // utime, stime
        } catch (IOException | RuntimeException gone) {
            // exited between waitFor and the read
        }
    }
}
