package io.tributary.sink.internal;

import io.delta.kernel.Snapshot;
import io.delta.kernel.Transaction;
import io.delta.kernel.data.Row;
import io.delta.kernel.expressions.AlwaysTrue;
import io.tributary.sink.SinkOffsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The table becomes the batch's rows (Spark's Delta sink in {@code complete} output mode): every
 * current file is removed and the batch's rows are added, in one commit. With key columns, rows
 * of one key collapse first as in an upsert (so a batch that holds two full results of an
 * aggregation keeps the later one); tombstones then delete, else they are skipped. A concurrent
 * commit makes {@link RewriteCommitter} plan again, so a concurrent append is never dropped.
 */
final class CompleteReplace implements WriteMode {
    private final DeltaTableWriter writer;
    private final RewriteCommitter committer;
    private final KeyColumns keys; // null: no collapse
    private final int rowsPerFile;

    CompleteReplace(DeltaTableWriter writer, RewriteCommitter committer, KeyColumns keys, int rowsPerFile) {
        this.writer = writer;
        this.committer = committer;
        this.keys = keys;
        this.rowsPerFile = rowsPerFile;
    }

    @Override
    public CommitResult write(String appId, long batchId, TopicBatch batch, Map<Integer, Long> expectedStart, SinkOffsets next) {
        if (keys != null) {
            return commit(appId, batchId, BatchChanges.collapse(batch, keys, -1), expectedStart, next, batch.rows().size());
        }
        List<Object[]> rows = batch.rows().stream().filter(Objects::nonNull).toList();
        return committer.commit(appId, batchId, (snapshot, txn) -> plan(snapshot, txn, rows, null, batch.rows().size()), expectedStart, next);
    }

    /** With key columns the batch collapses while it is read; without, every row is kept and the batch comes whole. */
    @Override
    public Optional<KeyedBatch> openKeyed(String appId, long batchId, Map<Integer, Long> expectedStart, int expectedRecords) {
        if (keys == null) {
            return Optional.empty();
        }
        BatchChanges.Collector collector = BatchChanges.collector(keys, -1, expectedRecords);
        return Optional.of(KeyedBatch.collecting(collector,
                (changes, next, sourceRows) -> commit(appId, batchId, changes, expectedStart, next, sourceRows)));
    }

    private CommitResult commit(String appId, long batchId, BatchChanges changes, Map<Integer, Long> expectedStart, SinkOffsets next,
            long sourceRows) {
        List<Object[]> rows = changes.upserts();
        Comparator<Object[]> order = changes.upsertsInKeyOrder() ? null : keys.rowOrder();
        return committer.commit(appId, batchId, (snapshot, txn) -> plan(snapshot, txn, rows, order, sourceRows), expectedStart, next);
    }

    @Override
    public boolean keyed() {
        return true;
    }

    /** @param order how to sort {@code rows}; null when they are in order (or have none) */
    private RewritePlan plan(Optional<Snapshot> snapshot, Transaction txn, List<Object[]> rows, Comparator<Object[]> order, long sourceRows) {
        List<Row> actions = new ArrayList<>();
        Set<String> files = new LinkedHashSet<>();
        if (snapshot.isPresent()) {
            // the remove actions need each file's add entry, not its rows: a scan that reads no data
            FileScan.removals(writer.engine(), snapshot.get(), (identity, remove) -> {
                files.add(identity);
                actions.add(remove);
            });
        }
        actions.addAll(SortedFiles.write(writer, txn, order == null ? rows : new ArrayList<>(rows), order, rowsPerFile));
        Map<String, Object> metrics = new LinkedHashMap<>();
        metrics.put("numSourceRows", sourceRows);
        metrics.put("numOutputRows", (long) rows.size());
        metrics.put("numTargetFilesRemoved", (long) files.size());
        metrics.put("numTargetFilesAdded", (long) (actions.size() - files.size()));
        return new RewritePlan(actions, snapshot.map(Snapshot::getVersion).orElse(-1L),
                snapshot.isPresent() ? AlwaysTrue.ALWAYS_TRUE : null, files, files, metrics);
    }
}
