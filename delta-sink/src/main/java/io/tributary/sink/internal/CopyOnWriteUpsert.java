package io.tributary.sink.internal;

import io.delta.kernel.Snapshot;
import io.delta.kernel.Transaction;
import io.delta.kernel.data.Row;
import io.delta.kernel.expressions.Predicate;
import io.tributary.sink.SinkOffsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * MERGE by key, copy-on-write (Spark's {@code foreachBatch} with {@code dropDuplicates(keys)} and
 * {@code MERGE ... whenMatchedUpdateAll whenNotMatchedInsertAll}, plus deletes by tombstone):
 * the batch collapses to one change per key ({@link BatchChanges}); the files whose statistics
 * may hold one of its keys ({@link KeyPredicates}) are read; each file that does hold one is
 * removed and its other rows are written again with the batch's rows, sorted by key, in files of
 * at most {@code rowsPerFile} rows. Files without a matching row stay; a batch of new keys only
 * rewrites nothing. All removes and adds are one commit ({@link RewriteCommitter}). On a table with
 * deletion vectors on, a file that holds one of the keys is kept and its replaced rows are marked
 * deleted in its deletion vector instead ({@link ReplacedRows}).
 */
final class CopyOnWriteUpsert implements WriteMode {
    /** The keys of a batch kept in memory before the rest spill to local disk ({@link SpillingCollector}): 1,048,576. */
    static final int SPILL_KEYS = 1 << 20;

    private final DeltaTableWriter writer;
    private final RewriteCommitter committer;
    private final KeyColumns keys;
    private final int orderIndex;
    private final int rowsPerFile;
    private final int spillKeys;

    CopyOnWriteUpsert(DeltaTableWriter writer, RewriteCommitter committer, KeyColumns keys, String order, int rowsPerFile) {
        this(writer, committer, keys, order, rowsPerFile, SPILL_KEYS);
    }

    /** @param spillKeys the keys a batch read in Kafka order ({@link #openKeyed}) holds in memory before it spills them to disk */
    CopyOnWriteUpsert(DeltaTableWriter writer, RewriteCommitter committer, KeyColumns keys, String order, int rowsPerFile, int spillKeys) {
        this.spillKeys = spillKeys;
        this.writer = writer;
        this.committer = committer;
        this.keys = keys;
        this.orderIndex = order == null ? -1 : keys.schema().indexOf(order);
        this.rowsPerFile = rowsPerFile;
    }

    @Override
    public CommitResult write(String appId, long batchId, TopicBatch batch, Map<Integer, Long> expectedStart, SinkOffsets next) {
        BatchChanges changes = BatchChanges.collapse(batch, keys, orderIndex);
        return committer.commit(appId, batchId, (snapshot, txn) -> plan(snapshot, txn, changes, batch.rows().size()), expectedStart, next);
    }

    @Override
    public Optional<KeyedBatch> openKeyed(String appId, long batchId, Map<Integer, Long> expectedStart, int expectedRecords) {
        BatchChanges.Collector collector = SpillingCollector.fits(keys) ? new SpillingCollector(keys, orderIndex, expectedRecords, spillKeys)
                : BatchChanges.collector(keys, orderIndex, expectedRecords);
        return Optional.of(KeyedBatch.collecting(collector, (changes, next, sourceRows) -> {
            try {
                return committer.commit(appId, batchId, (snapshot, txn) -> plan(snapshot, txn, changes, sourceRows), expectedStart, next);
            } finally {
                if (changes instanceof SpilledChanges spilled) {
                    spilled.close();
                }
            }
        }));
    }

    @Override
    public boolean keyed() {
        return true;
    }

    BatchChanges collapse(TopicBatch batch) {
        return BatchChanges.collapse(batch, keys, orderIndex);
    }

    /** Reads the files that hold the batch's keys and writes the new ones; commits nothing. */
    RewritePlan plan(Optional<Snapshot> snapshot, Transaction txn, BatchChanges changes, long sourceRows) {
        List<Object[]> upserts = changes.upserts();
        ReplacedRows replaced = ReplacedRows.of(writer, snapshot);
        ChangeFeed feed = ChangeFeed.of(snapshot);
        int width = keys.schema().fields().size();
        Set<String> read = new LinkedHashSet<>();
        Set<String> removed = new LinkedHashSet<>();
        Set<Key> matched = new HashSet<>();
        long[] counts = new long[4]; // updated rows, deleted rows, copied rows, upserted keys found in the table
        Predicate filter = null;
        if (snapshot.isPresent()) {
            filter = KeyPredicates.forKeys(keys.keySchema(), changes.keys());
            Set<String> columns = lookupColumns(snapshot.get(), replaced);
            MatchedRows whole = MatchedRows.of(writer.engine(), snapshot.get(), keys.keySchema(), columns);
            KeyProbe probe = replaced.rowIndexes() ? KeyProbe.of(keys, changes.keys()) : null;
            FileScan.read(writer.engine(), snapshot.get(), filter, replaced.rowIndexes(), columns, probe, whole::wholeNext, file -> {
                read.add(file.identity());
                List<Object[]> rows = file.rows();
                List<Object[]> survivors = new ArrayList<>(rows.size());
                List<Integer> hits = new ArrayList<>();
                List<String> types = new ArrayList<>();
                List<Key> hitKeys = new ArrayList<>();
                for (int i = 0; i < rows.size(); i++) {
                    Object[] row = rows.get(i);
                    Key key = keys.of(row);
                    BatchChanges.Change change = changes.change(key);
                    if (change == null) {
                        survivors.add(row);
                        continue;
                    }
                    hits.add(i);
                    boolean delete = change == BatchChanges.Change.DELETE;
                    if (matched.add(key) && !delete) {
                        counts[3]++;
                    }
                    counts[delete ? 1 : 0]++;
                    types.add(delete ? ChangeFeed.DELETE : ChangeFeed.UPDATE_PREIMAGE);
                    hitKeys.add(key);
                }
                whole.feed(feed, file, hits, types, hitKeys, width);
                if (!hits.isEmpty()) {
                    removed.add(file.identity());
                    replaced.replace(file, survivors, hits);
                }
            });
        }
        long inserted = upserts.size() - counts[3];
        for (Object[] upsert : feed.on() ? upserts : List.<Object[]>of()) {
            feed.add(matched.contains(keys.of(upsert)) ? ChangeFeed.UPDATE_POSTIMAGE : ChangeFeed.INSERT, upsert, width);
        }
        List<Row> removes = replaced.removes();
        List<Row> adds = new ArrayList<>(replaced.readds());
        List<Object[]> output = replaced.rewritten();
        counts[2] = output.size();
        if (output.isEmpty() && changes.upsertsInKeyOrder()) {
            adds.addAll(SortedFiles.write(writer, txn, upserts, null, rowsPerFile));
        } else {
            output.addAll(upserts);
            adds.addAll(SortedFiles.write(writer, txn, output, keys.rowOrder(), rowsPerFile));
        }
        int readds = replaced.readds().size();
        Map<String, Object> metrics = RewritePlan.mergeMetrics(sourceRows, changes.size(), inserted, counts, read.size(), removed.size(),
                adds.size() - readds);
        replaced.addMetrics(metrics);
        Map.Entry<List<Row>, Integer> commit = feed.commit(writer, txn, removes, adds);
        metrics.put("numTargetChangeFilesAdded", (long) commit.getValue());
        return new RewritePlan(commit.getKey(), snapshot.map(Snapshot::getVersion).orElse(-1L), filter, read, removed, metrics, Map.of(),
                commit.getValue() + readds);
    }

    /**
     * The columns the key lookup reads: the keys alone when no row of the files is written again (the change feed's old
     * values are then read by {@link MatchedRows}); null: all.
     */
    private Set<String> lookupColumns(Snapshot snapshot, ReplacedRows replaced) {
        return replaced.rowIndexes() ? MatchedRows.lookupColumns(snapshot, keys.keySchema()) : null;
    }
}
