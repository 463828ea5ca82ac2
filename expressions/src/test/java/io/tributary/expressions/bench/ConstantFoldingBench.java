package io.tributary.expressions.bench;

import io.tributary.expressions.Expression;
import io.tributary.schema.Schema;
import java.util.ArrayList;
import java.util.List;

/**
 * A micro-benchmark, run by hand (not a test): the CPU time of one compiled evaluation of expressions with constant parts, over
 * rows of {@code i INT, s STRING, ts TIMESTAMP}, after a warm-up, as the median of several rounds (CPU time, as the machine is
 * shared). Run it with the module's
 * test class path: {@code java -cp expressions/target/test-classes:expressions/target/classes:$(cat cp.txt)
 * io.tributary.expressions.bench.ConstantFoldingBench [ROUNDS]}.
 */
public final class ConstantFoldingBench {
    private static final Schema INPUT = Schema.parse("i INT, s STRING, ts TIMESTAMP");
    private static final String[] EXPRESSIONS = {
        "ts + make_interval(1, 2, 0, 3, 0, 0, 0)",
        "ts + INTERVAL 1 DAY * 2",
        "datediff(to_date(ts), to_date('2024-01-01'))",
        "concat(upper('x'), s)",
        "i + (1 + 2) * 3",
        "array_contains(array(1, 2, 7), i)",
        "element_at(map(1, 'a', 2, 'b'), i % 2 + 1)",
        "size(array(1, 2, 3)) + i",
        "concat(s, to_json(named_struct('a', array(1, 2))))",
        "i + 1",
    };
    private static final java.lang.management.ThreadMXBean CPU = java.lang.management.ManagementFactory.getThreadMXBean();
    private static volatile Object sink;

    private ConstantFoldingBench() {
    }

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 7;
        Object[][] rows = new Object[1024][];
        for (int r = 0; r < rows.length; r++) {
            rows[r] = new Object[] {r, "user" + r, 1_780_000_000_000_000L + r * 1_000_000L};
        }
        for (String text : EXPRESSIONS) {
            Expression e = Expression.compile(INPUT, text);
            run(e, rows, 2_000); // warm-up: the JIT compiles the closures
            List<Double> ns = new ArrayList<>();
            for (int k = 0; k < rounds; k++) {
                long start = CPU.getCurrentThreadCpuTime();
                int passes = run(e, rows, 1_000);
                ns.add((CPU.getCurrentThreadCpuTime() - start) / (double) (passes * rows.length));
            }
            double[] sorted = ns.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            System.out.printf("%-50s %8.1f ns/row CPU (median of %d; min %.1f, max %.1f)%n", text, sorted[sorted.length / 2], rounds, sorted[0],
                    sorted[sorted.length - 1]);
        }
    }

    /** Evaluates every row {@code passes} times; returns the passes. */
    private static int run(Expression e, Object[][] rows, int passes) {
        Object last = null;
        for (int p = 0; p < passes; p++) {
            for (Object[] row : rows) {
                last = e.eval(row);
            }
        }
        sink = last;
        return passes;
    }
}
