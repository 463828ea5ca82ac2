package io.tributary.sink.internal;

import io.delta.kernel.data.Row;
import io.delta.kernel.internal.InternalScanFileUtils;
import io.delta.kernel.internal.data.ScanStateRow;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.FileStatus;

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

    /** The physical schema to read the table's Parquet files with. */
    static StructType physicalReadSchema(Row scanState) {
        return ScanStateRow.getPhysicalDataReadSchema(scanState);
    }
}
