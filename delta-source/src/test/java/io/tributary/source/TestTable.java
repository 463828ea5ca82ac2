package io.tributary.source;

import io.tributary.delta.kernel.KernelInternals;
import io.delta.kernel.DataWriteContext;
import io.delta.kernel.Operation;
import io.delta.kernel.Scan;
import io.delta.kernel.Snapshot;
import io.delta.kernel.Table;
import io.delta.kernel.TableManager;
import io.delta.kernel.Transaction;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.data.FilteredColumnarBatch;
import io.delta.kernel.data.Row;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.engine.FileReadResult;
import io.delta.kernel.expressions.Literal;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterable;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.DataFileStatus;
import io.delta.kernel.utils.FileStatus;
import io.tributary.delta.KernelEngines;
import io.tributary.delta.KernelRows;
import io.tributary.delta.RowBatch;
import io.tributary.schema.Schema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * Writes a real Delta table on disk through Delta Kernel, as another writer would: appends,
 * copy-on-write updates (remove + add, dataChange=true), whole-file deletes and compaction
 * (dataChange=false). Kernel writes its own commitInfo operation ("WRITE", "Manual Update"); it has
 * no UPDATE/DELETE/OPTIMIZE operation to set.
 */
final class TestTable {
    private static final String ENGINE_INFO = "tributary-delta-source-test";
    final Engine engine = KernelEngines.create();
    final String path;
    final Schema schema;
    final StructType kernelSchema;

    private TestTable(Path dir, Schema schema, StructType kernelSchema) {
        this.path = dir.toAbsolutePath().toString();
        this.schema = schema;
        this.kernelSchema = kernelSchema;
    }

    /** Creates an empty table (version 0). */
    static TestTable create(Path dir, Schema schema, StructType kernelSchema, Map<String, String> properties) {
        TestTable t = new TestTable(dir, schema, kernelSchema);
        Table.forPath(t.engine, t.path).createTransactionBuilder(t.engine, ENGINE_INFO, Operation.CREATE_TABLE)
                .withSchema(t.engine, kernelSchema).withTableProperties(t.engine, properties).build(t.engine)
                .commit(t.engine, CloseableIterable.emptyIterable());
        return t;
    }

    Snapshot snapshot() {
        return TableManager.loadSnapshot(path).build(engine);
    }

    long version() {
        return snapshot().getVersion();
    }

    /** One commit adding one Parquet file per argument; returns the version. */
    @SafeVarargs
    final long append(List<Object[]>... files) {
        Transaction txn = snapshot().buildUpdateTableTransaction(ENGINE_INFO, Operation.WRITE).build(engine);
        Row state = txn.getTransactionState(engine);
        List<Row> actions = new ArrayList<>();
        for (List<Object[]> rows : files) {
            actions.addAll(writeFile(state, rows, true));
        }
        return commit(txn, actions);
    }

    /**
     * A copy-on-write UPDATE: every file holding a row that {@code match} accepts is removed and
     * written again with {@code change} applied to those rows, both with dataChange=true.
     */
    long update(Predicate<Object[]> match, UnaryOperator<Object[]> change) {
        Snapshot snap = snapshot();
        Transaction txn = snap.buildUpdateTableTransaction(ENGINE_INFO, Operation.MANUAL_UPDATE).build(engine);
        Row state = txn.getTransactionState(engine);
        List<Row> actions = new ArrayList<>();
        for (Map.Entry<Row, List<Object[]>> f : filesWithRows(snap).entrySet()) {
            if (f.getValue().stream().anyMatch(match)) {
                actions.add(remove(f.getKey(), true));
                List<Object[]> rewritten = new ArrayList<>();
                for (Object[] r : f.getValue()) {
                    rewritten.add(match.test(r) ? change.apply(r.clone()) : r);
                }
                actions.addAll(writeFile(state, rewritten, true));
            }
        }
        return commit(txn, actions);
    }

    /** A DELETE that removes whole files (those holding a row {@code match} accepts): removes only, dataChange=true. */
    long deleteFiles(Predicate<Object[]> match) {
        Snapshot snap = snapshot();
        Transaction txn = snap.buildUpdateTableTransaction(ENGINE_INFO, Operation.MANUAL_UPDATE).build(engine);
        List<Row> actions = new ArrayList<>();
        for (Map.Entry<Row, List<Object[]>> f : filesWithRows(snap).entrySet()) {
            if (f.getValue().stream().anyMatch(match)) {
                actions.add(remove(f.getKey(), true));
            }
        }
        return commit(txn, actions);
    }

    /**
     * A DELETE with deletion vectors, as Spark's on a table with {@code delta.enableDeletionVectors}: each file
     * holding a row {@code match} accepts keeps its path and gets a deletion vector marking those rows (a
     * remove of the file and an add of it with the vector, dataChange=true). Files without a vector only.
     */
    long deleteWithDeletionVectors(Predicate<Object[]> match) {
        Snapshot snap = snapshot();
        Transaction txn = snap.buildUpdateTableTransaction(ENGINE_INFO, Operation.MANUAL_UPDATE).build(engine);
        io.tributary.delta.DeletionVectorStore store = new io.tributary.delta.DeletionVectorStore(engine, snap.getPath());
        List<Row> actions = new ArrayList<>();
        for (Map.Entry<Row, List<Object[]>> f : filesWithRows(snap).entrySet()) {
            org.roaringbitmap.longlong.Roaring64NavigableMap deleted = new org.roaringbitmap.longlong.Roaring64NavigableMap();
            for (int i = 0; i < f.getValue().size(); i++) {
                if (match.test(f.getValue().get(i))) {
                    deleted.addLong(i); // no vector yet: the rows are in file order
                }
            }
            if (!deleted.isEmpty()) {
                actions.add(remove(f.getKey(), true));
                actions.add(io.tributary.delta.kernel.KernelDeletionVectors.addWithDeletionVector(f.getKey(),
                        store.write(List.of(deleted)).get(0)));
            }
        }
        return commit(txn, actions);
    }

    /** OPTIMIZE-like compaction: all files removed and their rows written to one file, every action dataChange=false. */
    long compact() {
        Snapshot snap = snapshot();
        Transaction txn = snap.buildUpdateTableTransaction(ENGINE_INFO, Operation.MANUAL_UPDATE).build(engine);
        Row state = txn.getTransactionState(engine);
        List<Row> actions = new ArrayList<>();
        List<Object[]> all = new ArrayList<>();
        for (Map.Entry<Row, List<Object[]>> f : filesWithRows(snap).entrySet()) {
            actions.add(remove(f.getKey(), false));
            all.addAll(f.getValue());
        }
        actions.addAll(writeFile(state, all, false));
        return commit(txn, actions);
    }

    /** A Parquet file of {@code rows} in {@code schema}, written under {@code subdir} of the table; its log path and size. */
    String[] writeParquet(String subdir, StructType fileSchema, List<Object[]> rows) {
        String target = subdir.isEmpty() ? path : path + "/" + subdir;
        FilteredColumnarBatch batch = new FilteredColumnarBatch(new RowBatch(fileSchema, rows), Optional.empty());
        try (CloseableIterator<DataFileStatus> files = engine.getParquetHandler()
                .writeParquetFiles(target, KernelInternals.single(batch), List.of())) {
            DataFileStatus f = files.next();
            String abs = f.getPath();
            String rel = abs.substring(abs.indexOf(path) + path.length() + 1);
            return new String[] {rel, String.valueOf(f.getSize())};
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The log paths (relative) and sizes of the latest snapshot's files. */
    List<String[]> files() {
        List<String[]> out = new ArrayList<>();
        for (Row sf : filesWithRows(snapshot()).keySet()) {
            out.add(new String[] {KernelInternals.scanFilePath(sf), String.valueOf(KernelInternals.size(sf))});
        }
        return out;
    }

    /**
     * A commit that sets the table's schema to {@code kernel} (a metaData action, as ALTER TABLE or a
     * mergeSchema write makes one), written by hand; returns the table as written from then on.
     */
    TestTable changeSchema(Schema newSchema, StructType kernel) {
        try {
            String v0 = java.nio.file.Files.readString(Path.of(path, "_delta_log", String.format("%020d.json", 0)));
            com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
            for (String line : v0.split("\n")) {
                com.fasterxml.jackson.databind.JsonNode n = json.readTree(line);
                if (n.has("metaData")) {
                    ((com.fasterxml.jackson.databind.node.ObjectNode) n.get("metaData")).put("schemaString", kernel.toJson());
                    writeRawCommit(json.writeValueAsString(n),
                            "{\"commitInfo\":{\"timestamp\":" + System.currentTimeMillis() + ",\"operation\":\"ADD COLUMNS\"}}");
                    return new TestTable(Path.of(path), newSchema, kernel);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        throw new IllegalStateException("no metaData action in version 0 of " + path);
    }

    /** Writes the next commit's JSON by hand, as another writer (Spark) would: one action per line. Returns the version. */
    long writeRawCommit(String... actions) {
        long v = version() + 1;
        try {
            java.nio.file.Files.writeString(Path.of(path, "_delta_log", String.format("%020d.json", v)), String.join("\n", actions) + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return v;
    }

    /** The commit time of {@code version} (its JSON file's modification time, without in-commit timestamps), in ms. */
    long commitTimestampMs(long version) {
        return TableManager.loadSnapshot(path).atVersion(version).build(engine).getTimestamp(engine);
    }

    /** Every row of the latest snapshot. */
    List<Object[]> rows() {
        List<Object[]> out = new ArrayList<>();
        filesWithRows(snapshot()).values().forEach(out::addAll);
        return out;
    }

    private long commit(Transaction txn, List<Row> actions) {
        return txn.commit(engine, CloseableIterable.inMemoryIterable(KernelInternals.closeable(actions.iterator()))).getVersion();
    }

    private static Row remove(Row scanFile, boolean dataChange) {
        return dataChange ? KernelInternals.removeAction(scanFile) : KernelInternals.removeWithoutDataChange(scanFile);
    }

    private List<Row> writeFile(Row state, List<Object[]> rows, boolean dataChange) {
        Map<String, Literal> partition = Map.of();
        FilteredColumnarBatch batch = new FilteredColumnarBatch(new RowBatch(kernelSchema, rows), Optional.empty());
        List<Row> actions = new ArrayList<>();
        try (CloseableIterator<FilteredColumnarBatch> physical =
                     Transaction.transformLogicalData(engine, state, KernelInternals.single(batch), partition)) {
            DataWriteContext ctx = Transaction.getWriteContext(engine, state, partition);
            CloseableIterator<DataFileStatus> files = engine.getParquetHandler()
                    .writeParquetFiles(ctx.getTargetDirectory(), physical, ctx.getStatisticsColumns());
            if (dataChange) {
                try (CloseableIterator<Row> adds = Transaction.generateAppendActions(engine, state, files, ctx)) {
                    adds.forEachRemaining(actions::add);
                }
            } else {
                while (files.hasNext()) {
                    actions.add(KernelInternals.addWithoutDataChange(state, files.next(), partition));
                }
                files.close();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return actions;
    }

    /** The scan-file rows of a snapshot, in scan order, with their rows. */
    private Map<Row, List<Object[]>> filesWithRows(Snapshot snap) {
        Map<Row, List<Object[]>> out = new java.util.LinkedHashMap<>();
        Scan scan = snap.getScanBuilder().build();
        Row scanState = scan.getScanState(engine);
        StructType physical = KernelInternals.physicalReadSchema(scanState);
        try (CloseableIterator<FilteredColumnarBatch> batches = scan.getScanFiles(engine)) {
            while (batches.hasNext()) {
                try (CloseableIterator<Row> rows = batches.next().getRows()) {
                    while (rows.hasNext()) {
                        Row sf = rows.next();
                        FileStatus fs = KernelInternals.scanFileStatus(sf);
                        CloseableIterator<ColumnarBatch> data = engine.getParquetHandler()
                                .readParquetFiles(KernelInternals.single(fs), physical, Optional.empty())
                                .map(FileReadResult::getData);
                        List<Object[]> fileRows = new ArrayList<>();
                        try (CloseableIterator<FilteredColumnarBatch> logical = Scan.transformPhysicalData(engine, scanState, sf, data)) {
                            while (logical.hasNext()) {
                                KernelRows.addRows(schema, logical.next(), fileRows);
                            }
                        }
                        out.put(sf, fileRows);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    static Object[] row(Object... values) {
        return values;
    }

    static List<Object[]> rows(Object[]... rows) {
        return new ArrayList<>(Arrays.asList(rows));
    }

    static Map<String, String> props(String... kv) {
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }
}
