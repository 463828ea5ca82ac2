package io.tributary.sink.internal;

import io.delta.kernel.Scan;
import io.delta.kernel.Snapshot;
import io.delta.kernel.data.FilteredColumnarBatch;
import io.delta.kernel.data.Row;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.utils.CloseableIterator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One data file of a snapshot, as its {@code add} holds it.
 *
 * @param logPath the {@code add.path} (relative to the table root, URI-encoded, as in the log)
 * @param absolutePath the file's absolute path
 * @param partitionValues serialized partition values (empty for an unpartitioned table)
 * @param scanFile Kernel's scan-file row (for reading the file and removing it)
 */
public record TableFile(String logPath, String absolutePath, long size, long modificationTime,
                        Map<String, String> partitionValues, Row scanFile) {

    /** Every data file of {@code snapshot}, in scan order. */
    public static List<TableFile> list(Engine engine, Snapshot snapshot) {
        return list(engine, snapshot.getScanBuilder().build());
    }

    /** Every data file {@code scan} reads. */
    public static List<TableFile> list(Engine engine, Scan scan) {
        List<TableFile> out = new ArrayList<>();
        try (CloseableIterator<FilteredColumnarBatch> batches = scan.getScanFiles(engine)) {
            while (batches.hasNext()) {
                try (CloseableIterator<Row> rows = batches.next().getRows()) {
                    while (rows.hasNext()) {
                        out.add(KernelInternals.tableFile(rows.next()));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the files of Delta table " + scan, e);
        }
        return out;
    }
}
