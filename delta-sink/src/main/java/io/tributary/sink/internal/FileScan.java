package io.tributary.sink.internal;

import io.tributary.delta.kernel.KernelInternals;
import io.delta.kernel.Scan;
import io.delta.kernel.Snapshot;
import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.data.FilteredColumnarBatch;
import io.delta.kernel.data.Row;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.expressions.AlwaysTrue;
import io.delta.kernel.expressions.Predicate;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterator;
import io.tributary.delta.KernelRows;
import io.tributary.delta.KernelSchemas;
import io.tributary.schema.DataType;
import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.roaringbitmap.longlong.Roaring64NavigableMap;

/** The files of a snapshot that a Kernel scan filter keeps (data skipping on their statistics), read one by one. */
final class FileScan {
    /**
     * One file the scan kept: its {@link TableFile#identity() identity} (path and deletion vector), its rows
     * (those its deletion vector does not mark deleted), the {@code remove} action that drops it, and, when
     * asked for, each row's position in the Parquet file (what a deletion vector marks) and Kernel's scan-file
     * row with the {@code add}'s statistics. {@code liveRows}: how many rows the file holds (not marked deleted);
     * {@code rows.size()} unless a {@link KeyProbe} let only some through. {@code deleted}: the rows the file's deletion
     * vector marks, as the read loaded them (a bitmap the caller may add to), or null when Kernel's reader applied it.
     */
    record ScannedFile(String identity, List<Object[]> rows, Row removeAction, long[] rowIndexes, Row scanFile, long liveRows,
                       boolean whole, Roaring64NavigableMap deleted) {
        ScannedFile(String identity, List<Object[]> rows, Row removeAction, long[] rowIndexes, Row scanFile, long liveRows,
                    boolean whole) {
            this(identity, rows, removeAction, rowIndexes, scanFile, liveRows, whole, null);
        }
    }

    /** Receives each kept file with its rows. */
    interface FileVisitor {
        void visit(ScannedFile file);
    }

    /** Receives each file's identity and its remove action. */
    interface RemovalVisitor {
        void visit(String identity, Row removeAction);
    }

    private FileScan() {
    }

    /** Reads every file the filter keeps and hands it to {@code visitor}. */
    static void read(Engine engine, Snapshot snapshot, Predicate filter, FileVisitor visitor) {
        read(engine, snapshot, filter, false, null, visitor);
    }

    /**
     * Reads every file the filter keeps and hands it to {@code visitor}; with {@code rowIndexes}, each with its
     * rows' positions in the file (read as Kernel's row index metadata column) and its scan-file row with statistics.
     * With {@code columns} (null: all), only those columns are read from the files: the rows keep the table's width,
     * the other columns null (a lookup of keys that rewrites no row).
     */
    static void read(Engine engine, Snapshot snapshot, Predicate filter, boolean rowIndexes, java.util.Set<String> columns,
                     FileVisitor visitor) {
        read(engine, snapshot, filter, rowIndexes, columns, null, visitor);
    }

    /**
     * As above; with a {@code probe} of the key columns (among {@code columns}), a file's rows are the ones the
     * probe lets through alone, tested straight on Kernel's column vectors (the others cost no row): with {@code columns}
     * null, those rows are read whole (the old values of the rows a change data feed records).
     */
    static void read(Engine engine, Snapshot snapshot, Predicate filter, boolean rowIndexes, java.util.Set<String> columns,
                     KeyProbe probe, FileVisitor visitor) {
        read(engine, snapshot, filter, rowIndexes, columns, probe, null, visitor);
    }

    /**
     * As above; {@code wholeFile}, asked before each file when {@code columns} is not null, reads that file's every
     * column instead when it says true ({@link ScannedFile#whole()}).
     */
    static void read(Engine engine, Snapshot snapshot, Predicate filter, boolean rowIndexes, java.util.Set<String> columns,
                     KeyProbe probe, BooleanSupplier wholeFile, FileVisitor visitor) {
        Schema table = KernelSchemas.fromKernel(snapshot.getPath(), snapshot.getSchema());
        int width = table.size();
        Reading narrow = Reading.of(engine, snapshot, table, filter, rowIndexes, columns, probe);
        Reading whole = null;
        try (CloseableIterator<FilteredColumnarBatch> files = narrow.scan.getScanFiles(engine, rowIndexes)) {
            while (files.hasNext()) {
                try (CloseableIterator<Row> scanFiles = files.next().getRows()) {
                    while (scanFiles.hasNext()) {
                        Row scanFile = scanFiles.next();
                        Reading r = narrow;
                        if (narrow.at != null && wholeFile != null && wholeFile.getAsBoolean()) {
                            whole = whole == null ? Reading.of(engine, snapshot, table, filter, rowIndexes, null, probe) : whole;
                            r = whole;
                        }
                        DirectKeyRead.Result direct = r.direct == null ? null : r.direct.read(scanFile);
                        if (direct != null) {
                            List<Object[]> rows = new ArrayList<>(direct.rows().size());
                            for (Object[] row : direct.rows()) {
                                rows.add(widen(row, r.at, width));
                            }
                            visitor.visit(new ScannedFile(TableFile.identity(scanFile), rows, KernelInternals.removeAction(scanFile),
                                    direct.positions(), scanFile, direct.liveRows(), r.at == null, direct.deleted()));
                            continue;
                        }
                        if (probe != null) {
                            visitor.visit(probeFile(engine, scanFile, r, probe, width, rowIndexes));
                            continue;
                        }
                        List<Object[]> rows = new ArrayList<>();
                        TableReader.readFile(engine, r.scanState, scanFile, r.physical, r.schema, rows);
                        long[] indexes = rowIndexes ? new long[rows.size()] : null;
                        if (rowIndexes || r.at != null) {
                            for (int i = 0; i < rows.size(); i++) {
                                Object[] row = rows.get(i);
                                if (rowIndexes) {
                                    indexes[i] = (Long) row[r.read];
                                }
                                rows.set(i, widen(row, r.at, width));
                            }
                        }
                        visitor.visit(new ScannedFile(TableFile.identity(scanFile), rows, KernelInternals.removeAction(scanFile), indexes,
                                rowIndexes ? scanFile : null, rows.size(), r.at == null));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read Delta table " + snapshot.getPath() + " at version " + snapshot.getVersion(), e);
        }
    }

    /**
     * How files are read: {@code schema} the columns read (then, with row indexes, the row index; {@code read} of them
     * are columns), at the table positions {@code at} (null: all), through {@code scan}'s state; with a probe and row
     * indexes, {@code direct} reads the files it can straight from their Parquet columns (null: Kernel reads them all).
     */
    private record Reading(Scan scan, Row scanState, StructType physical, Schema schema, int[] at, int read, DirectKeyRead direct) {
        static Reading of(Engine engine, Snapshot snapshot, Schema table, Predicate filter, boolean rowIndexes, Set<String> columns,
                          KeyProbe probe) {
            StructType kernelRead = snapshot.getSchema();
            int[] positions = null; // the table position of each column read, when not all are
            if (columns != null) {
                List<StructField> kept = new ArrayList<>();
                List<Integer> at = new ArrayList<>();
                for (int i = 0; i < table.size(); i++) {
                    if (columns.contains(table.field(i).name())) {
                        kept.add(snapshot.getSchema().at(i));
                        at.add(i);
                    }
                }
                kernelRead = new StructType(kept);
                positions = at.stream().mapToInt(Integer::intValue).toArray();
            }
            List<Field> fields = new ArrayList<>(KernelSchemas.fromKernel(snapshot.getPath(), kernelRead).fields());
            int read = fields.size();
            DirectKeyRead direct = probe == null || !rowIndexes ? null
                    : DirectKeyRead.of(engine, snapshot, new Schema(List.copyOf(fields)), kernelRead, probe);
            if (rowIndexes) {
                fields.add(new Field(StructField.DEFAULT_ROW_INDEX_COLUMN.getName(), DataType.LONG, false));
                kernelRead = kernelRead.add(StructField.DEFAULT_ROW_INDEX_COLUMN);
            }
            io.delta.kernel.ScanBuilder builder = snapshot.getScanBuilder().withFilter(filter);
            if (rowIndexes || columns != null) {
                builder = builder.withReadSchema(kernelRead);
            }
            Scan scan = builder.build();
            Row scanState = scan.getScanState(engine);
            return new Reading(scan, scanState, KernelInternals.physicalReadSchema(scanState), new Schema(fields), positions, read, direct);
        }
    }

    /**
     * The rows of one file whose key {@code probe} lets through, widened to the table's {@code width}; the probe
     * tests the columns of {@code schema} (the columns read, then, with {@code rowIndexes}, the row index) named by the key.
     */
    private static ScannedFile probeFile(Engine engine, Row scanFile, Reading r, KeyProbe probe, int width, boolean rowIndexes)
            throws IOException {
        Schema schema = r.schema;
        int[] at = r.at;
        int read = r.read;
        int[] keyColumns = probe.columns().stream().mapToInt(schema::indexOf).toArray();
        ColumnVector[] key = new ColumnVector[keyColumns.length];
        List<Object[]> rows = new ArrayList<>();
        long[] indexes = new long[16];
        long live = 0;
        try (CloseableIterator<FilteredColumnarBatch> batches = TableReader.batches(engine, r.scanState, scanFile, r.physical)) {
            while (batches.hasNext()) {
                FilteredColumnarBatch filtered = batches.next();
                ColumnarBatch batch = filtered.getData();
                ColumnVector selection = filtered.getSelectionVector().orElse(null);
                for (int c = 0; c < keyColumns.length; c++) {
                    key[c] = batch.getColumnVector(keyColumns[c]);
                }
                int n = batch.getSize();
                for (int i = 0; i < n; i++) {
                    if (selection != null && (selection.isNullAt(i) || !selection.getBoolean(i))) {
                        continue;
                    }
                    live++;
                    if (!probe.mayHold(key, i)) {
                        continue;
                    }
                    Object[] row = new Object[read];
                    for (int c = 0; c < read; c++) {
                        row[c] = KernelRows.value(schema.field(c).type(), batch.getColumnVector(c), i);
                    }
                    if (rowIndexes) {
                        if (rows.size() == indexes.length) {
                            indexes = Arrays.copyOf(indexes, indexes.length * 2);
                        }
                        indexes[rows.size()] = batch.getColumnVector(read).getLong(i);
                    }
                    rows.add(widen(row, at, width));
                }
            }
        }
        return new ScannedFile(TableFile.identity(scanFile), rows, KernelInternals.removeAction(scanFile),
                rowIndexes ? Arrays.copyOf(indexes, rows.size()) : null, rowIndexes ? scanFile : null, live, at == null);
    }

    /** A row read with the columns at table positions {@code at} (null: all) as a row of the table's {@code width}. */
    private static Object[] widen(Object[] row, int[] at, int width) {
        if (at == null) {
            return Arrays.copyOf(row, width);
        }
        Object[] out = new Object[width];
        for (int c = 0; c < at.length; c++) {
            out[at[c]] = row[c];
        }
        return out;
    }

    /**
     * The {@link TableFile#identity() identities} of the files the filter keeps, without reading them: a file
     * that another writer gave a new deletion vector is another file.
     */
    static Set<String> identities(Engine engine, Snapshot snapshot, Predicate filter) {
        Set<String> identities = new LinkedHashSet<>();
        list(engine, snapshot, filter, scanFile -> identities.add(TableFile.identity(scanFile)));
        return identities;
    }

    /** Every file of the snapshot with its identity and remove action, without reading them. */
    static void removals(Engine engine, Snapshot snapshot, RemovalVisitor visitor) {
        list(engine, snapshot, AlwaysTrue.ALWAYS_TRUE,
                scanFile -> visitor.visit(TableFile.identity(scanFile), KernelInternals.removeAction(scanFile)));
    }

    /** Hands each scan file (with its statistics) the filter keeps to {@code each}, without reading it. */
    static void list(Engine engine, Snapshot snapshot, Predicate filter, java.util.function.Consumer<Row> each) {
        Scan scan = snapshot.getScanBuilder().withFilter(filter).build();
        try (CloseableIterator<FilteredColumnarBatch> files = scan.getScanFiles(engine)) {
            while (files.hasNext()) {
                try (CloseableIterator<Row> scanFiles = files.next().getRows()) {
                    while (scanFiles.hasNext()) {
                        each.accept(scanFiles.next());
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the files of Delta table " + snapshot.getPath(), e);
        }
    }
}
