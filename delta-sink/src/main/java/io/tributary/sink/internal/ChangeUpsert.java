package io.tributary.sink.internal;

import io.delta.kernel.Snapshot;
import io.delta.kernel.Transaction;
import io.delta.kernel.data.Row;
import io.delta.kernel.expressions.Predicate;
import io.tributary.schema.DataType;
import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import io.tributary.sink.SinkChanges;
import io.tributary.sink.SinkConfig;
import io.tributary.sink.SinkOffsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * MERGE of change data by key (Databricks' AUTO CDC, {@code docs/cdc.md}), copy-on-write as
 * {@link CopyOnWriteUpsert} (or with deletion vectors, {@link ReplacedRows}): each row is a change of its key, stored without {@code exceptColumns};
 * one matching {@code deleteWhen} deletes the key. Within a batch the change with the greatest
 * {@code sequenceBy} value per key wins (ties and no sequenceBy: the later in Kafka order). Across
 * batches, with sequenceBy, a change whose sequence is not above the one the table holds for its
 * key (in its row, or in the key's {@link DeleteMarkers delete marker}) is skipped and counted.
 */
final class ChangeUpsert implements WriteMode {
    /** The column a change has after the table's: true if it deletes its key. */
    private static final String DELETES = "__tributary_deletes";
    private final DeltaTableWriter writer;
    private final RewriteCommitter committer;
    private final KeyColumns keys;
    private final KeyColumns changeKeys;
    private final int[] projection;
    private final DeleteCondition deleteWhen;
    private final int sequenceIndex;
    private final Field sequence;
    private final Comparator<Object> sequenceOrder;
    private final long retentionMillis;
    private final int rowsPerFile;
    private final LongSupplier clock;

    ChangeUpsert(DeltaTableWriter writer, RewriteCommitter committer, SinkConfig config) {
        this(writer, committer, config, System::currentTimeMillis);
    }

    /** As above, the delete markers timed by {@code clock} (epoch milliseconds). */
    ChangeUpsert(DeltaTableWriter writer, RewriteCommitter committer, SinkConfig config, LongSupplier clock) {
        this(writer, committer, config.schema(), config.keys(), config.changes(), config.rowsPerFile(), clock);
    }

    /**
     * The change-data MERGE of rows of {@code rows} by {@code keys} into a table of the rows'
     * columns without {@code changes.exceptColumns()}: the sink's, and the Connect sink's
     * ({@link PartitionUpsert}), which commits through a claim of its own.
     */
    ChangeUpsert(DeltaTableWriter writer, RewriteCommitter committer, Schema rows, List<String> keyColumns, SinkChanges changes,
                 int rowsPerFile, LongSupplier clock) {
        Schema table = changes.tableSchema(rows);
        this.writer = writer;
        this.committer = committer;
        this.keys = new KeyColumns(table, keyColumns);
        List<Field> changeFields = new ArrayList<>(table.fields());
        changeFields.add(new Field(DELETES, DataType.BOOLEAN, false));
        this.changeKeys = new KeyColumns(new Schema(changeFields), keyColumns);
        this.projection = table.fields().stream().mapToInt(f -> rows.indexOf(f.name())).toArray();
        this.deleteWhen = changes.deleteWhen() == null ? null : DeleteCondition.compile(rows, changes.deleteWhen());
        this.sequenceIndex = changes.sequenceBy() == null ? -1 : table.indexOf(changes.sequenceBy());
        this.sequence = sequenceIndex < 0 ? null : table.field(sequenceIndex);
        this.sequenceOrder = sequence == null ? null : KeyColumns.valueOrder(sequence.type());
        this.retentionMillis = changes.deleteRetention().toMillis();
        this.rowsPerFile = rowsPerFile;
        this.clock = clock;
    }

    /** A new batch's collector of changes ({@link #change} rows), collapsed per key by the sequence. */
    BatchChanges.Collector collector(int expectedRecords) {
        return BatchChanges.collector(changeKeys, sequenceIndex, expectedRecords);
    }

    @Override
    public CommitResult write(String appId, long batchId, TopicBatch batch, Map<Integer, Long> expectedStart, SinkOffsets next) {
        List<Object[]> rows = batch.rows();
        List<RecordOrigin> origins = batch.origins();
        BatchChanges.Collector collector = collector(rows.size());
        for (int i : BatchChanges.kafkaOrder(origins, rows.size())) {
            RecordOrigin origin = origins == null ? null : origins.get(i);
            collector.add(origin, change(origin, rows.get(i)));
        }
        BatchChanges changes = collector.build();
        return committer.commit(appId, batchId, (snapshot, txn) -> plan(snapshot, txn, changes, rows.size()), expectedStart, next);
    }

    @Override
    public Optional<KeyedBatch> openKeyed(String appId, long batchId, Map<Integer, Long> expectedStart, int expectedRecords) {
        BatchChanges.Collector collector = collector(expectedRecords);
        KeyedBatch.Commit commit = (changes, next, sourceRows) ->
                committer.commit(appId, batchId, (snapshot, txn) -> plan(snapshot, txn, changes, sourceRows), expectedStart, next);
        return Optional.of(new KeyedBatch() {
            @Override
            public void add(RecordOrigin origin, Object[] row) {
                collector.add(origin, change(origin, row));
            }

            @Override
            public CommitResult commit(SinkOffsets next, long sourceRows) {
                return commit.commit(collector.build(), next, sourceRows);
            }
        });
    }

    @Override
    public boolean keyed() {
        return true;
    }

    /** A record's row as a change: its table columns, then whether it deletes its key; null (a Kafka tombstone) stays null. */
    Object[] change(RecordOrigin origin, Object[] row) {
        if (row == null) {
            return null;
        }
        Object[] out = new Object[projection.length + 1];
        for (int i = 0; i < projection.length; i++) {
            out[i] = row[projection[i]];
        }
        out[projection.length] = deleteWhen != null && deleteWhen.deletes(row, origin);
        return out;
    }

    private boolean deletes(Object[] change) {
        return (Boolean) change[projection.length];
    }

    private boolean notAbove(Object[] change, Object stored) {
        return sequenceIndex >= 0 && sequenceOrder.compare(change[sequenceIndex], stored) <= 0;
    }

    /** Reads the files that hold the batch's keys and writes the new ones, with the delete markers; commits nothing. */
    RewritePlan plan(Optional<Snapshot> snapshot, Transaction txn, BatchChanges changes, long sourceRows) {
        long now = clock.getAsLong();
        DeleteMarkers markers = sequence == null ? null : DeleteMarkers.read(snapshot, DeleteMarkers.MARKERS, keys, sequence);
        long expired = markers == null ? 0 : markers.expire(now - retentionMillis);
        Map<Key, Object[]> pending = new HashMap<>();
        long skipped = 0;
        for (Object[] change : changes.upserts()) {
            Key key = keys.of(change);
            DeleteMarkers.Marker marker = markers == null ? null : markers.get(key);
            if (marker != null && notAbove(change, marker.sequence())) {
                skipped++;
            } else {
                pending.put(key, change);
            }
        }
        ReplacedRows replaced = ReplacedRows.of(writer, snapshot);
        ChangeFeed feed = ChangeFeed.of(snapshot);
        int width = projection.length;
        Set<String> read = new LinkedHashSet<>();
        Set<String> removed = new LinkedHashSet<>();
        Set<Key> matched = new HashSet<>();
        long[] counts = new long[4]; // updated rows, deleted rows, copied rows, skipped changes
        Predicate filter = null;
        if (snapshot.isPresent()) {
            filter = KeyPredicates.forKeys(keys.keySchema(), changes.keys());
            Set<String> columns = lookupColumns(snapshot.get(), replaced);
            MatchedRows whole = MatchedRows.of(writer.engine(), snapshot.get(), keys.keySchema(), columns);
            KeyProbe probe = replaced.rowIndexes() ? KeyProbe.of(keys, changes.keys()) : null;
            FileScan.read(writer.engine(), snapshot.get(), filter, replaced.rowIndexes(), columns, probe, whole::wholeNext, file -> {
                List<Object[]> rows = file.rows();
                List<Object[]> survivors = new ArrayList<>(rows.size());
                List<Integer> hits = new ArrayList<>();
                List<String> types = new ArrayList<>();
                List<Key> hitKeys = new ArrayList<>();
                read.add(file.identity());
                for (int i = 0; i < rows.size(); i++) {
                    Object[] row = rows.get(i);
                    Key key = keys.of(row);
                    Object[] change = pending.get(key);
                    boolean tombstone = change == null && changes.change(key) == BatchChanges.Change.DELETE;
                    if (change != null && sequenceIndex >= 0 && notAbove(change, row[sequenceIndex])) {
                        counts[3]++;
                        pending.remove(key);
                    }
                    if (tombstone || change != null && pending.containsKey(key)) {
                        hits.add(i);
                        matched.add(key);
                        boolean delete = tombstone || deletes(change);
                        counts[delete ? 1 : 0]++;
                        types.add(delete ? ChangeFeed.DELETE : ChangeFeed.UPDATE_PREIMAGE);
                        hitKeys.add(key);
                    } else {
                        survivors.add(row);
                    }
                }
                whole.feed(feed, file, hits, types, hitKeys, width);
                if (!hits.isEmpty()) {
                    removed.add(file.identity());
                    replaced.replace(file, survivors, hits);
                }
            });
        }
        List<Object[]> output = replaced.rewritten();
        counts[2] = output.size();
        long inserted = 0;
        long deletedAbsent = 0;
        for (Map.Entry<Key, Object[]> e : pending.entrySet()) {
            Object[] change = e.getValue();
            if (deletes(change)) {
                deletedAbsent += matched.contains(e.getKey()) ? 0 : 1;
                if (markers != null) {
                    markers.put(e.getKey(), change[sequenceIndex], now);
                }
                continue;
            }
            boolean update = matched.contains(e.getKey());
            inserted += update ? 0 : 1;
            if (markers != null) {
                markers.remove(e.getKey());
            }
            output.add(Arrays.copyOf(change, projection.length));
            feed.add(update ? ChangeFeed.UPDATE_POSTIMAGE : ChangeFeed.INSERT, change, width);
        }
        List<Row> removes = replaced.removes();
        List<Row> adds = new ArrayList<>(replaced.readds());
        int readds = adds.size();
        adds.addAll(SortedFiles.write(writer, txn, output, keys.rowOrder(), rowsPerFile));
        Optional<String> markerJson = markers == null ? Optional.empty() : markers.changedJson();
        Map<String, Object> metrics = RewritePlan.mergeMetrics(sourceRows, changes.size(), inserted, counts, read.size(), removed.size(),
                adds.size() - readds);
        replaced.addMetrics(metrics);
        metrics.put("numSourceKeysSkippedOutOfOrder", counts[3] + skipped);
        metrics.put("numSourceDeletesOfAbsentKeys", deletedAbsent);
        metrics.put("numDeleteMarkers", markers == null ? 0L : (long) markers.size());
        metrics.put("numDeleteMarkersExpired", expired);
        Map.Entry<List<Row>, Integer> commit = feed.commit(writer, txn, removes, adds);
        metrics.put("numTargetChangeFilesAdded", (long) commit.getValue());
        return new RewritePlan(commit.getKey(), snapshot.map(Snapshot::getVersion).orElse(-1L), filter, read, removed, metrics,
                markerJson.map(json -> Map.of(DeleteMarkers.MARKERS, json)).orElse(Map.of()), commit.getValue() + readds);
    }

    /**
     * The columns the key lookup reads: the keys and the sequence alone when no row of the files is written again
     * (the change feed's old values are then read by {@link MatchedRows}); null: all.
     */
    private Set<String> lookupColumns(Snapshot snapshot, ReplacedRows replaced) {
        if (!replaced.rowIndexes()) {
            return null;
        }
        return sequence == null ? MatchedRows.lookupColumns(snapshot, keys.keySchema())
                : MatchedRows.lookupColumns(snapshot, keys.keySchema(), sequence.name());
    }
}
