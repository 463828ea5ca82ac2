package io.tributary.sink.internal;

import io.delta.kernel.Snapshot;
import io.delta.kernel.data.Row;
import io.delta.kernel.expressions.Literal;
import io.delta.kernel.internal.InternalScanFileUtils;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.internal.SnapshotImpl;
import io.delta.kernel.internal.TableConfig;
import io.delta.kernel.internal.snapshot.MetadataCleanup;
import io.delta.kernel.internal.actions.AddFile;
import io.delta.kernel.internal.actions.DomainMetadata;
import io.delta.kernel.internal.actions.Protocol;
import io.delta.kernel.internal.actions.SingleAction;
import io.delta.kernel.internal.data.ScanStateRow;
import io.delta.kernel.internal.data.TransactionStateRow;
import io.delta.kernel.internal.fs.Path;
import io.delta.kernel.internal.util.FileNames;
import io.delta.kernel.internal.util.PartitionUtils;
import io.delta.kernel.types.DataType;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.DataFileStatus;
import io.delta.kernel.utils.FileStatus;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

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

    /** A scan-file row as a {@link TableFile}. */
    static TableFile tableFile(Row scanFile) {
        AddFile add = addOf(scanFile);
        return new TableFile(add.getPath(), scanFileStatus(scanFile).getPath(), add.getSize(), add.getModificationTime(),
                partitionValues(scanFile), scanFile);
    }

    private static AddFile addOf(Row scanFile) {
        return new AddFile(scanFile.getStruct(InternalScanFileUtils.ADD_FILE_ORDINAL));
    }

    /** A scan file's partition values as the log holds them (serialized strings; null for a null value). */
    static Map<String, String> partitionValues(Row scanFile) {
        return new TreeMap<>(InternalScanFileUtils.getPartitionValues(scanFile));
    }

    /** A serialized partition value as a Kernel literal of the column's type. */
    static Literal partitionLiteral(DataType type, String serialized) {
        return PartitionUtils.literalForPartitionValue(type, serialized);
    }

    /** A {@code remove} with {@code dataChange=false} for a scan file: compaction, which moves rows without changing them (notes 4.2). */
    static Row removeWithoutDataChange(Row scanFile) {
        return SingleAction.createRemoveFileSingleAction(addOf(scanFile).toRemoveFileRow(false, Optional.empty()));
    }

    /** An {@code add} with {@code dataChange=false} for a file written by a compaction (notes 4.2). */
    static Row addWithoutDataChange(Row txnState, DataFileStatus file, Map<String, Literal> partitionValues) {
        StructType physical = TransactionStateRow.getPhysicalSchema(txnState);
        java.net.URI root = new Path(TransactionStateRow.getTablePath(txnState)).toUri();
        AddFile add = AddFile.convertDataFileStatus(physical, root, file, partitionValues, false, Map.of(),
                Optional.empty(), Optional.empty(), Optional.empty());
        return SingleAction.createAddFileSingleAction(add.toRow());
    }

    /** The table's active domain metadata, domain to configuration. */
    static Map<String, String> domains(Snapshot snapshot) {
        Map<String, String> out = new TreeMap<>();
        if (snapshot instanceof SnapshotImpl impl) {
            for (Map.Entry<String, DomainMetadata> e : impl.getActiveDomainMetadataMap().entrySet()) {
                out.put(e.getKey(), e.getValue().getConfiguration());
            }
        }
        return out;
    }

    /**
     * Deletes commits and checkpoints older than {@code delta.logRetentionDuration} that a newer
     * checkpoint makes unneeded, as Kernel's checkpoint does, unless the table turns it off
     * ({@code delta.enableExpiredLogCleanup=false}, {@code checkpointProtection}); then the {@code .crc}
     * checksums of the versions deleted, as Delta's own clean-up does (Kernel's leaves them, so they
     * would pile up for ever). Needed because Kernel 4.4's CHECKPOINT post-commit hook checkpoints a
     * snapshot loaded at a version, not as the latest, and so always skips its clean-up ("Log cleanup
     * is disabled"). Returns the files deleted.
     */
    static long cleanUpExpiredLogs(Engine engine, Snapshot latest) throws java.io.IOException {
        if (!(latest instanceof SnapshotImpl s)
                || s.getProtocol().getWriterFeatures().contains("checkpointProtection")
                || !TableConfig.EXPIRED_LOG_CLEANUP_ENABLED.fromMetadata(s.getMetadata())) {
            return 0;
        }
        long retentionMs = TableConfig.LOG_RETENTION.fromMetadata(s.getMetadata());
        long now = System.currentTimeMillis();
        long deleted = MetadataCleanup.cleanupExpiredLogs(engine, () -> now, s.getDataPath(), retentionMs);
        return deleted + deleteExpiredChecksums(engine, s.getLogPath(), now - retentionMs);
    }

    /**
     * Deletes the {@code N.crc} files last modified before {@code cutOff} whose version is older than
     * the oldest commit left in the log: no reader can load those versions any more. Lists from
     * version 0 and stops at the first commit (a crc sorts before the commit of its version).
     */
    private static long deleteExpiredChecksums(Engine engine, Path logPath, long cutOff) throws java.io.IOException {
        java.util.List<String> candidates = new java.util.ArrayList<>();
        long oldestCommit = -1;
        try (var files = engine.getFileSystemClient().listFrom(FileNames.listingPrefix(logPath, 0))) {
            while (files.hasNext()) {
                FileStatus f = files.next();
                if (FileNames.isPublishedDeltaFile(f.getPath())) {
                    oldestCommit = FileNames.deltaVersion(f.getPath());
                    break;
                }
                if (FileNames.isChecksumFile(f.getPath()) && f.getModificationTime() <= cutOff) {
                    candidates.add(f.getPath());
                }
            }
        }
        long deleted = 0;
        for (String crc : candidates) {
            if (oldestCommit >= 0 && FileNames.checksumVersion(new Path(crc)) < oldestCommit
                    && engine.getFileSystemClient().delete(crc)) {
                deleted++;
            }
        }
        return deleted;
    }

    /** The protocol as {@code (reader, writer) [features]}. */
    static String protocol(Snapshot snapshot) {
        Protocol p = snapshot.getProtocol();
        String s = "(" + p.getMinReaderVersion() + "," + p.getMinWriterVersion() + ")";
        if (!p.getReaderAndWriterFeatures().isEmpty() || !p.getWriterFeatures().isEmpty()) {
            s += " readerFeatures " + new java.util.TreeSet<>(p.getReaderFeatures()) + " writerFeatures " + new java.util.TreeSet<>(p.getWriterFeatures());
        }
        return s;
    }
}
