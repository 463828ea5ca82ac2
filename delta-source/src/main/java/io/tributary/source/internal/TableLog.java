package io.tributary.source.internal;

import io.tributary.delta.kernel.KernelInternals;
import io.delta.kernel.CommitActions;
import io.delta.kernel.CommitRange;
import io.delta.kernel.CommitRangeBuilder.CommitBoundary;
import io.delta.kernel.Scan;
import io.delta.kernel.Snapshot;
import io.delta.kernel.TableManager;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.data.FilteredColumnarBatch;
import io.delta.kernel.data.MapValue;
import io.delta.kernel.data.Row;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.exceptions.KernelException;
import io.delta.kernel.exceptions.StartVersionNotFoundException;
import io.delta.kernel.exceptions.TableNotFoundException;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.FileStatus;
import io.tributary.schema.TributaryException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** A Delta table's log through Kernel: snapshots, the files of a snapshot, and commits one by one. */
public final class TableLog {
    private final Engine engine;
    private final String tablePath;

    public TableLog(Engine engine, String tablePath) {
        this.engine = engine;
        this.tablePath = tablePath;
    }

    public Engine engine() {
        return engine;
    }

    public String tablePath() {
        return tablePath;
    }

    /** The table's latest snapshot; a clear error if there is no Delta table at the path. */
    public Snapshot latest() {
        try {
            return TableManager.loadSnapshot(tablePath).build(engine);
        } catch (TableNotFoundException e) {
            throw SourceErrors.noTable(tablePath, e);
        }
    }

    /** The table's id ({@code metaData.id}), Spark's {@code reservoirId}. */
    public static String tableId(Snapshot snapshot) {
        return KernelInternals.tableId(snapshot);
    }

    /** The snapshot at {@code version}; if the log no longer holds it, an error naming the oldest version still there. */
    public Snapshot at(long version) {
        try {
            return TableManager.loadSnapshot(tablePath).atVersion(version).build(engine);
        } catch (KernelException e) {
            throw versionGone(version, earliestAvailable(), e);
        }
    }

    /** The oldest version whose commit file the log still holds. */
    public long earliestAvailable() {
        try {
            TableManager.loadCommitRange(tablePath, CommitBoundary.atVersion(0)).build(engine);
            return 0;
        } catch (StartVersionNotFoundException e) {
            return e.getEarliestAvailableVersion().orElse(-1L);
        }
    }

    /** The files of a snapshot in a stable order (modification time, then path), as Spark's Delta source lists them. */
    public List<DataFile> snapshotFiles(Snapshot snapshot, String changeType) {
        long commitTs = snapshot.getTimestamp(engine);
        List<DataFile> files = new ArrayList<>();
        Map<DataFile, Long> mtimes = new HashMap<>();
        Scan scan = snapshot.getScanBuilder().build();
        try (CloseableIterator<FilteredColumnarBatch> batches = scan.getScanFiles(engine)) {
            while (batches.hasNext()) {
                try (CloseableIterator<Row> rows = batches.next().getRows()) {
                    while (rows.hasNext()) {
                        Row scanFile = rows.next();
                        FileStatus fs = KernelInternals.scanFileStatus(scanFile);
                        DataFile f = new DataFile(snapshot.getVersion(), 0, DataFile.Kind.TABLE_FILE, fs.getPath(), fs.getSize(),
                                scanFile, changeType, commitTs);
                        files.add(f);
                        mtimes.put(f, fs.getModificationTime());
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("delta-source: cannot list the files of " + tablePath + " at version " + snapshot.getVersion(), e);
        }
        files.sort(Comparator.<DataFile>comparingLong(mtimes::get).thenComparing(DataFile::path));
        List<DataFile> indexed = new ArrayList<>(files.size());
        for (int i = 0; i < files.size(); i++) {
            indexed.add(files.get(i).withIndex(i));
        }
        return indexed;
    }

    /**
     * The commits from {@code from} to {@code to} (inclusive), oldest first. The caller closes the
     * iterator; commits are read lazily, so a caller that stops early reads no more of the log.
     */
    public CloseableIterator<Commit> commits(long from, long to) {
        CommitRange range;
        try {
            range = TableManager.loadCommitRange(tablePath, CommitBoundary.atVersion(from))
                    .withEndBoundary(CommitBoundary.atVersion(to))
                    .build(engine);
        } catch (StartVersionNotFoundException e) {
            throw versionGone(from, e.getEarliestAvailableVersion().orElse(-1L), e);
        }
        CloseableIterator<CommitActions> it = range.getCommitActions(engine, KernelInternals.streamActions());
        return it.map(this::toCommit);
    }

    private Commit toCommit(CommitActions ca) {
        List<Row> adds = new ArrayList<>();
        List<Row> removes = new ArrayList<>();
        List<Row> cdcs = new ArrayList<>();
        String operation = null;
        Map<String, String> params = Map.of();
        Optional<StructType> newSchema = Optional.empty();
        try (ca; CloseableIterator<ColumnarBatch> batches = ca.getActions()) {
            while (batches.hasNext()) {
                ColumnarBatch batch = batches.next();
                StructType s = batch.getSchema();
                int add = s.indexOf("add");
                int remove = s.indexOf("remove");
                int cdc = s.indexOf("cdc");
                int info = s.indexOf("commitInfo");
                int meta = s.indexOf("metaData");
                try (CloseableIterator<Row> rows = batch.getRows()) {
                    while (rows.hasNext()) {
                        Row r = rows.next();
                        if (add >= 0 && !r.isNullAt(add) && dataChange(r.getStruct(add))) {
                            adds.add(r.getStruct(add));
                        } else if (remove >= 0 && !r.isNullAt(remove) && dataChange(r.getStruct(remove))) {
                            removes.add(r.getStruct(remove));
                        } else if (cdc >= 0 && !r.isNullAt(cdc)) {
                            cdcs.add(r.getStruct(cdc));
                        } else if (info >= 0 && !r.isNullAt(info)) {
                            Row ci = r.getStruct(info);
                            int op = ci.getSchema().indexOf("operation");
                            operation = ci.isNullAt(op) ? null : ci.getString(op);
                            int pp = ci.getSchema().indexOf("operationParameters");
                            params = ci.isNullAt(pp) ? Map.of() : toMap(ci.getMap(pp));
                        } else if (meta >= 0 && !r.isNullAt(meta)) {
                            newSchema = Optional.of(KernelInternals.schemaOfMetadata(r.getStruct(meta)));
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("delta-source: cannot read version " + ca.getVersion() + " of " + tablePath, e);
        } catch (Exception e) {
            if (e instanceof RuntimeException re) {
                throw re;
            }
            throw new IllegalStateException(e);
        }
        return new Commit(ca.getVersion(), ca.getTimestamp(), operation, params, adds, removes, cdcs, newSchema);
    }

    private static boolean dataChange(Row action) {
        int i = action.getSchema().indexOf("dataChange");
        return action.isNullAt(i) || action.getBoolean(i);
    }

    static Map<String, String> toMap(MapValue m) {
        Map<String, String> out = new java.util.TreeMap<>();
        for (int i = 0; i < m.getSize(); i++) {
            if (!m.getKeys().isNullAt(i)) {
                out.put(m.getKeys().getString(i), m.getValues().isNullAt(i) ? null : m.getValues().getString(i));
            }
        }
        return out;
    }

    private TributaryException versionGone(long version, long earliest, Exception cause) {
        return SourceErrors.versionGone(tablePath, version, earliest, cause);
    }
}
