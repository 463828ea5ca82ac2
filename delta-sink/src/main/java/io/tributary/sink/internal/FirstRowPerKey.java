package io.tributary.sink.internal;

import io.delta.kernel.Snapshot;
import io.delta.kernel.Transaction;
import io.delta.kernel.data.Row;
import io.delta.kernel.expressions.Predicate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Spark's {@code dropDuplicates(keys)} kept in the table itself, for writers that keep their progress per topic
 * partition: the table holds the first row of every key it was given, so the keys it holds are the keys seen. A batch
 * keeps the first row of each of its keys, reads the key columns of the files whose statistics may hold one of them
 * ({@link KeyPredicates}) and appends the rows whose key the table does not hold; it removes nothing. Its commit is
 * never rebased ({@link RewriteCommitter}): when another writer added a file that may hold one of its keys, the batch
 * looks again, so two writers never both add a key.
 */
final class FirstRowPerKey {
    private final DeltaTableWriter writer;
    private final KeyColumns keys;
    private final int rowsPerFile;

    FirstRowPerKey(DeltaTableWriter writer, KeyColumns keys, int rowsPerFile) {
        this.writer = writer;
        this.keys = keys;
        this.rowsPerFile = rowsPerFile;
    }

    /** A batch's first row of each key, in the order the keys came. */
    Map<Key, Object[]> collector() {
        return new LinkedHashMap<>();
    }

    /** Adds {@code row} to {@code batch} unless a row of its key came before; false when it is a duplicate. */
    boolean add(Map<Key, Object[]> batch, Object[] row) {
        return batch.putIfAbsent(keys.of(row), row) == null;
    }

    /** Reads the keys of the files that may hold the batch's and writes its rows of the others; commits nothing. */
    RewritePlan plan(Optional<Snapshot> snapshot, Transaction txn, Map<Key, Object[]> batch, long sourceRows) {
        Set<Key> held = new HashSet<>();
        Set<String> read = new LinkedHashSet<>();
        Predicate filter = null;
        if (snapshot.isPresent() && !batch.isEmpty()) {
            filter = KeyPredicates.forKeys(keys.keySchema(), batch.keySet());
            Set<String> columns = new HashSet<>();
            keys.keySchema().fields().forEach(f -> columns.add(f.name()));
            FileScan.read(writer.engine(), snapshot.get(), filter, false, columns, file -> {
                read.add(file.identity());
                for (Object[] row : file.rows()) {
                    Key key = keys.of(row);
                    if (batch.containsKey(key)) {
                        held.add(key);
                    }
                }
            });
        }
        List<Object[]> fresh = new ArrayList<>(batch.size() - held.size());
        batch.forEach((key, row) -> {
            if (!held.contains(key)) {
                fresh.add(row);
            }
        });
        ChangeFeed feed = ChangeFeed.of(snapshot);
        int width = keys.schema().fields().size();
        fresh.forEach(row -> feed.add(ChangeFeed.INSERT, row, width));
        List<Row> adds = SortedFiles.write(writer, txn, fresh, keys.rowOrder(), rowsPerFile);
        Map<String, Object> metrics = RewritePlan.mergeMetrics(sourceRows, batch.size(), fresh.size(), new long[3], read.size(), 0,
                adds.size());
        metrics.put("numSourceRowsDuplicated", sourceRows - fresh.size());
        Map.Entry<List<Row>, Integer> commit = feed.commit(writer, txn, List.of(), adds);
        return new RewritePlan(commit.getKey(), snapshot.map(Snapshot::getVersion).orElse(-1L), filter, read, Set.of(), metrics,
                Map.of(), commit.getValue());
    }
}
