package io.tributary.broker;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Benchmark, not a test: the embedded broker's fixed cost in a new JVM, as a run on a new state pays it.
 * Starts {@link EmbeddedBroker} on a new folder (formatting it), creates a topic, commits one
 * transaction with a new transactional id (which creates {@code __transaction_state} and loads its
 * coordinator) and stops the broker; prints the process's CPU time and the wall time of each phase,
 * then the CPU of the threads that took most, grouped by name (the JIT compilers and the collector
 * from {@code /proc/self/task} where there is one). Compare builds by CPU over several new
 * processes, alternated: wall time follows the machine's load.
 * Run: {@code java -cp <test classpath> io.tributary.broker.StartBench [DIR]} (default a new temporary folder).
 */
public final class StartBench {
    private StartBench() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = args.length > 0 ? Path.of(args[0]) : Files.createTempDirectory("start-bench");
        long cpu0 = processCpuMs();
        long wall0 = System.nanoTime();
        EmbeddedBroker broker = EmbeddedBroker.start(dir.resolve("kafka"));
        long cpu1 = processCpuMs();
        long wall1 = System.nanoTime();
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", broker.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic("bench", 1, (short) 1))).all().get();
        }
        Map<String, Object> p = new HashMap<>();
        p.put("bootstrap.servers", broker.bootstrapServers());
        p.put("transactional.id", "start-bench");
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>("bench", new byte[16])).get();
            producer.commitTransaction();
        }
        long cpu2 = processCpuMs();
        long wall2 = System.nanoTime();
        Map<String, Long> threads = threadCpuMs();
        broker.close();
        long cpu3 = processCpuMs();
        long wall3 = System.nanoTime();
        System.out.printf("start: %d ms CPU, %d ms wall; topic and first transaction: %d ms CPU, %d ms wall; "
                        + "stop: %d ms CPU, %d ms wall; process CPU %d ms%n",
                cpu1 - cpu0, (wall1 - wall0) / 1_000_000, cpu2 - cpu1, (wall2 - wall1) / 1_000_000,
                cpu3 - cpu2, (wall3 - wall2) / 1_000_000, cpu3);
        System.out.println("CPU by thread before the stop (ms):");
        threads.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder())).limit(12)
                .forEach(e -> System.out.printf("  %6d  %s%n", e.getValue(), e.getKey()));
        if (args.length == 0) {
            deleteTree(dir);
        }
        System.exit(0); // the clients' and broker's leftover threads are not waited for
    }

    private static long processCpuMs() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime() / 1_000_000;
    }

    /**
     * CPU by thread name, numbers folded ({@code data-plane-kafka-request-handler-N}); the JIT compilers', the
     * collector's and the VM thread's from {@code /proc/self/task}, which the JVM's thread bean does not list.
     */
    private static Map<String, Long> threadCpuMs() throws IOException {
        Map<String, Long> by = new TreeMap<>();
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        for (long id : mx.getAllThreadIds()) {
            ThreadInfo info = mx.getThreadInfo(id);
            long ns = mx.getThreadCpuTime(id);
            if (info != null && ns > 0) {
                by.merge(info.getThreadName().replaceAll("[0-9]+", "N"), ns / 1_000_000, Long::sum);
            }
        }
        Path tasks = Path.of("/proc/self/task");
        if (!Files.isDirectory(tasks)) {
            return by;
        }
        try (var ids = Files.list(tasks)) {
            for (Path t : (Iterable<Path>) ids::iterator) {
                String stat;
                try {
                    stat = Files.readString(t.resolve("stat"));
                } catch (IOException gone) {
                    continue;
                }
                String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')')); // cut at 15 characters
                String group = name.startsWith("C1 Comp") ? "JIT C1" : name.startsWith("C2 Comp") ? "JIT C2"
                        : name.startsWith("GC Thread") || name.startsWith("ParGC") ? "GC" : name.equals("VM Thread") ? "VM" : null;
                if (group != null) {
                    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    by.merge(group, (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10, Long::sum); // USER_HZ 100: 10 ms a tick
                }
            }
        }
        return by;
    }

    private static void deleteTree(Path dir) throws IOException {
        try (var paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(q -> q.toFile().delete());
        }
    }
}
