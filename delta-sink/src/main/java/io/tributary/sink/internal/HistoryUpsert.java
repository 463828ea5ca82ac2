package io.tributary.sink.internal;

import io.delta.kernel.Snapshot;
import io.delta.kernel.Transaction;
import io.delta.kernel.data.Row;
import io.delta.kernel.expressions.Predicate;
import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import io.tributary.sink.SinkChanges;
import io.tributary.sink.SinkConfig;
import io.tributary.sink.SinkOffsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;

/**
 * Change data kept as history (SCD type 2, Databricks' AUTO CDC {@code STORED AS SCD TYPE 2};
 * {@code docs/cdc.md}): each key keeps its versions, each with {@code __START_AT} and {@code __END_AT} from
 * {@code sequenceBy}, and every change of a batch, in whatever order it arrives, takes its place among the
 * key's versions by sequence ({@link HistoryTimeline}). A batch reads the files that hold its keys (with deletion vectors,
 * the columns that place a change among the versions, then the other columns of the versions it ends alone), replaces
 * (copy-on-write, or in deletion vectors, {@link ReplacedRows}) only the versions whose {@code __END_AT} it
 * changes, and writes those and its new versions; the deletes no version shows are kept in the table's domain
 * metadata ({@link DeleteMarkers}). With tracked columns ({@code trackHistoryColumns}, AUTO CDC's TRACK HISTORY ON)
 * a change that leaves them as they were updates the version before it in place. A Kafka tombstone has no sequence, so it has no place in the history: it is
 * skipped and counted.
 */
final class HistoryUpsert implements WriteMode {
    private final DeltaTableWriter writer;
    private final RewriteCommitter committer;
    private final KeyColumns keys;
    private final int[] projection;
    private final DeleteCondition deleteWhen;
    private final int sequenceIndex;
    private final Field sequence;
    private final Comparator<Object> sequenceOrder;
    private final int[] tracked;
    private final String[] timelineColumns; // what places a change among a key's versions: the sequence, the versions' ends, the tracked columns
    private final long retentionMillis;
    private final int rowsPerFile;
    private final LongSupplier clock;

    HistoryUpsert(DeltaTableWriter writer, RewriteCommitter committer, SinkConfig config, LongSupplier clock) {
        this(writer, committer, config.schema(), config.keys(), config.changes(), config.rowsPerFile(), clock);
    }

    /** For rows of {@code rows} keyed by {@code keyColumns}, as {@code changes} say (history on). */
    HistoryUpsert(DeltaTableWriter writer, RewriteCommitter committer, Schema rows, List<String> keyColumns, SinkChanges changes,
                  int rowsPerFile, LongSupplier clock) {
        Schema data = new SinkChanges(changes.sequenceBy(), null, changes.exceptColumns(), changes.deleteRetention()).tableSchema(rows);
        this.writer = writer;
        this.committer = committer;
        this.keys = new KeyColumns(changes.tableSchema(rows), keyColumns);
        this.projection = data.fields().stream().mapToInt(f -> rows.indexOf(f.name())).toArray();
        this.deleteWhen = changes.deleteWhen() == null ? null : DeleteCondition.compile(rows, changes.deleteWhen());
        this.sequenceIndex = data.indexOf(changes.sequenceBy());
        this.sequence = data.field(sequenceIndex);
        this.sequenceOrder = KeyColumns.valueOrder(sequence.type());
        this.tracked = changes.trackHistory().tracked(data, keyColumns, changes.sequenceBy());
        List<String> timeline = new ArrayList<>(List.of(sequence.name(), SinkChanges.START_AT, SinkChanges.END_AT));
        if (tracked != null) {
            Arrays.stream(tracked).mapToObj(c -> data.field(c).name()).forEach(timeline::add);
        }
        this.timelineColumns = timeline.toArray(new String[0]);
        this.retentionMillis = changes.deleteRetention().toMillis();
        this.rowsPerFile = rowsPerFile;
        this.clock = clock;
    }

    @Override
    public boolean keyed() {
        return true; // the records' origins give Kafka order across partitions
    }

    @Override
    public CommitResult write(String appId, long batchId, TopicBatch batch, Map<Integer, Long> expectedStart, SinkOffsets next) {
        List<Object[]> rows = batch.rows();
        List<RecordOrigin> origins = batch.origins();
        Map<Key, List<Object[]>> changes = new LinkedHashMap<>();
        long tombstones = 0;
        for (int i : BatchChanges.kafkaOrder(origins, rows.size())) {
            Object[] row = rows.get(i);
            if (row == null) {
                tombstones++;
                continue;
            }
            add(changes, row, origins == null ? null : origins.get(i));
        }
        long skippedTombstones = tombstones;
        return committer.commit(appId, batchId, (snapshot, txn) -> plan(snapshot, txn, changes, rows.size(), skippedTombstones),
                expectedStart, next);
    }

    /** Adds {@code row} (of {@code origin}, or null) to a batch's {@code changes}, by key, as a change of the table's columns. */
    void add(Map<Key, List<Object[]>> changes, Object[] row, RecordOrigin origin) {
        Object[] change = new Object[projection.length + 1];
        for (int c = 0; c < projection.length; c++) {
            change[c] = row[projection[c]];
        }
        change[projection.length] = deleteWhen != null && deleteWhen.deletes(row, origin);
        changes.computeIfAbsent(keys.of(change), k -> new ArrayList<>()).add(change);
    }

    /** Each key's versions with its changes placed among them ({@link HistoryTimeline}); reads and changes nothing. */
    private Map<Key, HistoryTimeline.Result> place(Map<Key, List<Object[]>> changes, Map<Key, List<Object[]>> versions,
                                                   DeleteMarkers deletes, long now) {
        Map<Key, HistoryTimeline.Result> placed = new LinkedHashMap<>();
        for (Map.Entry<Key, List<Object[]>> e : changes.entrySet()) {
            placed.put(e.getKey(), HistoryTimeline.place(versions.getOrDefault(e.getKey(), List.of()), deletes.of(e.getKey()), e.getValue(),
                    projection.length, sequenceIndex, tracked, sequenceOrder, now));
        }
        return placed;
    }

    /**
     * Fills in the columns the lookup did not read of the versions {@code placed} ends or folds (the only ones written
     * again or recorded in the change data feed), file by file; true when it filled in any.
     */
    private boolean fill(MatchedRows rest, List<FileScan.ScannedFile> files, List<List<Integer>> fileHits,
                         Map<Key, HistoryTimeline.Result> placed) {
        Set<Object[]> ending = Collections.newSetFromMap(new IdentityHashMap<>());
        for (HistoryTimeline.Result r : placed.values()) {
            ending.addAll(r.changedVersions());
            ending.addAll(r.removedVersions());
        }
        boolean any = false;
        for (int f = 0; f < files.size(); f++) {
            FileScan.ScannedFile file = files.get(f);
            List<Integer> hits = new ArrayList<>();
            for (int i : fileHits.get(f)) {
                if (ending.contains(file.rows().get(i))) {
                    hits.add(i);
                }
            }
            if (!hits.isEmpty() && !file.whole()) {
                rest.fillOnly(file, hits, hits.stream().map(i -> keys.of(file.rows().get(i))).collect(Collectors.toSet()));
                any = true;
            }
        }
        return any;
    }

    /** Reads the files that hold the batch's keys and writes the versions it adds or ends; commits nothing. */
    RewritePlan plan(Optional<Snapshot> snapshot, Transaction txn, Map<Key, List<Object[]>> changes, long sourceRows, long tombstones) {
        long now = clock.getAsLong();
        int width = projection.length;
        DeleteMarkers deletes = DeleteMarkers.read(snapshot, DeleteMarkers.HISTORY, keys, sequence);
        long expired = deletes.expire(now - retentionMillis);
        ReplacedRows replaced = ReplacedRows.of(writer, snapshot);
        ChangeFeed feed = ChangeFeed.of(snapshot);
        List<FileScan.ScannedFile> files = new ArrayList<>();
        List<List<Integer>> fileHits = new ArrayList<>(); // the ordinals in each file's rows of the versions of the batch's keys
        Map<Key, List<Object[]>> versions = new LinkedHashMap<>();
        Predicate filter = null;
        MatchedRows rest = null;
        if (snapshot.isPresent() && !changes.isEmpty()) {
            filter = KeyPredicates.forKeys(keys.keySchema(), changes.keySet());
            KeyProbe probe = replaced.rowIndexes() ? KeyProbe.of(keys, changes.keySet()) : null;
            Set<String> columns = replaced.rowIndexes() ? MatchedRows.lookupColumns(snapshot.get(), keys.keySchema(), timelineColumns) : null;
            MatchedRows matched = MatchedRows.of(writer.engine(), snapshot.get(), keys.keySchema(), columns);
            rest = matched;
            FileScan.read(writer.engine(), snapshot.get(), filter, replaced.rowIndexes(), columns, probe, matched::wholeNext, file -> {
                files.add(file);
                List<Integer> hits = new ArrayList<>();
                for (int i = 0; i < file.rows().size(); i++) {
                    Key key = keys.of(file.rows().get(i));
                    if (changes.containsKey(key)) {
                        hits.add(i);
                        versions.computeIfAbsent(key, k -> new ArrayList<>()).add(file.rows().get(i));
                    }
                }
                fileHits.add(hits);
                matched.looked(hits.size());
            });
        }
        Map<Key, HistoryTimeline.Result> placed = place(changes, versions, deletes, now);
        if (rest != null && fill(rest, files, fileHits, placed)) {
            placed = place(changes, versions, deletes, now); // the same places, the ended versions whole
        }
        Set<Object[]> ended = Collections.newSetFromMap(new IdentityHashMap<>());
        List<Object[]> written = new ArrayList<>();
        long inserted = 0;
        long duplicates = 0;
        long folded = 0;
        for (Map.Entry<Key, HistoryTimeline.Result> e : placed.entrySet()) {
            HistoryTimeline.Result r = e.getValue();
            deletes.set(e.getKey(), r.deletes());
            ended.addAll(r.changedVersions());
            ended.addAll(r.removedVersions());
            r.removedVersions().forEach(v -> feed.add(ChangeFeed.DELETE, v, width + 2));
            folded += r.removedVersions().size();
            for (int i = 0; i < r.changedVersions().size(); i++) {
                feed.add(ChangeFeed.UPDATE_PREIMAGE, r.changedVersions().get(i), width + 2);
                feed.add(ChangeFeed.UPDATE_POSTIMAGE, r.postimages().get(i), width + 2);
            }
            r.inserts().forEach(v -> feed.add(ChangeFeed.INSERT, v, width + 2));
            written.addAll(r.postimages());
            written.addAll(r.inserts());
            inserted += r.inserts().size();
            duplicates += r.duplicates();
        }
        Set<String> read = new LinkedHashSet<>();
        Set<String> removed = new LinkedHashSet<>();
        for (FileScan.ScannedFile file : files) {
            read.add(file.identity());
            List<Object[]> kept = new ArrayList<>();
            List<Integer> hits = new ArrayList<>();
            for (int i = 0; i < file.rows().size(); i++) {
                if (ended.contains(file.rows().get(i))) {
                    hits.add(i);
                } else {
                    kept.add(file.rows().get(i));
                }
            }
            if (!hits.isEmpty()) {
                removed.add(file.identity());
                replaced.replace(file, kept, hits);
            }
        }
        List<Object[]> output = replaced.rewritten();
        long copied = output.size();
        output.addAll(written);
        List<Row> removes = replaced.removes();
        List<Row> adds = new ArrayList<>(replaced.readds());
        int readds = adds.size();
        adds.addAll(SortedFiles.write(writer, txn, output, keys.rowOrder(), rowsPerFile));
        Map<String, Object> metrics = RewritePlan.mergeMetrics(sourceRows, changes.size(), inserted,
                new long[] {ended.size() - folded, folded, copied}, read.size(), removed.size(), adds.size() - readds);
        replaced.addMetrics(metrics);
        metrics.put("numSourceChangesDuplicated", duplicates);
        metrics.put("numSourceTombstonesSkipped", tombstones);
        metrics.put("numHistoryDeletes", deletes.size());
        metrics.put("numHistoryDeletesExpired", expired);
        Map.Entry<List<Row>, Integer> commit = feed.commit(writer, txn, removes, adds);
        metrics.put("numTargetChangeFilesAdded", (long) commit.getValue());
        Map<String, String> domains = deletes.changedJson().map(json -> Map.of(DeleteMarkers.HISTORY, json)).orElse(Map.of());
        return new RewritePlan(commit.getKey(), snapshot.map(Snapshot::getVersion).orElse(-1L), filter, read, removed, metrics,
                domains, commit.getValue() + readds);
    }
}
