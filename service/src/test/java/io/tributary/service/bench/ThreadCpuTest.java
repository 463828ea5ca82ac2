package io.tributary.service.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class ThreadCpuTest {
    @Test
    void groupsThreadsByWhatTheyDo() {
        assertEquals("C1", ThreadCpu.group("C1 CompilerThre"));
        assertEquals("C2", ThreadCpu.group("C2 CompilerThre"));
        assertEquals("GC", ThreadCpu.group("GC Thread#1"));
        assertEquals("main", ThreadCpu.group("java"));
        assertEquals("parquet", ThreadCpu.group("tributary-parqu"));
        assertEquals("read-ahead", ThreadCpu.group("tributary-read-"));
        assertEquals("kafka", ThreadCpu.group("data-plane-kafk"));
        assertEquals("kafka", ThreadCpu.group("kafka-producer-"));
        assertEquals("other", ThreadCpu.group("Signal Dispatch"));
    }

    @Test
    void countsTheCpuOfAThreadOfAProcess() throws Exception {
        Path self = Path.of("/proc/self");
        Assumptions.assumeTrue(Files.isDirectory(self.resolve("task")), "Linux only");
        long[] sink = {0};
        Thread busy = new Thread(() -> {
            long end = System.nanoTime() + 300_000_000L;
            long x = 0;
            while (System.nanoTime() < end) {
                x += Long.numberOfTrailingZeros(x + System.nanoTime());
            }
            sink[0] = x;
        }, "tributary-parquet-test");
        busy.start();
        ThreadCpu cpu = new ThreadCpu(self);
        while (busy.isAlive()) {
            cpu.sample();
            busy.join(50);
        }
        Map<String, Double> groups = cpu.byGroup();
        assertTrue(groups.getOrDefault("parquet", 0.0) > 0.0, "the busy thread's CPU: " + groups);
    }
}
