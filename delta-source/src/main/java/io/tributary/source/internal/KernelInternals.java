package io.tributary.source.internal;

import io.delta.kernel.data.MapValue;
import io.delta.kernel.data.Row;
import io.delta.kernel.internal.DeltaLogActionUtils.DeltaAction;
import io.delta.kernel.internal.InternalScanFileUtils;
import io.delta.kernel.internal.data.GenericRow;
import io.delta.kernel.internal.data.ScanStateRow;
import io.delta.kernel.internal.util.VectorUtils;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.FileStatus;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The only place that touches Kernel classes outside its public API ({@code io.delta.kernel.internal}):
 * the scan-file rows that {@code Scan.transformPhysicalData} takes, built from a log action as the
 * Delta Flink sink does, and the action kinds of {@code CommitRange}. An upgrade may move these.
 */
final class KernelInternals {
    private static final StructType ADD_IN_SCAN_FILE =
            (StructType) InternalScanFileUtils.SCAN_FILE_SCHEMA.at(InternalScanFileUtils.ADD_FILE_ORDINAL).getDataType();
    private static final int TABLE_ROOT_ORDINAL = InternalScanFileUtils.SCAN_FILE_SCHEMA.indexOf("tableRoot");

    private KernelInternals() {
    }

    /** The actions a streaming read needs from each commit. */
    static Set<DeltaAction> streamActions() {
        return EnumSet.of(DeltaAction.ADD, DeltaAction.REMOVE, DeltaAction.CDC, DeltaAction.COMMITINFO, DeltaAction.METADATA);
    }

    /** The table's id from its {@code metaData} action (an internal type in a public signature). */
    static String tableId(io.delta.kernel.Snapshot snapshot) {
        return snapshot.getMetadata().getId();
    }

    /** The table schema a commit's {@code metaData} action sets. */
    static StructType schemaOfMetadata(Row metaData) {
        return io.delta.kernel.internal.actions.Metadata.fromRow(metaData).getSchema();
    }

    /** A one-item iterator, as Kernel's readers take. */
    static <T> io.delta.kernel.utils.CloseableIterator<T> single(T item) {
        return io.delta.kernel.internal.util.Utils.singletonCloseableIterator(item);
    }

    /** The Parquet file (absolute path, size, time) behind a scan-file row. */
    static FileStatus scanFileStatus(Row scanFile) {
        return InternalScanFileUtils.getAddFileStatus(scanFile);
    }

    /** The physical schema to read the table's Parquet files with. */
    static StructType physicalReadSchema(Row scanState) {
        return ScanStateRow.getPhysicalDataReadSchema(scanState);
    }

    /** A commit's {@code add} action as a scan-file row (the add struct is a prefix-compatible superset). */
    static Row scanFileOfAdd(Row add, String tableRoot) {
        Map<Integer, Object> values = new HashMap<>();
        values.put(InternalScanFileUtils.ADD_FILE_ORDINAL, add);
        values.put(TABLE_ROOT_ORDINAL, tableRoot);
        return new GenericRow(InternalScanFileUtils.SCAN_FILE_SCHEMA, values);
    }

    /**
     * A commit's {@code remove} action as a scan-file row, so that its rows can be read back as
     * change-feed deletes (the file is still on storage: Kernel never vacuums).
     */
    static Row scanFileOfRemove(Row remove, long size, String tableRoot) {
        StructType rs = remove.getSchema();
        Map<Integer, Object> add = new HashMap<>();
        add.put(ADD_IN_SCAN_FILE.indexOf("path"), remove.getString(rs.indexOf("path")));
        int pv = rs.indexOf("partitionValues");
        MapValue partitionValues = remove.isNullAt(pv) ? VectorUtils.stringStringMapValue(Map.of()) : remove.getMap(pv);
        add.put(ADD_IN_SCAN_FILE.indexOf("partitionValues"), partitionValues);
        add.put(ADD_IN_SCAN_FILE.indexOf("size"), size);
        add.put(ADD_IN_SCAN_FILE.indexOf("modificationTime"), 0L);
        add.put(ADD_IN_SCAN_FILE.indexOf("dataChange"), true);
        return scanFileOfAdd(new GenericRow(ADD_IN_SCAN_FILE, add), tableRoot);
    }
}
