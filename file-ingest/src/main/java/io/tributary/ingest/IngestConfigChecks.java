package io.tributary.ingest;

import io.tributary.ingest.internal.IngestErrors;
import io.tributary.schema.DataType;
import io.tributary.schema.Schema;
import io.tributary.storage.ObjectLocation;
import java.util.Objects;

/** The checks of {@link IngestConfigBuilder#build()} on the settings that do not shape the rows: times, limits, waits, the archive. */
final class IngestConfigChecks {
    private IngestConfigChecks() {
    }

    /** @param rows the columns of the rows published (after the transform) */
    static void check(IngestConfigBuilder b, Schema rows) {
        if (b.eventTime != null) {
            int i = rows.require(b.eventTime, "eventTime");
            DataType.Kind k = rows.field(i).type().kind();
            if (k != DataType.Kind.TIMESTAMP && k != DataType.Kind.TIMESTAMP_NTZ) {
                throw IngestErrors.eventTimeNotTimestamp(b.eventTime, rows.field(i).type().ddl());
            }
        }
        if (b.watermarkDelay != null) {
            if (b.eventTime == null) {
                throw IngestErrors.watermarkWithoutEventTime();
            }
            if (b.watermarkDelay.isNegative()) {
                throw IngestErrors.negativeWatermark(b.watermarkDelay);
            }
        }
        for (String g : b.groupBy) {
            rows.require(g, "groupBy");
        }
        if (b.maxFilesPerTrigger < 1) {
            throw IngestErrors.maxFilesNotPositive(b.name(IngestSettings.MAX_FILES), b.maxFilesPerTrigger);
        }
        if (b.maxBytesPerTrigger < 1) {
            throw IngestErrors.maxBytesNotPositive(b.name(IngestSettings.MAX_BYTES), b.maxBytesPerTrigger);
        }
        Objects.requireNonNull(b.onBadRecord, "onBadRecord");
        if (b.maxLineBytes < 16) {
            throw IngestErrors.maxLineTooSmall(b.name(IngestSettings.MAX_LINE), b.maxLineBytes);
        }
        if (b.closeIdleWindowsAfter != null && (b.closeIdleWindowsAfter.isNegative() || b.idleWatermarkAdvance == null
                || b.idleWatermarkAdvance.isZero() || b.idleWatermarkAdvance.isNegative() || b.watermarkDelay == null)) {
            throw IngestErrors.badCloseIdleWindows(b.closeIdleWindowsAfter);
        }
        if (b.fileMinAge == null || b.fileMinAge.isNegative()) {
            throw IngestErrors.negativeWait(b.name(IngestSettings.FILE_MIN_AGE), b.fileMinAge);
        }
        if (b.fileSettleTime == null || b.fileSettleTime.isNegative()) {
            throw IngestErrors.negativeWait(b.name(IngestSettings.FILE_SETTLE_TIME), b.fileSettleTime);
        }
        if (b.maxFileAge == null || b.maxFileAge.isNegative()) {
            throw IngestErrors.negativeWait(b.name(IngestSettings.MAX_FILE_AGE), b.maxFileAge);
        }
        Objects.requireNonNull(b.cleanSource, "cleanSource");
        if (b.cleanSource instanceof CleanSource.Archive a) {
            if ((a.dir() == null) != (b.inputDir == null)) {
                throw IngestErrors.archiveOnOtherFileSystem(b.name(IngestSettings.ARCHIVE_DIR), a.location(), b.inputLocation);
            }
            if (a.dir() != null) {
                a.requireOutside(b.name(IngestSettings.ARCHIVE_DIR), b.inputDir);
            } else {
                requireOutside(b.name(IngestSettings.ARCHIVE_DIR), ObjectLocation.parse(a.location()), ObjectLocation.parse(b.inputLocation));
            }
        }
    }

    private static void requireOutside(String key, ObjectLocation archive, ObjectLocation input) {
        if (archive.bucket().equals(input.bucket()) && archive.prefix().startsWith(input.prefix())) {
            throw IngestErrors.archiveInsideInput(key, archive, input);
        }
    }
}
