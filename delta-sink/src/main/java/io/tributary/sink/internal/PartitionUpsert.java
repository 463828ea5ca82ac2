package io.tributary.sink.internal;

import io.delta.kernel.Snapshot;
import io.delta.kernel.Transaction;
import io.delta.kernel.exceptions.CommitStateUnknownException;
import io.delta.kernel.exceptions.ConcurrentWriteException;
import io.tributary.schema.Schema;
import io.tributary.sink.SinkChanges;
import io.tributary.sink.StaleBatchException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * MERGE by key for writers that keep their progress per topic partition ({@link io.tributary.sink.PartitionSink}):
 * the sink's own upsert ({@link CopyOnWriteUpsert}'s plan, {@link RewriteCommitter}'s handling of
 * other writers) with a claim of partition offsets instead of the sink's {@code txn}. Each attempt
 * checks, on the snapshot it commits on, that the table holds the offsets the batch starts at, and
 * commits with no rebase: a commit of another writer in between fails it, and if that commit
 * touched a file that may hold one of the batch's keys, the batch is planned again on the new
 * snapshot (its files read again, its changes applied again), so no writer's update is lost.
 * With change data ({@link SinkChanges#active()}: sequenceBy, deleteWhen, exceptColumns) the plan
 * is the sink's {@link ChangeUpsert}, delete markers included: a plan that changes them is made
 * again whenever another writer committed since it read them.
 */
public final class PartitionUpsert {
    private final DeltaTableWriter writer;
    private final KeyColumns keys;
    private final int orderIndex;
    private final CopyOnWriteUpsert upsert;
    private final ChangeUpsert changeUpsert;
    /** History (SCD type 2, {@link SinkChanges#history()}); null without. */
    private final HistoryUpsert history;
    /** dropDuplicates(keys): a key's first row stays; null for an upsert. */
    private final FirstRowPerKey firstRows;
    private final RewriteCommitter committer;

    /**
     * @param keys the key columns of {@code schema}
     * @param order the column whose largest value wins among rows of one key in a batch; null: the last record
     * @param rowsPerFile at most this many rows per Parquet file written, rows sorted by key
     */
    public PartitionUpsert(DeltaTableWriter writer, Schema schema, List<String> keys, String order, int rowsPerFile) {
        this(writer, schema, keys, order, rowsPerFile, SinkChanges.NONE);
    }

    /** As above, applying {@code changes} (change data, {@code docs/cdc.md}) when they are {@link SinkChanges#active()}. */
    public PartitionUpsert(DeltaTableWriter writer, Schema schema, List<String> keys, String order, int rowsPerFile,
                           SinkChanges changes) {
        this(writer, schema, keys, order, rowsPerFile, changes, attempt -> { });
    }

    /** As above; {@code beforeCommit} runs between planning and each commit attempt (a test seam for a concurrent writer). */
    PartitionUpsert(DeltaTableWriter writer, Schema schema, List<String> keys, String order, int rowsPerFile, SinkChanges changes,
                    RewriteCommitter.BeforeCommit beforeCommit) {
        this.writer = writer;
        this.keys = new KeyColumns(changes.tableSchema(schema), keys);
        this.orderIndex = order == null ? -1 : schema.require(order, "order column");
        this.committer = new RewriteCommitter(writer, beforeCommit);
        this.upsert = new CopyOnWriteUpsert(writer, committer, this.keys, order, rowsPerFile);
        this.history = changes.history()
                ? new HistoryUpsert(writer, committer, schema, keys, changes, rowsPerFile, System::currentTimeMillis) : null;
        this.changeUpsert = changes.active() && history == null
                ? new ChangeUpsert(writer, committer, schema, keys, changes, rowsPerFile, System::currentTimeMillis) : null;
        this.firstRows = null;
    }

    /**
     * Spark's {@code dropDuplicates(keys)} over every batch the table was given: a row whose key the table (or the batch before
     * it) holds is dropped, the others are appended ({@link FirstRowPerKey}).
     */
    public static PartitionUpsert dropDuplicates(DeltaTableWriter writer, Schema schema, List<String> keys, int rowsPerFile) {
        return new PartitionUpsert(writer, schema, keys, rowsPerFile);
    }

    private PartitionUpsert(DeltaTableWriter writer, Schema schema, List<String> keys, int rowsPerFile) {
        this.writer = writer;
        this.keys = new KeyColumns(schema, keys);
        this.orderIndex = -1;
        this.committer = new RewriteCommitter(writer, attempt -> { });
        this.upsert = null;
        this.changeUpsert = null;
        this.history = null;
        this.firstRows = new FirstRowPerKey(writer, this.keys, rowsPerFile);
    }

    /** A new batch's changes. */
    public Changes begin() {
        if (firstRows != null) {
            return new Changes(null, null, firstRows.collector(), null);
        }
        if (history != null) {
            return new Changes(null, null, null, new LinkedHashMap<>());
        }
        if (changeUpsert != null) {
            return new Changes(changeUpsert.collector(0), row -> changeUpsert.change(null, row), null, null);
        }
        return new Changes(BatchChanges.collector(keys, orderIndex, 0), UnaryOperator.identity(), null, null);
    }

    /** One batch's changes, collapsed per key as records come; each partition's records must come in offset order. */
    public final class Changes {
        private final BatchChanges.Collector collector;
        private final UnaryOperator<Object[]> change;
        /** dropDuplicates: the first row of each key. */
        private final Map<Key, Object[]> first;
        /** History: each key's changes. */
        private final Map<Key, List<Object[]>> versions;
        private long records;
        private long skipped;

        private Changes(BatchChanges.Collector collector, UnaryOperator<Object[]> change, Map<Key, Object[]> first,
                        Map<Key, List<Object[]>> versions) {
            this.collector = collector;
            this.change = change;
            this.first = first;
            this.versions = versions;
        }

        /**
         * A row: it replaces the key's row, or inserts the key (with change data: as {@code sequenceBy} and {@code deleteWhen} say;
         * with history: as a version of its key; with dropDuplicates: unless its key came before).
         */
        public void upsert(Object[] row) {
            if (first != null) {
                firstRows.add(first, row);
            } else if (versions != null) {
                history.add(versions, row, null);
            } else {
                collector.add(null, change.apply(row));
            }
            records++;
        }

        /**
         * A tombstone: deletes the key its record key names (the JSON array of the key column values, e.g. {@code [3]}); with
         * history it has no sequence, so no place among the key's versions: it is skipped and counted, as the pipeline's sink does.
         *
         * @throws io.tributary.schema.TributaryException naming the partition and offset when the record key is not such a key
         */
        public void delete(int partition, long offset, byte[] recordKey) {
            RecordOrigin origin = new RecordOrigin(partition, offset, 0, recordKey);
            if (versions != null) {
                keys.ofTombstone(origin); // a record key that is not a key is refused, as without history
                skipped++;
            } else {
                collector.add(origin, null);
            }
            records++;
        }

        /** False with dropDuplicates, which appends rows and deletes none. */
        public boolean takesTombstones() {
            return first == null;
        }

        /** The records taken. */
        public long records() {
            return records;
        }
    }

    /**
     * Commits {@code changes} with the domain metadata {@code domains} (the partitions' new offsets).
     *
     * @param check throws {@link StaleBatchException} when the table (empty: none yet) does not hold the offsets the batch starts at
     * @throws StaleBatchException the batch's partitions moved on, or other writers kept winning; nothing was committed
     */
    public CommitResult commit(Changes changes, String writerId, Consumer<Optional<Snapshot>> check, Map<String, String> domains) {
        BatchChanges collapsed = changes.collector == null ? null : changes.collector.build();
        long records = changes.records;
        String what = writerId + "'s upsert of " + records + " records";
        return committer.commit(new RewriteCommitter.Claim() {
            @Override
            public Optional<CommitResult> check(Optional<Snapshot> snapshot) {
                check.accept(snapshot);
                return Optional.empty();
            }

            @Override
            public Transaction build(Optional<Snapshot> snapshot) {
                Transaction txn = writer.buildPartitionTxn(snapshot, writerId, 0);
                domains.forEach(txn::addDomainMetadata);
                return txn;
            }

            @Override
            public boolean shared() {
                return true;
            }

            @Override
            public CommitResult unknown(CommitStateUnknownException e) {
                throw CommitErrors.partitionCommitUnknown(writer.tablePath(), what, e.getMessage(), e);
            }

            @Override
            public RuntimeException lostRace(ConcurrentWriteException e) {
                return null; // another writer created the table or changed its metadata: the next attempt checks the new snapshot
            }

            @Override
            public RuntimeException exhausted(int attempts) {
                return CommitErrors.partitionAttemptsExhausted(writer.tablePath(), what, attempts);
            }

            @Override
            public String what() {
                return what;
            }
        }, (snapshot, txn) -> firstRows != null ? firstRows.plan(snapshot, txn, changes.first, records)
                : history != null ? history.plan(snapshot, txn, changes.versions, records, changes.skipped)
                : changeUpsert != null ? changeUpsert.plan(snapshot, txn, collapsed, records)
                : upsert.plan(snapshot, txn, collapsed, records));
    }
}
