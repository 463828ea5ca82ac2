package io.tributary.compat.spark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.stream.Stream;
import org.apache.spark.sql.SparkSession;

/**
 * Tributary's upsert committed inside Spark's open transaction. Spark runs a {@code DELETE}, {@code UPDATE},
 * {@code MERGE} or {@code OPTIMIZE} on a table with deletion vectors or without; its commit is held at the
 * commit point ({@link HeldCommitLogStore}: Spark has read version 2 and written its files, and waits
 * before writing {@code _delta_log/00000000000000000003.json}). Meanwhile a real {@code tributary run}
 * upserts a batch into the same table and commits version 3. Spark is then released: Delta's conflict
 * detection either commits Spark's change on top (version 4) or fails it with a
 * {@code ConcurrentModificationException}. The table, read with Spark, must equal a serial result:
 * Spark's change then the batch, or the batch then Spark's change (when Spark committed), or the batch
 * alone (when Spark's transaction failed); no key twice. The serial results are Spark's own, on copies of
 * the table: the batch applied as a Spark {@code MERGE} (update or insert by {@code id}), as the sink does.
 *
 * <p>The tables are SparkConcurrentCommits' versions 0 to 2 (ids 1..10 in file A, 11..20 in file B). Two
 * batches: {@code upsert} (ids 2, 5, 6 in A, 15 in B, new ids 30 and 40: the keys Spark's changes touch) and
 * {@code insert} (new ids 30 and 40 only: no file of the table rewritten; Spark's MERGE inserts 40 too, so the
 * two commits would hold id 40 twice if Spark took the sink's commit for a blind append).
 *
 * <p>Writes, per case, {@code OUT/CASE.txt} (what ran, Spark's outcome, the table's history from version 3,
 * which serial result the table equals, its rows as Spark's JSON) and the final table as {@code OUT/CASE/}
 * (without Hadoop's {@code .crc} files). Exits 1 if a case's table equals none of its serial results.
 *
 * <p>Usage: {@code SparkOpenTransactions BIN_TRIBUTARY WORK_DIR OUT_DIR [CASE...]} (all cases by default; a
 * case is {@code CHANGE-dv|copy-upsert|insert}, e.g. {@code delete-dv-upsert}).
 */
public final class SparkOpenTransactions {
    /** The batches, by name: each a list of (id, user, amt). */
    static final Map<String, List<Object[]>> BATCHES = new LinkedHashMap<>();

    static {
        BATCHES.put("upsert", List.of(row(2), row(5), row(6), row(15), row(30), row(40)));
        BATCHES.put("insert", List.of(row(30), row(40)));
    }

    private static final Duration SPARK_REACHES_COMMIT = Duration.ofMinutes(10);

    private SparkOpenTransactions() {
    }

    private static Object[] row(int id) {
        return new Object[] {id, "ours", id + 0.25};
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 3) {
            System.err.println("usage: SparkOpenTransactions BIN_TRIBUTARY WORK_DIR OUT_DIR [CASE...]");
            System.exit(2);
        }
        Path launcher = Path.of(args[0]).toAbsolutePath();
        Path work = Path.of(args[1]).toAbsolutePath();
        Path out = Path.of(args[2]).toAbsolutePath();
        List<String> only = List.of(args).subList(3, args.length);
        System.setProperty("spark.delta.logStore.class", HeldCommitLogStore.class.getName());
        SparkSession spark = SparkFixtures.session("tributary-spark-open-transactions");
        Map<String, OpenTransactionCase> cases = new LinkedHashMap<>();
        for (String batch : BATCHES.keySet()) {
            for (Map.Entry<String, String> change : SparkConcurrentCommits.CHANGES.entrySet()) {
                for (boolean dv : List.of(true, false)) {
                    String name = change.getKey() + (dv ? "-dv-" : "-copy-") + batch;
                    cases.put(name, new OpenTransactionCase(spark, name, change.getValue(), dv, BATCHES.get(batch)));
                }
            }
        }
        List<String> failed = new ArrayList<>();
        try {
            Files.createDirectories(out);
            for (String name : only.isEmpty() ? List.copyOf(cases.keySet()) : only) {
                OpenTransactionCase c = cases.get(name);
                if (c == null) {
                    throw new IllegalArgumentException("no case " + name + "; the cases: " + cases.keySet());
                }
                Outcome o = run(spark, c, launcher, work.resolve(name));
                o.write(out.resolve(name + ".txt"));
                copyTable(work.resolve(name).resolve("table"), out.resolve(name));
                System.out.println(name + ": " + o.summary());
                if (!o.isSerial()) {
                    failed.add(name);
                }
            }
        } finally {
            spark.stop();
        }
        if (!failed.isEmpty()) {
            System.out.println("not a serial result: " + failed);
            System.exit(1);
        }
    }

    private static Outcome run(SparkSession spark, OpenTransactionCase c, Path launcher, Path dir) throws Exception {
        SparkFixtures.deleteTree(dir);
        // versions 0 to 2, made by Spark once per kind of table, copied for each case
        Path base = dir.resolveSibling(c.deletionVectors() ? "base-dv" : "base-copy");
        if (!Files.exists(base.resolve("_delta_log"))) {
            c.createBase(base);
        }
        Path table = dir.resolve("table");
        copyTable(base, table);

        TributaryUpsertRun tributary = new TributaryUpsertRun(launcher, dir.resolve("run"));
        tributary.prepare(table, c.batchLines());
        HeldCommitLogStore.Hold hold = HeldCommitLogStore.arm(table, 3);
        CompletableFuture<Void> sparkChange = CompletableFuture.runAsync(() -> spark.sql(c.changeSql(table)));
        String tributaryCommit;
        try {
            awaitHeld(hold, sparkChange, c.name());
            int exit = tributary.run(10);
            if (exit != 0) {
                throw new IllegalStateException(c.name() + ": tributary run exited " + exit + ":\n" + tributary.tail(30));
            }
            tributaryCommit = OpenTransactionCase.engineInfo(hold.commit());
        } finally {
            hold.release();
        }
        String sparkOutcome;
        boolean sparkCommitted;
        try {
            sparkChange.get();
            sparkCommitted = true;
            sparkOutcome = "committed";
        } catch (ExecutionException e) {
            sparkCommitted = false;
            sparkOutcome = "failed: " + OpenTransactionCase.describe(e.getCause());
        }
        List<String> rows = OpenTransactionCase.rows(spark, table);
        Map<String, List<String>> serial = c.serialResults(base, dir, sparkCommitted);
        return new Outcome(c, tributaryCommit, sparkCommitted, sparkOutcome, OpenTransactionCase.history(spark, table, 3), serial, rows);
    }

    private static void awaitHeld(HeldCommitLogStore.Hold hold, CompletableFuture<Void> sparkChange, String name) throws Exception {
        long deadline = System.nanoTime() + SPARK_REACHES_COMMIT.toNanos();
        while (!hold.awaitReached(Duration.ofSeconds(1))) {
            if (sparkChange.isDone()) {
                sparkChange.get(); // its failure, if any
                throw new IllegalStateException(name + ": Spark's change ended without reaching its commit of " + hold.commit());
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(name + ": Spark's change did not reach its commit within " + SPARK_REACHES_COMMIT);
            }
        }
    }

    /** Copies a table, leaving out Hadoop's hidden checksum files. */
    static void copyTable(Path from, Path to) throws IOException {
        SparkFixtures.deleteTree(to);
        try (Stream<Path> files = Files.walk(from)) {
            for (Path p : files.toList()) {
                String name = p.getFileName().toString();
                if (Files.isRegularFile(p) && !(name.startsWith(".") && name.endsWith(".crc"))) {
                    Path target = to.resolve(from.relativize(p).toString());
                    Files.createDirectories(target.getParent());
                    Files.copy(p, target);
                }
            }
        }
    }

    /** What one case gave. */
    private record Outcome(OpenTransactionCase c, String tributaryCommit, boolean sparkCommitted, String sparkOutcome,
            List<String> history, Map<String, List<String>> serial, List<String> rows) {
        /** The serial results the table equals, among those allowed for Spark's outcome. */
        List<String> matching() {
            List<String> out = new ArrayList<>();
            for (Map.Entry<String, List<String>> s : serial.entrySet()) {
                if (s.getValue().equals(rows)) {
                    out.add(s.getKey());
                }
            }
            return out;
        }

        boolean isSerial() {
            return !matching().isEmpty() && OpenTransactionCase.keysOnce(rows);
        }

        String summary() {
            return "spark " + sparkOutcome.lines().findFirst().orElse("") + "; table "
                    + (isSerial() ? "= " + String.join(" = ", matching()) : "equals NO serial result");
        }

        void write(Path file) throws IOException {
            List<String> lines = new ArrayList<>();
            lines.add("case: " + c.name());
            lines.add("table: (id INT, user STRING, amt DOUBLE), delta.enableDeletionVectors=" + c.deletionVectors()
                    + "; v1 inserts ids 1..10 (file A), v2 ids 11..20 (file B)");
            lines.add("spark: " + String.format(c.change(), "t") + "  (reads version 2, held before writing version 3)");
            lines.add("batch: " + String.join(" ", c.batchLines()));
            lines.add("tributary: committed version 3 (" + tributaryCommit + ") while Spark's commit was held");
            lines.add("spark outcome: " + sparkOutcome);
            for (String h : history) {
                lines.add("history: " + h);
            }
            lines.add("keys once: " + OpenTransactionCase.keysOnce(rows));
            lines.add("equals: " + (isSerial() ? String.join(", ", matching()) : "none"));
            for (Map.Entry<String, List<String>> s : serial.entrySet()) {
                lines.add("serial " + s.getKey() + ": " + (s.getValue().equals(rows) ? "same rows" : "differs") + " (" + s.getValue().size() + " rows)");
            }
            lines.add("rows:");
            lines.addAll(rows);
            Files.write(file, lines);
        }
    }
}
