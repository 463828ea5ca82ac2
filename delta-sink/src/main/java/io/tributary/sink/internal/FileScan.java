package io.tributary.sink.internal;

import io.tributary.delta.kernel.KernelInternals;
import io.delta.kernel.Scan;
import io.delta.kernel.Snapshot;
import io.delta.kernel.data.FilteredColumnarBatch;
import io.delta.kernel.data.Row;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.expressions.AlwaysTrue;
import io.delta.kernel.expressions.Predicate;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterator;
import io.tributary.delta.KernelSchemas;
import io.tributary.schema.Schema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** The files of a snapshot that a Kernel scan filter keeps (data skipping on their statistics), read one by one. */
final class FileScan {
    /**
     * One file the scan kept: its {@link TableFile#identity() identity} (path and deletion vector), its rows,
     * and the {@code remove} action that drops it.
     */
    record ScannedFile(String identity, List<Object[]> rows, Row removeAction) {
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
        Schema schema = KernelSchemas.fromKernel(snapshot.getPath(), snapshot.getSchema());
        Scan scan = snapshot.getScanBuilder().withFilter(filter).build();
        Row scanState = scan.getScanState(engine);
        StructType physical = KernelInternals.physicalReadSchema(scanState);
        try (CloseableIterator<FilteredColumnarBatch> files = scan.getScanFiles(engine)) {
            while (files.hasNext()) {
                try (CloseableIterator<Row> scanFiles = files.next().getRows()) {
                    while (scanFiles.hasNext()) {
                        Row scanFile = scanFiles.next();
                        List<Object[]> rows = new ArrayList<>();
                        TableReader.readFile(engine, scanState, scanFile, physical, schema, rows);
                        visitor.visit(new ScannedFile(TableFile.identity(scanFile), rows, KernelInternals.removeAction(scanFile)));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read Delta table " + snapshot.getPath() + " at version " + snapshot.getVersion(), e);
        }
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

    private static void list(Engine engine, Snapshot snapshot, Predicate filter, java.util.function.Consumer<Row> each) {
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
