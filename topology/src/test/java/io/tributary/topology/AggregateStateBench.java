package io.tributary.topology;

import io.tributary.expressions.SelectItems;
import io.tributary.expressions.SqlQuery;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The CPU a row costs an aggregate whose state is a whole collection, in one window and group: {@code rows} rows of
 * {@code distinct} distinct values, in batches of {@code batchRows} (update mode, a marker after each), packed 1,000 to an
 * events record as file-ingest packs them, through the aggregation's topology on its RocksDB stores (TopologyTestDriver,
 * which processes on the calling thread and commits after each record, so the thread's CPU time is the aggregation's, with
 * the driver's piping and parsing). Prints one line a case: the function, the distinct values, the
 * rows and the microseconds of CPU per row.
 *
 * <p>Arguments: {@code function:distinct:rows[:batchRows] ...}, for instance {@code percentile:1000:20000}
 * {@code percentile_approx:60000:60000:60000}; the function is one of percentile, median, mode, percentile_disc,
 * percentile_approx, hll_sketch_agg, and count (for the cost of a row whose state is small).
 */
public final class AggregateStateBench {
    /** Rows in one events record, file-ingest's default (source.files.rowsPerRecord). */
    private static final int ROWS_PER_RECORD = 1000;
    private static final Duration DELAY = Duration.ofMinutes(5);
    private static final Instant T0 = Instant.parse("2026-10-06T09:00:00Z");

    private AggregateStateBench() {
    }

    public static void main(String[] args) throws Exception {
        java.util.Set<String> functions = new java.util.LinkedHashSet<>();
        for (String arg : args) {
            functions.add(arg.split(":")[0]);
        }
        for (String f : functions) { // the JIT's warm-up, not measured
            run(f, 100, 20_000, 5000);
        }
        for (String arg : args) {
            String[] p = arg.split(":");
            int rows = Integer.parseInt(p[2]);
            double micros = run(p[0], Integer.parseInt(p[1]), rows, p.length > 3 ? Integer.parseInt(p[3]) : 5000);
            System.out.printf(Locale.ROOT, "%s\t%s\t%d\t%.2f%n", p[0], p[1], rows, micros);
        }
    }

    /** The microseconds of the thread's CPU a row took. */
    private static double run(String function, int distinct, int rows, int batchRows) throws Exception {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        AggregateSpec spec = spec(function);
        Path dir = Files.createTempDirectory("aggregate-state-bench");
        long cpu;
        try (AggregationDriver driver = AggregationDriver.of(spec, dir)) {
            List<String> lines = new ArrayList<>(rows);
            for (int i = 0; i < rows; i++) {
                lines.add(row(i, distinct));
            }
            long before = threads.getCurrentThreadCpuTime();
            long batch = 0;
            for (int from = 0; from < rows; from += batchRows) {
                List<String> batchLines = lines.subList(from, Math.min(rows, from + batchRows));
                for (int r = 0; r < batchLines.size(); r += ROWS_PER_RECORD) {
                    driver.packed(batchLines.subList(r, Math.min(batchLines.size(), r + ROWS_PER_RECORD)));
                }
                driver.marker(batch++, null);
            }
            cpu = threads.getCurrentThreadCpuTime() - before;
            if (driver.rows().isEmpty()) {
                throw new AssertionError(function + ": no result rows");
            }
        }
        try (var paths = Files.walk(dir)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        }
        return cpu / 1000.0 / rows;
    }

    private static AggregateSpec spec(String function) {
        String call = switch (function) {
            case "count" -> "count(amt)";
            case "percentile" -> "percentile(amt, 0.5)";
            case "median" -> "median(amt)";
            case "mode" -> "mode(amt)";
            case "percentile_disc" -> "percentile_disc(0.5) WITHIN GROUP (ORDER BY amt)";
            case "percentile_approx" -> "percentile_approx(amt, 0.5)";
            case "hll_sketch_agg" -> "hll_sketch_agg(id)";
            default -> throw new IllegalArgumentException("unknown function " + function);
        };
        SqlQuery.Aggregation query = SqlQuery.parse("SELECT window(ts, '10 minutes') AS w, user, " + call + " AS x FROM source"
                + " GROUP BY window(ts, '10 minutes'), user").aggregation();
        return AggregateSpec.builder().eventTime(query.eventTime()).watermark(DELAY).window(Duration.ofMinutes(10))
                .windowColumn(query.windowColumn()).groupBy(query.groupBy().stream().map(SelectItems::name).toList())
                .select(query.select()).columns(query.columns()).outputMode(OutputMode.UPDATE).build(AggregationDriver.seedSchema());
    }

    /** Row {@code i}: one user, one 10-minute window, value {@code i * 7919 mod distinct} (each distinct value in turn, shuffled). */
    private static String row(int i, int distinct) {
        long v = (i * 7919L) % distinct;
        return "{\"id\": " + v + ", \"user\": \"a\", \"amt\": " + (v / 4.0) + ", \"ts\": \"" + T0.plusMillis(i % 600_000) + "\"}";
    }
}
