package io.tributary.delta.kernel;

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
import io.delta.kernel.internal.util.ColumnMapping;
import io.delta.kernel.internal.util.FileNames;
import io.delta.kernel.data.FilteredColumnarBatch;
import io.delta.kernel.internal.util.PartitionUtils;
import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.types.DataType;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.DataFileStatus;
import io.delta.kernel.utils.FileStatus;
import io.delta.kernel.data.MapValue;
import io.delta.kernel.internal.DeltaLogActionUtils.DeltaAction;
import io.delta.kernel.internal.data.GenericRow;
import io.delta.kernel.internal.util.VectorUtils;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Set;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * Every use of Kernel classes outside its public API ({@code io.delta.kernel.internal}) by the Delta
 * stages: scan-file rows (their {@code add}, deletion vector, statistics; rows built from a commit's
 * actions, as the Delta Flink sink does), {@code add} and {@code remove} actions (Kernel has no public
 * API for removes), the protocol, domain metadata, checkpoints and log clean-up. With {@link KernelTransactions},
 * {@link KernelChangeData} and {@link KernelDeletionVectors} it is the one door into Kernel's internals: {@code ModuleBoundariesTest}
 * allows them nowhere else, and {@code KernelInternalsTest} fails, naming the member, when a Kernel
 * upgrade moves one.
 */
public final class KernelInternals {
    private static final StructType ADD_IN_SCAN_FILE =
            (StructType) InternalScanFileUtils.SCAN_FILE_SCHEMA.at(InternalScanFileUtils.ADD_FILE_ORDINAL).getDataType();
    private static final int TABLE_ROOT_ORDINAL = InternalScanFileUtils.SCAN_FILE_SCHEMA.indexOf("tableRoot");

    private KernelInternals() {
    }

    /** The Parquet file (absolute path, size, time) behind a scan-file row of {@code Scan.getScanFiles}. */
    public static FileStatus scanFileStatus(Row scanFile) {
        return InternalScanFileUtils.getAddFileStatus(scanFile);
    }

    /** The {@code add.path} of a scan-file row (relative to the table root, as the log holds it). */
    public static String scanFilePath(Row scanFile) {
        return new AddFile(scanFile.getStruct(InternalScanFileUtils.ADD_FILE_ORDINAL)).getPath();
    }

    /**
     * A {@code remove} action ({@code dataChange=true}) for the file of a scan-file row, ready for
     * {@code Transaction.commit}: Kernel has no public API for removes (copy-on-write, as the Delta Flink sink's {@code CoWUpsert}).
     */
    public static Row removeAction(Row scanFile) {
        AddFile add = new AddFile(scanFile.getStruct(InternalScanFileUtils.ADD_FILE_ORDINAL));
        return SingleAction.createRemoveFileSingleAction(add.toRemoveFileRow(true, Optional.empty()));
    }

    /**
     * The physical schema to read the table's Parquet files with; a VARIANT column as the group of its {@code value} and
     * {@code metadata} bytes, which Kernel's reader reads and {@code KernelRows} makes a {@code VariantValue} of.
     */
    public static StructType physicalReadSchema(Row scanState) {
        return io.tributary.delta.KernelSchemas.physicalVariants(ScanStateRow.getPhysicalDataReadSchema(scanState));
    }

    /**
     * {@code Scan.transformPhysicalData} for batches read with {@link #physicalReadSchema}. On a column-mapped table Kernel
     * renames each batch to the table's logical schema, and refuses to when a VARIANT column was read as its group; it is
     * given a scan state whose logical schema has each VARIANT as its group, so the batches' VARIANT columns stay the
     * structs {@code KernelRows} reads (partition values, deletion vectors and the renaming applied as for any table).
     */
    public static CloseableIterator<FilteredColumnarBatch> transformPhysicalData(Engine engine, Row scanState, Row scanFile,
                                                                               CloseableIterator<ColumnarBatch> physical)
            throws java.io.IOException {
        return io.delta.kernel.Scan.transformPhysicalData(engine, variantsAsGroups(scanState), scanFile, physical);
    }

    private static Row variantsAsGroups(Row scanState) {
        StructType logical = ScanStateRow.getLogicalSchema(scanState);
        StructType read = io.tributary.delta.KernelSchemas.physicalVariants(logical);
        if (read.equals(logical) || ScanStateRow.getColumnMappingMode(scanState) == ColumnMapping.ColumnMappingMode.NONE) {
            return scanState;
        }
        return new LogicalSchemaRow(scanState, scanState.getSchema().indexOf("logicalSchemaJson"), read.toJson());
    }

    /** The size in bytes of a scan file's {@code add}. */
    public static long size(Row scanFile) {
        return addOf(scanFile).getSize();
    }

    /** The {@code modificationTime} of a scan file's {@code add}. */
    public static long modificationTime(Row scanFile) {
        return addOf(scanFile).getModificationTime();
    }

    private static AddFile addOf(Row scanFile) {
        return new AddFile(scanFile.getStruct(InternalScanFileUtils.ADD_FILE_ORDINAL));
    }

    /** A scan file's partition values as the log holds them (serialized strings; null for a null value). */
    public static Map<String, String> partitionValues(Row scanFile) {
        return new TreeMap<>(InternalScanFileUtils.getPartitionValues(scanFile));
    }

    /** A serialized partition value as a Kernel literal of the column's type. */
    public static Literal partitionLiteral(DataType type, String serialized) {
        return PartitionUtils.literalForPartitionValue(type, serialized);
    }

    /** A {@code remove} with {@code dataChange=false} for a scan file: compaction, which moves rows without changing them (notes 4.2). */
    public static Row removeWithoutDataChange(Row scanFile) {
        return SingleAction.createRemoveFileSingleAction(addOf(scanFile).toRemoveFileRow(false, Optional.empty()));
    }

    /** An {@code add} with {@code dataChange=false} for a file written by a compaction (notes 4.2). */
    public static Row addWithoutDataChange(Row txnState, DataFileStatus file, Map<String, Literal> partitionValues) {
        StructType physical = TransactionStateRow.getPhysicalSchema(txnState);
        java.net.URI root = new Path(TransactionStateRow.getTablePath(txnState)).toUri();
        AddFile add = AddFile.convertDataFileStatus(physical, root, file, partitionValues, false, Map.of(),
                Optional.empty(), Optional.empty(), Optional.empty());
        return SingleAction.createAddFileSingleAction(add.toRow());
    }

    /** The table's active domain metadata, domain to configuration. */
    public static Map<String, String> domains(Snapshot snapshot) {
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
    public static long cleanUpExpiredLogs(Engine engine, Snapshot latest) throws java.io.IOException {
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
    public static java.util.Set<String> writerFeatures(Snapshot snapshot) {
        return snapshot.getProtocol().getImplicitlyAndExplicitlySupportedFeatures().stream()
                .map(f -> f.featureName()).collect(java.util.stream.Collectors.toSet()); // every feature is a writer feature
    }

    /** The protocol as {@code (reader, writer) [features]}. */
    public static String protocol(Snapshot snapshot) {
        Protocol p = snapshot.getProtocol();
        String s = "(" + p.getMinReaderVersion() + "," + p.getMinWriterVersion() + ")";
        if (!p.getReaderAndWriterFeatures().isEmpty() || !p.getWriterFeatures().isEmpty()) {
            s += " readerFeatures " + new java.util.TreeSet<>(p.getReaderFeatures()) + " writerFeatures " + new java.util.TreeSet<>(p.getWriterFeatures());
        }
        return s;
    }

    /** The deletion vector file of a scan file's {@code add}, absolute; empty when it has none or it is stored inline in the log. */
    public static Optional<String> deletionVectorFile(Row scanFile, String tableRoot) {
        return addOf(scanFile).getDeletionVector().filter(DeletionVectorDescriptor::isOnDisk).map(dv -> dv.getAbsolutePath(tableRoot));
    }

    /** The deletion vector file a log action's {@code deletionVector} struct names, absolute; empty when inline or absent. */
    public static Optional<String> deletionVectorFile(ColumnVector dv, int row, String tableRoot) {
        DeletionVectorDescriptor d = DeletionVectorDescriptor.fromColumnVector(dv, row);
        return d == null || d.isInline() ? Optional.empty() : Optional.of(d.getAbsolutePath(tableRoot));
    }

    /** As above, from the fields of a commit JSON's {@code deletionVector} object. */
    public static Optional<String> deletionVectorFile(String storageType, String pathOrInlineDv, String tableRoot) {
        DeletionVectorDescriptor d = new DeletionVectorDescriptor(storageType, pathOrInlineDv, Optional.empty(), 0, 0);
        return d.isInline() ? Optional.empty() : Optional.of(d.getAbsolutePath(tableRoot));
    }

    /** A scan file's {@code numRecords} statistic (rows in the Parquet file), if its {@code add} has statistics. */
    public static OptionalLong numRecords(Row scanFile) {
        Optional<Long> n = addOf(scanFile).getNumRecords();
        return n.isPresent() ? OptionalLong.of(n.get()) : OptionalLong.empty();
    }

    /** The unique id of a scan file's deletion vector, if it has one. */
    public static Optional<String> deletionVectorId(Row scanFile) {
        return addOf(scanFile).getDeletionVector().map(DeletionVectorDescriptor::getUniqueId);
    }

    /** The rows a scan file's deletion vector marks deleted (0 without one). */
    public static long deletedRows(Row scanFile) {
        return addOf(scanFile).getDeletionVector().map(DeletionVectorDescriptor::getCardinality).orElse(0L);
    }

    /** When the table was created ({@code metaData.createdTime}), if the log records it. */
    public static Optional<Long> createdTime(Snapshot snapshot) {
        return snapshot instanceof SnapshotImpl s ? s.getMetadata().getCreatedTime() : Optional.empty();
    }

    /**
     * The checkpoint files the snapshot was built from: one classic file, every part of a multi-part
     * checkpoint, or a V2 checkpoint's top-level file (its sidecars are read through it); empty without a checkpoint.
     */
    public static List<FileStatus> checkpointFiles(Snapshot snapshot) {
        return snapshot instanceof SnapshotImpl s ? s.getLogSegment().getCheckpoints() : List.of();
    }

    /**
     * The actions of log files (commits, checkpoints of every kind, V2 sidecars included) read with
     * {@code schema}, as Kernel's own log replay reads them; the schema must include {@code add} or
     * {@code remove} for sidecars to be followed.
     */
    public static CloseableIterator<ColumnarBatch> readActions(Engine engine, List<FileStatus> files, StructType schema) {
        return new ActionsIterator(engine, files, schema, Optional.empty()).map(ActionWrapper::getColumnarBatch);
    }

    /** The actions a streaming read needs from each commit. */
    public static Set<DeltaAction> streamActions() {
        return EnumSet.of(DeltaAction.ADD, DeltaAction.REMOVE, DeltaAction.CDC, DeltaAction.COMMITINFO, DeltaAction.METADATA);
    }

    /** The table's id from its {@code metaData} action (an internal type in a public signature). */
    public static String tableId(io.delta.kernel.Snapshot snapshot) {
        return snapshot.getMetadata().getId();
    }

    /** The table schema a commit's {@code metaData} action sets. */
    public static StructType schemaOfMetadata(Row metaData) {
        return io.delta.kernel.internal.actions.Metadata.fromRow(metaData).getSchema();
    }

    /** A one-item iterator, as Kernel's readers take. */
    public static <T> io.delta.kernel.utils.CloseableIterator<T> single(T item) {
        return io.delta.kernel.internal.util.Utils.singletonCloseableIterator(item);
    }

    /** A commit's {@code add} action as a scan-file row (the add struct is a prefix-compatible superset). */
    public static Row scanFileOfAdd(Row add, String tableRoot) {
        Map<Integer, Object> values = new HashMap<>();
        values.put(InternalScanFileUtils.ADD_FILE_ORDINAL, add);
        values.put(TABLE_ROOT_ORDINAL, tableRoot);
        return new GenericRow(InternalScanFileUtils.SCAN_FILE_SCHEMA, values);
    }

    /**
     * A commit's {@code remove} action as a scan-file row, so that its rows can be read back as
     * change-feed deletes (the file is still on storage: Kernel never vacuums).
     */
    public static Row scanFileOfRemove(Row remove, long size, String tableRoot) {
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

    /** The read schema of a log action's {@code deletionVector} struct. */
    public static StructType deletionVectorReadSchema() {
        return DeletionVectorDescriptor.READ_SCHEMA;
    }

    /** An iterator as Kernel's commit takes its actions. */
    public static <T> CloseableIterator<T> closeable(java.util.Iterator<T> items) {
        return io.delta.kernel.internal.util.Utils.toCloseableIterator(items);
    }
}
