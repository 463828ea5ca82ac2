package io.tributary.sink.internal;

import io.delta.kernel.data.Row;
import io.delta.kernel.internal.InternalScanFileUtils;
import io.delta.kernel.internal.actions.AddFile;
import io.delta.kernel.internal.actions.SingleAction;
import io.delta.kernel.internal.data.ScanStateRow;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.FileStatus;
import java.util.Optional;

/**
 * The only place that touches Kernel classes outside its public API ({@code io.delta.kernel.internal}),
 * as Kernel's own examples do for reading; an upgrade may move these.
 */
final class KernelInternals {
    private KernelInternals() {
    }

    /** The Parquet file (absolute path, size, time) behind a scan-file row of {@code Scan.getScanFiles}. */
    static FileStatus scanFileStatus(Row scanFile) {
        return InternalScanFileUtils.getAddFileStatus(scanFile);
    }

    /** The {@code add.path} of a scan-file row (relative to the table root, as the log holds it). */
    static String scanFilePath(Row scanFile) {
        return new AddFile(scanFile.getStruct(InternalScanFileUtils.ADD_FILE_ORDINAL)).getPath();
    }

    /**
     * A {@code remove} action ({@code dataChange=true}) for the file of a scan-file row, ready for
     * {@code Transaction.commit}: Kernel has no public API for removes (copy-on-write, as the Delta Flink sink's {@code CoWUpsert}).
     */
    static Row removeAction(Row scanFile) {
        AddFile add = new AddFile(scanFile.getStruct(InternalScanFileUtils.ADD_FILE_ORDINAL));
        return SingleAction.createRemoveFileSingleAction(add.toRemoveFileRow(true, Optional.empty()));
    }

    /** The physical schema to read the table's Parquet files with. */
    static StructType physicalReadSchema(Row scanState) {
        return ScanStateRow.getPhysicalDataReadSchema(scanState);
    }
}
