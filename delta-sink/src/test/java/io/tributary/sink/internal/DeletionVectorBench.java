package io.tributary.sink.internal;

import io.tributary.schema.Schema;
import io.tributary.sink.DeltaTables;
import io.tributary.sink.SinkChanges;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

/**
 * Deletion vectors against copy-on-write (a main, not a test): a table of ROWS rows (files of 100,000 rows, as the
 * upsert writes them; even ids 0, 2, 4...) takes batches that change 1% of its keys, spread over all of it: half
 * updates of existing keys, a tenth deletes of existing keys ({@code deleteWhen: "op = 'd'"}), the rest new keys (odd
 * ids), with {@code delta.enableDeletionVectors} on and off. Per batch: wall and process CPU seconds, rows copied,
 * files removed; at the end the table's row count against the keys the batches leave. {@code compat/spark}'s
 * {@code SparkDvBench} makes the same table and batches for Spark's MERGE.
 * Usage: {@code DeletionVectorBench [dir] [batches] [rows] [rounds] [sides]} (defaults {@code target/dv-bench 3 1000000 2
 * dv,cow}: the first round warms the JVM; {@code sides}, run in the order given each round: {@code dv}, {@code cow}, and
 * variants of {@code dv}: {@code dv-2keys} keyed by {@code id} and {@code ts} (an INT and a TIMESTAMP; a change's
 * {@code ts} is then its row's), {@code dv-skey} keyed by the STRING {@code user} ({@code "k"} and the id), {@code dv-ukey}
 * keyed by {@code user} holding a random-looking UUID of the id, loaded a file at a time so that every file's key
 * statistics span all keys, {@code dv-cdf} with {@code delta.enableChangeDataFeed} on, {@code dv-2keys-cdf},
 * {@code dv-skey-cdf} and {@code dv-ukey-cdf} both; {@code wide} adds twelve STRING columns). An optional sixth argument {@code changes} sets the changes a batch
 * makes (default rows / 100): {@code dv-ukey-cdf} or {@code dv-ukey-wide-cdf} with 10 changes into 1M rows is the
 * sparse case, where the key statistics keep every file and only some of them hold a changed key.
 */
public final class DeletionVectorBench {
    private static final Schema SCHEMA = Schema.parse("id INT, user STRING, amt DOUBLE, ts TIMESTAMP, op STRING");
    private static final int WIDE = 12; // the extra STRING columns of a "wide" side
    private static final Schema WIDE_SCHEMA = Schema.parse(SCHEMA.toDdl() + java.util.stream.IntStream.range(0, WIDE)
            .mapToObj(i -> ", c" + i + " STRING").collect(java.util.stream.Collectors.joining()));
    private static final int FILE_ROWS = 100_000; // the upsert's rowsPerFile

    public static void main(String[] args) throws Exception {
        BenchBatches.Args a = BenchBatches.Args.parse(args, "target/dv-bench");
        int changes = args.length > 5 ? Integer.parseInt(args[5]) : a.rows() / 100;
        UpsertBench.delete(a.dir());
        for (int round = 0; round < a.rounds(); round++) {
            for (String side : a.sides()) {
                run(a.dir(), side, a.rows(), a.batches(), changes);
            }
        }
    }

    private static void run(Path dir, String side, int rows, int batches, int changeCount) {
        boolean dv = side.startsWith("dv");
        boolean twoKeys = side.contains("2keys");
        boolean uuidKey = side.contains("ukey");
        boolean stringKey = side.contains("skey") || uuidKey;
        boolean wide = side.contains("wide");
        Path table = dir.resolve(side + "-" + System.nanoTime());
        Map<String, String> properties = new java.util.HashMap<>();
        if (dv) {
            properties.put("delta.enableDeletionVectors", "true");
        }
        if (side.contains("cdf")) {
            properties.put("delta.enableChangeDataFeed", "true");
        }
        WriteMode mode = BenchBatches.mode(table, wide ? WIDE_SCHEMA : SCHEMA, twoKeys ? List.of("id", "ts") : stringKey ? List.of("user") : List.of("id"),
                new SinkChanges(null, "op = 'd'", List.of("op"), SinkChanges.DEFAULT_DELETE_RETENTION), properties);
        BitSet keys = new BitSet();
        long batchId = 0;
        long l0 = System.nanoTime();
        int load = uuidKey ? FILE_ROWS : BenchBatches.LOAD_CHUNK;
        for (int from = 0; from < rows; from += load) { // ascending key ranges: each chunk only inserts
            List<Object[]> chunk = new ArrayList<>();
            for (int id = from; id < Math.min(rows, from + load); id++) {
                chunk.add(new Object[] {id * 2, uuidKey ? uuid(id * 2) : stringKey ? "k" + id * 2 : "u" + (id % 1000), id * 0.5, BenchBatches.TS + id, "i"});
                keys.set(id * 2);
            }
            BenchBatches.write(mode, batchId++, wide ? widen(chunk) : chunk);
        }
        System.out.printf("  %s: %,d rows loaded in %.1f s wall%n", side, rows, (System.nanoTime() - l0) / 1e9);
        List<BenchBatches.Measured> measured = new ArrayList<>();
        for (int b = 1; b <= batches; b++) {
            List<Object[]> changes = batch(new Random(b), rows, changeCount, twoKeys);
            if (stringKey) {
                changes.forEach(c -> c[1] = uuidKey ? uuid((Integer) c[0]) : "k" + c[0]);
            }
            for (Object[] c : changes) {
                keys.set((Integer) c[0], !"d".equals(c[4]));
            }
            long id = batchId++;
            List<Object[]> written = wide ? widen(changes) : changes;
            BenchBatches.Measured m = BenchBatches.measure(() -> BenchBatches.write(mode, id, written));
            measured.add(m);
            CommitResult r = m.result();
            System.out.printf("  %s batch %d: %.2f s wall, %.2f s CPU (%.2f s of it the batch's own thread, the rest GC and JIT); %,d keys: rows updated %s, deleted %s, inserted %s, copied %s;"
                    + " files removed %s, added %s, deletion vectors %s/%s%n", side, b, m.wall(), m.cpu(), m.thread(), changes.size(),
                    r.metrics().get("numTargetRowsUpdated"), r.metrics().get("numTargetRowsDeleted"), r.metrics().get("numTargetRowsInserted"),
                    r.metrics().get("numTargetRowsCopied"), r.metrics().get("numTargetFilesRemoved"), r.metrics().get("numTargetFilesAdded"),
                    BenchBatches.metric(r, "numTargetDeletionVectorsAdded"), BenchBatches.metric(r, "numTargetDeletionVectorsUpdated"));
        }
        BenchBatches.Measured median = BenchBatches.medians(measured);
        int count = DeltaTables.readRows(table.toString()).size();
        System.out.printf("RESULT %s: %,d changes a batch into %,d rows, median per batch %.2f s CPU (%.2f s the batch's thread), %.2f s wall; table %,d rows (%s)%n",
                dv ? "deletion vectors" + side.substring(2) : "copy-on-write", changeCount, rows, median.cpu(), median.thread(), median.wall(), count,
                count == keys.cardinality() ? "as expected" : "EXPECTED " + keys.cardinality());
    }

    /**
     * rows / 100 changes (the last per key kept): half updates of existing keys (even ids), a tenth deletes of existing
     * keys, the rest new keys (odd ids), spread over the whole key range. {@code SparkDvBench} makes the same.
     */
    static List<Object[]> batch(Random rnd, int rows) {
        return batch(rnd, rows, rows / 100, false);
    }

    /**
     * As above, {@code count} changes; with {@code twoKeys} each change's {@code ts} is the one its key's row was loaded
     * with (new keys: their own).
     */
    static List<Object[]> batch(Random rnd, int rows, int count, boolean twoKeys) {
        Map<Integer, Object[]> changes = new LinkedHashMap<>();
        for (int k = 0; k < count; k++) {
            int kind = k % 10;
            int id = rnd.nextInt(rows) * 2 + (kind >= 6 ? 1 : 0);
            changes.remove(id);
            changes.put(id, new Object[] {id, "upd", -1.0, twoKeys ? BenchBatches.TS + id / 2 : 0L, kind == 5 ? "d" : "u"});
        }
        return new ArrayList<>(changes.values());
    }

    /** The {@code user} of id {@code id} in a {@code ukey} table: a UUID made of the id, random-looking, so keys sort apart from ids. */
    private static String uuid(int id) {
        return UUID.nameUUIDFromBytes(Integer.toString(id).getBytes(StandardCharsets.UTF_8)).toString();
    }

    /** Rows with {@value #WIDE} more STRING columns of two dozen characters each, made of the id. */
    private static List<Object[]> widen(List<Object[]> rows) {
        List<Object[]> out = new ArrayList<>(rows.size());
        for (Object[] row : rows) {
            Object[] w = Arrays.copyOf(row, row.length + WIDE);
            for (int i = 0; i < WIDE; i++) {
                w[row.length + i] = String.format("c%d-%020d", i, ((Integer) row[0]).longValue() * 7919 + i);
            }
            out.add(w);
        }
        return out;
    }
}
