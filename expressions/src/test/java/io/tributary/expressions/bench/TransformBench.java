package io.tributary.expressions.bench;

import io.tributary.expressions.Expression;
import io.tributary.expressions.Transform;
import io.tributary.schema.Schema;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A micro-benchmark, run by hand (not a test): the CPU time per row of {@code tributary bench raw}'s transform (docs/transform.md,
 * "What it costs") over rows like the bench's ({@code id INT, user STRING, amt DOUBLE, ts TIMESTAMP}), the whole transform and each
 * of its expressions alone, after a warm-up, as the median of several rounds (CPU time, as the machine is shared). Run it with
 * the module's test class path: {@code java -cp expressions/target/test-classes:expressions/target/classes:$(cat cp.txt)
 * io.tributary.expressions.bench.TransformBench [ROUNDS]}; with 0 rounds, one cold pass over 1M rows (ten over the 100,000) and the process's CPU, the JIT's included.
 */
public final class TransformBench {
    private static final Schema INPUT = Schema.parse("id INT, user STRING, amt DOUBLE, ts TIMESTAMP");
    private static final String WHERE = "id >= 0 AND user IS NOT NULL";
    private static final List<String> SELECT = List.of("id", "upper(user) AS user", "amt * 1.1 AS amt2", "round(amt, 1) AS amt", "ts",
            "to_date(ts) AS day", "hash(id, user) AS h");
    private static final java.lang.management.ThreadMXBean CPU = java.lang.management.ManagementFactory.getThreadMXBean();
    private static final com.sun.management.OperatingSystemMXBean PROCESS =
            (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
    private static volatile Object sink;

    private TransformBench() {
    }

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 7;
        Object[][] rows = new Object[100_000][];
        for (int r = 0; r < rows.length; r++) { // as BenchFiles writes them: user_NNNN, amounts of two decimals, a second apart
            rows[r] = new Object[] {r, String.format("user_%04d", (r * 7907) % 10_000), (r * 919 % 10_000) / 100.0,
                1_767_225_600_000_000L + r * 1_000_000L};
        }
        Transform t = args.length > 1 ? Transform.compile(INPUT, args[1].isEmpty() ? null : args[1], args.length > 2 ? List.of(args[2]) : null)
                : Transform.compile(INPUT, WHERE, SELECT);
        if (rounds == 0) { // cold: a fresh JVM's one pass over 1M rows, as a run sees them, the JIT's threads counted
            long thread = CPU.getCurrentThreadCpuTime();
            long process = PROCESS.getProcessCpuTime();
            Object last = null;
            for (int pass = 0; pass < 10; pass++) {
                for (Object[] row : rows) {
                    last = t.apply(row);
                }
            }
            sink = last;
            System.out.printf("cold, 1M rows: thread %.0f ms CPU, process %.0f ms CPU%n", (CPU.getCurrentThreadCpuTime() - thread) / 1e6,
                    (PROCESS.getProcessCpuTime() - process) / 1e6);
            return;
        }
        report("where + select (Transform.apply)", rounds, () -> {
            Object last = null;
            for (Object[] row : rows) {
                last = t.apply(row);
            }
            sink = last;
        }, rows.length);
        List<String> each = new ArrayList<>(List.of(WHERE));
        SELECT.forEach(s -> each.add(s.replaceAll(" AS \\w+$", "")));
        for (String text : each) {
            Expression e = Expression.compile(INPUT, text);
            report(text, rounds, () -> {
                Object last = null;
                for (Object[] row : rows) {
                    last = e.eval(row);
                }
                sink = last;
            }, rows.length);
        }
    }

    private static void report(String what, int rounds, Runnable pass, int rows) {
        for (int i = 0; i < 30; i++) {
            pass.run(); // warm-up: the JIT compiles the closures
        }
        double[] ns = new double[rounds];
        for (int k = 0; k < rounds; k++) {
            long start = CPU.getCurrentThreadCpuTime();
            for (int i = 0; i < 10; i++) {
                pass.run();
            }
            ns[k] = (CPU.getCurrentThreadCpuTime() - start) / (10.0 * rows);
        }
        Arrays.sort(ns);
        System.out.printf("%-40s %7.1f ns/row CPU (median of %d; min %.1f, max %.1f)%n", what, ns[rounds / 2], rounds, ns[0], ns[rounds - 1]);
    }
}
