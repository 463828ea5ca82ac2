package io.tributary.sink.internal;

import io.tributary.delta.kernel.KernelInternals;
import io.delta.kernel.Scan;
import io.delta.kernel.Snapshot;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.data.FilteredColumnarBatch;
import io.delta.kernel.data.Row;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.engine.FileReadResult;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.FileStatus;
import io.tributary.delta.KernelRows;
import io.tributary.delta.KernelSchemas;
import io.tributary.schema.Schema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/** Reads every row of a table snapshot through a Kernel scan (no filter), in Tributary's row form. */
public final class TableReader {
    private TableReader() {
    }

    public static List<Object[]> readAll(Engine engine, Snapshot snapshot) {
        List<Object[]> rows = new ArrayList<>();
        forEachFile(engine, snapshot, fileRows -> {
            rows.addAll(fileRows);
            return true;
        });
        return rows;
    }

    /**
     * Hands the rows of {@code snapshot} to {@code rows} a data file at a time (its deleted rows left out), until it
     * returns false; memory holds one file's rows.
     */
    public static void forEachFile(Engine engine, Snapshot snapshot, Predicate<List<Object[]>> rows) {
        Schema schema = KernelSchemas.fromKernel(snapshot.getPath(), snapshot.getSchema());
        Scan scan = snapshot.getScanBuilder().build();
        Row scanState = scan.getScanState(engine);
        StructType physical = KernelInternals.physicalReadSchema(scanState);
        try (CloseableIterator<FilteredColumnarBatch> files = scan.getScanFiles(engine)) {
            while (files.hasNext()) {
                try (CloseableIterator<Row> scanFiles = files.next().getRows()) {
                    while (scanFiles.hasNext()) {
                        List<Object[]> fileRows = new ArrayList<>();
                        readFile(engine, scanState, scanFiles.next(), physical, schema, fileRows);
                        if (!rows.test(fileRows)) {
                            return;
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read Delta table " + snapshot.getPath() + " at version " + snapshot.getVersion(), e);
        }
    }

    static void readFile(Engine engine, Row scanState, Row scanFile, StructType physical, Schema schema,
                                 List<Object[]> rows) throws IOException {
        try (CloseableIterator<FilteredColumnarBatch> logical = batches(engine, scanState, scanFile, physical)) {
            while (logical.hasNext()) {
                KernelRows.addRows(schema, logical.next(), rows);
            }
        }
    }

    /** The logical batches of one scan file (its deletion vector as their selection vectors); the caller closes them. */
    static CloseableIterator<FilteredColumnarBatch> batches(Engine engine, Row scanState, Row scanFile, StructType physical)
            throws IOException {
        FileStatus file = KernelInternals.scanFileStatus(scanFile);
        CloseableIterator<ColumnarBatch> data = engine.getParquetHandler()
                .readParquetFiles(single(file), physical, Optional.empty())
                .map(FileReadResult::getData);
        return KernelInternals.transformPhysicalData(engine, scanState, scanFile, data);
    }

    private static <T> CloseableIterator<T> single(T item) {
        return Iterators.of(List.of(item));
    }
}
