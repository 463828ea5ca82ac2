package io.tributary.service.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What a benchmarked process reports about itself at exit, when {@code TRIBUTARY_BENCH_STATS}
 * names a file: its peak heap and JVM times. Used by {@code tributary bench}; nothing otherwise.
 */
public final class BenchStats {
    /** The environment variable naming the stats file. */
    public static final String ENV = "TRIBUTARY_BENCH_STATS";
    private static volatile long mainUptimeMs = -1;

    private BenchStats() {
    }

    /** Notes that {@code main} was reached (the JVM's own start-up is over). */
    public static void mainStarted() {
        mainUptimeMs = ManagementFactory.getRuntimeMXBean().getUptime();
    }

    /** Writes {@code peakHeapBytes=..., mainUptimeMs=..., exitUptimeMs=...} lines if asked to; never fails the command. */
    public static void writeIfAsked() {
        String file = System.getenv(ENV);
        if (file == null || file.isBlank()) {
            return;
        }
        long heap = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                heap += pool.getPeakUsage().getUsed();
            }
        }
        String text = "peakHeapBytes=" + heap + "\nmainUptimeMs=" + mainUptimeMs
                + "\nexitUptimeMs=" + ManagementFactory.getRuntimeMXBean().getUptime() + "\n";
        try {
            Files.writeString(Path.of(file), text);
        } catch (IOException e) {
            System.err.println("tributary: cannot write bench stats to " + file + ": " + e);
        }
    }
}
