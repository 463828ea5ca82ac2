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
import io.delta.kernel.internal.actions.DeletionVectorDescriptor;
import io.delta.kernel.internal.actions.DomainMetadata;
import io.delta.kernel.internal.actions.Protocol;
import io.delta.kernel.internal.actions.SingleAction;
import io.delta.kernel.internal.data.ScanStateRow;
import io.delta.kernel.internal.data.TransactionStateRow;
import io.delta.kernel.internal.replay.ActionWrapper;
import io.delta.kernel.internal.replay.ActionsIterator;
import io.delta.kernel.internal.fs.Path;
import io.delta.kernel.internal.util.FileNames;
import io.delta.kernel.internal.util.PartitionUtils;
import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.types.DataType;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.DataFileStatus;
import io.delta.kernel.utils.FileStatus;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
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

    /** The table's writer features, those of a legacy protocol version included ({@code appendOnly}, {@code invariants}, ...). */
    static java.util.Set<String> writerFeatures(Snapshot snapshot) {
        return snapshot.getProtocol().getImplicitlyAndExplicitlySupportedFeatures().stream()
                .map(f -> f.featureName()).collect(java.util.stream.Collectors.toSet()); // every feature is a writer feature
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

    /** The deletion vector file of a scan file's {@code add}, absolute; empty when it has none or it is stored inline in the log. */
    static Optional<String> deletionVectorFile(Row scanFile, String tableRoot) {
        return addOf(scanFile).getDeletionVector().filter(DeletionVectorDescriptor::isOnDisk).map(dv -> dv.getAbsolutePath(tableRoot));
    }

    /** The deletion vector file a log action's {@code deletionVector} struct names, absolute; empty when inline or absent. */
    static Optional<String> deletionVectorFile(ColumnVector dv, int row, String tableRoot) {
        DeletionVectorDescriptor d = DeletionVectorDescriptor.fromColumnVector(dv, row);
        return d == null || d.isInline() ? Optional.empty() : Optional.of(d.getAbsolutePath(tableRoot));
    }

    /** As above, from the fields of a commit JSON's {@code deletionVector} object. */
    static Optional<String> deletionVectorFile(String storageType, String pathOrInlineDv, String tableRoot) {
        DeletionVectorDescriptor d = new DeletionVectorDescriptor(storageType, pathOrInlineDv, Optional.empty(), 0, 0);
        return d.isInline() ? Optional.empty() : Optional.of(d.getAbsolutePath(tableRoot));
    }

    /** A scan file's {@code numRecords} statistic (rows in the Parquet file), if its {@code add} has statistics. */
    static OptionalLong numRecords(Row scanFile) {
        Optional<Long> n = addOf(scanFile).getNumRecords();
        return n.isPresent() ? OptionalLong.of(n.get()) : OptionalLong.empty();
    }

    /** The unique id of a scan file's deletion vector, if it has one. */
    static Optional<String> deletionVectorId(Row scanFile) {
        return addOf(scanFile).getDeletionVector().map(DeletionVectorDescriptor::getUniqueId);
    }

    /** The rows a scan file's deletion vector marks deleted (0 without one). */
    static long deletedRows(Row scanFile) {
        return addOf(scanFile).getDeletionVector().map(DeletionVectorDescriptor::getCardinality).orElse(0L);
    }

    /** When the table was created ({@code metaData.createdTime}), if the log records it. */
    static Optional<Long> createdTime(Snapshot snapshot) {
        return snapshot instanceof SnapshotImpl s ? s.getMetadata().getCreatedTime() : Optional.empty();
    }

    /**
     * The checkpoint files the snapshot was built from: one classic file, every part of a multi-part
     * checkpoint, or a V2 checkpoint's top-level file (its sidecars are read through it); empty without a checkpoint.
     */
    static List<FileStatus> checkpointFiles(Snapshot snapshot) {
        return snapshot instanceof SnapshotImpl s ? s.getLogSegment().getCheckpoints() : List.of();
    }

    /**
     * The actions of log files (commits, checkpoints of every kind, V2 sidecars included) read with
     * {@code schema}, as Kernel's own log replay reads them; the schema must include {@code add} or
     * {@code remove} for sidecars to be followed.
     */
    static CloseableIterator<ColumnarBatch> readActions(Engine engine, List<FileStatus> files, StructType schema) {
        return new ActionsIterator(engine, files, schema, Optional.empty()).map(ActionWrapper::getColumnarBatch);
    }
}
