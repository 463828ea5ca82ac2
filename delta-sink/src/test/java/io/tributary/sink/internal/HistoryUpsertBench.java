package io.tributary.sink.internal;

import io.tributary.schema.Schema;
import io.tributary.sink.DeltaTables;
import io.tributary.sink.SinkChanges;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * History upserts (SCD type 2, {@code sink.delta.history: true} with {@code sequenceBy: lsn}) with deletion vectors
 * against copy-on-write (a main, not a test): a table of ROWS keys loaded as one version each ({@code lsn} 0, files of
 * 100,000 rows by id, even ids) takes batches of {@link DeletionVectorBench}'s changes (1% of the keys, half updates of
 * existing keys, a tenth deletes, the rest new keys), batch {@code b} with {@code lsn} {@code b}: an update ends the
 * key's current version and opens one, a delete ends it. Per batch: wall and process CPU seconds, versions ended,
 * rows copied, files removed; at the end the table's versions and current rows against what the batches leave.
 * {@code compat/spark}'s {@code SparkDvBench} with {@code history} applies the same batches with the MERGE Databricks
 * documents for SCD type 2. Usage: {@code HistoryUpsertBench [dir] [batches] [rows] [rounds] [sides]} (defaults
 * {@code target/history-bench 3 1000000 2 dv,cow}: the first round warms the JVM; {@code sides} run in the order given
 * each round: {@code dv}, {@code cow}).
 */
public final class HistoryUpsertBench {
    private static final Schema SCHEMA = Schema.parse("id INT, user STRING, amt DOUBLE, ts TIMESTAMP, op STRING, lsn BIGINT");

    public static void main(String[] args) throws Exception {
        BenchBatches.Args a = BenchBatches.Args.parse(args, "target/history-bench");
        UpsertBench.delete(a.dir());
        for (int round = 0; round < a.rounds(); round++) {
            for (String side : a.sides()) {
                run(a.dir(), side, a.rows(), a.batches());
            }
        }
    }

    private static void run(Path dir, String side, int rows, int batches) {
        boolean dv = side.equals("dv");
        if (!dv && !side.equals("cow")) {
            throw new IllegalArgumentException("HistoryUpsertBench: unknown side " + side + " (dv or cow)");
        }
        Path table = dir.resolve(side + "-" + System.nanoTime());
        WriteMode mode = BenchBatches.mode(table, SCHEMA, List.of("id"),
                new SinkChanges("lsn", "op = 'd'", List.of("op"), SinkChanges.DEFAULT_DELETE_RETENTION, true),
                dv ? Map.of("delta.enableDeletionVectors", "true") : Map.of());
        BitSet current = new BitSet();
        long versions = 0;
        long batchId = 0;
        long l0 = System.nanoTime();
        for (int from = 0; from < rows; from += BenchBatches.LOAD_CHUNK) { // ascending key ranges: each chunk only inserts
            List<Object[]> chunk = new ArrayList<>();
            for (int id = from; id < Math.min(rows, from + BenchBatches.LOAD_CHUNK); id++) {
                chunk.add(new Object[] {id * 2, "u" + (id % 1000), id * 0.5, BenchBatches.TS + id, "i", 0L});
                current.set(id * 2);
            }
            versions += chunk.size();
            BenchBatches.write(mode, batchId++, chunk);
        }
        System.out.printf("  history %s: %,d rows loaded in %.1f s wall%n", side, rows, (System.nanoTime() - l0) / 1e9);
        List<BenchBatches.Measured> measured = new ArrayList<>();
        for (int b = 1; b <= batches; b++) {
            List<Object[]> changes = new ArrayList<>();
            for (Object[] c : DeletionVectorBench.batch(new Random(b), rows)) {
                Object[] change = Arrays.copyOf(c, 6);
                change[5] = (long) b;
                changes.add(change);
                boolean delete = "d".equals(c[4]);
                versions += delete ? 0 : 1; // every change other than a delete opens a version (a new sequence each batch)
                current.set((Integer) c[0], !delete);
            }
            long id = batchId++;
            BenchBatches.Measured m = BenchBatches.measure(() -> BenchBatches.write(mode, id, changes));
            measured.add(m);
            CommitResult r = m.result();
            System.out.printf("  history %s batch %d: %.2f s wall, %.2f s CPU (%.2f s of it the batch's own thread); %,d keys: versions ended %s,"
                    + " inserted %s, copied %s; files scanned %s, removed %s, added %s, deletion vectors %s/%s%n", side, b, m.wall(), m.cpu(),
                    m.thread(), changes.size(), r.metrics().get("numTargetRowsUpdated"), r.metrics().get("numTargetRowsInserted"),
                    r.metrics().get("numTargetRowsCopied"), r.metrics().get("numTargetFilesScanned"), r.metrics().get("numTargetFilesRemoved"),
                    r.metrics().get("numTargetFilesAdded"), BenchBatches.metric(r, "numTargetDeletionVectorsAdded"),
                    BenchBatches.metric(r, "numTargetDeletionVectorsUpdated"));
        }
        BenchBatches.Measured median = BenchBatches.medians(measured);
        List<Object[]> stored = DeltaTables.readRows(table.toString());
        long open = stored.stream().filter(row -> row[row.length - 1] == null).count();
        boolean expected = stored.size() == versions && open == current.cardinality();
        System.out.printf("RESULT history %s: %,d changes a batch into %,d rows, median per batch %.2f s CPU (%.2f s the batch's thread), %.2f s wall;"
                + " table %,d versions, %,d current (%s)%n", dv ? "deletion vectors" : "copy-on-write", rows / 100, rows, median.cpu(),
                median.thread(), median.wall(), stored.size(), open,
                expected ? "as expected" : "EXPECTED " + versions + " versions, " + current.cardinality() + " current");
    }
}
