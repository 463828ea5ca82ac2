package io.tributary.sink.internal;

import io.tributary.delta.kernel.KernelInternals;
import io.delta.kernel.Scan;
import io.delta.kernel.Snapshot;
import io.delta.kernel.data.FilteredColumnarBatch;
import io.delta.kernel.data.Row;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterator;
import io.tributary.delta.ColumnMapping;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * One data file of a snapshot, as its {@code add} holds it.
 *
 * @param logPath the {@code add.path} (relative to the table root, URI-encoded, as in the log)
 * @param absolutePath the file's absolute path
 * @param partitionValues serialized partition values by column name (empty for an unpartitioned table; by the
 *     log's keys, physical names on a column-mapped table, when listed from a bare scan)
 * @param scanFile Kernel's scan-file row (for reading the file and removing it)
 */
public record TableFile(String logPath, String absolutePath, long size, long modificationTime,
                        Map<String, String> partitionValues, Row scanFile) {

    /** Every data file of {@code snapshot}, in scan order. */
    public static List<TableFile> list(Engine engine, Snapshot snapshot) {
        return list(engine, snapshot.getScanBuilder().build(), false, snapshot.getSchema());
    }

    /** Every data file of {@code snapshot} with its {@code add}'s statistics ({@link #numRecords()}), in scan order. */
    public static List<TableFile> listWithStatistics(Engine engine, Snapshot snapshot) {
        return list(engine, snapshot.getScanBuilder().build(), true, snapshot.getSchema());
    }

    /** Every data file {@code scan} of {@code snapshot} reads, with its {@code add}'s statistics ({@link #numRecords()}). */
    public static List<TableFile> listWithStatistics(Engine engine, Snapshot snapshot, Scan scan) {
        return list(engine, scan, true, snapshot.getSchema());
    }

    /** Every data file {@code scan} reads (partition values keyed as the log keys them). */
    public static List<TableFile> list(Engine engine, Scan scan) {
        return list(engine, scan, false, null);
    }

    private static List<TableFile> list(Engine engine, Scan scan, boolean includeStats, StructType schema) {
        List<TableFile> out = new ArrayList<>();
        try (CloseableIterator<FilteredColumnarBatch> batches = scan.getScanFiles(engine, includeStats)) {
            while (batches.hasNext()) {
                try (CloseableIterator<Row> rows = batches.next().getRows()) {
                    while (rows.hasNext()) {
                        TableFile f = of(rows.next());
                        out.add(schema == null ? f : f.withLogicalPartitionValues(schema));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the files of Delta table " + scan, e);
        }
        return out;
    }

    /** A scan-file row of {@code Scan.getScanFiles} as a table file. */
    static TableFile of(Row scanFile) {
        return new TableFile(KernelInternals.scanFilePath(scanFile), KernelInternals.scanFileStatus(scanFile).getPath(),
                KernelInternals.size(scanFile), KernelInternals.modificationTime(scanFile), KernelInternals.partitionValues(scanFile), scanFile);
    }

    /** This file with its partition values keyed by the column names of {@code schema} (the log keys them by physical name on a column-mapped table). */
    TableFile withLogicalPartitionValues(StructType schema) {
        return partitionValues.isEmpty() ? this : new TableFile(logPath, absolutePath, size, modificationTime,
                new java.util.TreeMap<>(ColumnMapping.logicalPartitionValues(partitionValues, schema)), scanFile);
    }

    /** Rows in the Parquet file per the {@code add}'s statistics ({@code numRecords}); empty if it has none (or was listed without them). */
    public OptionalLong numRecords() {
        return KernelInternals.numRecords(scanFile);
    }

    /** Rows of the file that its deletion vector marks deleted; 0 without one. */
    public long deletedRows() {
        return KernelInternals.deletedRows(scanFile);
    }

    /** The file with its deletion vector, as the log identifies an {@code add}: a new deletion vector makes it another. */
    public String identity() {
        return identity(logPath, scanFile);
    }

    /** {@link #identity()} of a scan-file row of {@code Scan.getScanFiles}. */
    static String identity(Row scanFile) {
        return identity(KernelInternals.scanFilePath(scanFile), scanFile);
    }

    private static String identity(String logPath, Row scanFile) {
        return logPath + KernelInternals.deletionVectorId(scanFile).map(id -> " dv " + id).orElse("");
    }
}
