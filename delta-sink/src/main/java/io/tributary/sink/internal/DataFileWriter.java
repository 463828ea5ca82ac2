package io.tributary.sink.internal;

import io.delta.kernel.DataWriteContext;
import io.delta.kernel.Transaction;
import io.delta.kernel.data.FilteredColumnarBatch;
import io.delta.kernel.data.Row;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.expressions.Column;
import io.delta.kernel.expressions.Literal;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.DataFileStatus;
import io.tributary.delta.ColumnMapping;
import io.tributary.delta.KernelEngines;
import io.tributary.delta.RemoteFiles;
import io.tributary.delta.RowBatch;
import io.tributary.schema.Schema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Writes a batch's rows as the Parquet data files of a Delta transaction and returns their
 * {@code add} actions: the one place where the sink writes data files (appends and rewrites alike).
 *
 * <p>Two named strategies: {@link Strategy#DIRECT} (the default) writes the files itself with
 * parquet-mr's record writer straight from {@code Object[]} rows and takes the statistics from the
 * footer it just wrote ({@link DirectParquetFiles}); {@link Strategy#KERNEL} hands a columnar view
 * of the rows to Kernel's default Parquet writer. Both write the same Parquet types and the same
 * statistics, at about the same speed (delta-sink/README.md, "Writing Parquet"). DIRECT writes a
 * local table's files in place, and another file system's (object storage) into local temporary
 * files, each uploaded when complete ({@link DataFileTargets}); a partition's files go into the folder
 * Kernel names for it, without the partition columns, and a column-mapped table's columns under their
 * physical names and ids as Parquet field ids ({@link FileColumns}). KERNEL is used when the system property
 * {@value #STRATEGY_PROPERTY} says {@code kernel}, except for a table with a VARIANT column, which is
 * always written DIRECT: Kernel 4.4 writes no variant data.
 */
public final class DataFileWriter {
    /** The system property that picks the strategy: {@code direct} (default) or {@code kernel}. */
    public static final String STRATEGY_PROPERTY = "tributary.sink.parquetWriter";

    /** How the files are written. */
    public enum Strategy { DIRECT, KERNEL }

    private final Engine engine;
    private final Schema schema;
    private final StructType kernelSchema;
    private final long targetFileSize;
    /** The columns whose dictionary fell back in the table's last data file; change data files keep their own. */
    private final DictionaryFallbacks dataFallbacks = new DictionaryFallbacks();
    private final DictionaryFallbacks changeFallbacks = new DictionaryFallbacks();

    /** @param targetFileSize the DIRECT strategy's file size; KERNEL's is the engine's ({@code KernelEngines.withTargetFileSize}) */
    public DataFileWriter(Engine engine, Schema schema, StructType kernelSchema, long targetFileSize) {
        this.engine = engine;
        this.schema = schema;
        this.kernelSchema = kernelSchema;
        this.targetFileSize = targetFileSize;
    }

    /**
     * Writes {@code rows} (all of one {@code partition}: its column values, empty for an
     * unpartitioned table) as data files of {@code txn}; returns their add actions.
     */
    public List<Row> write(Transaction txn, Map<String, Literal> partition, List<Object[]> rows) {
        if (rows.isEmpty()) {
            return List.of();
        }
        Optional<DirectParquetFiles.Rolling> direct = direct(txn, partition);
        try {
            if (direct.isPresent()) {
                for (Object[] row : rows) {
                    direct.get().write(row);
                }
                return addActions(txn, partition, direct.get().finish());
            }
            Row state = txn.getTransactionState(engine);
            DataWriteContext ctx = Transaction.getWriteContext(engine, state, partition);
            return addActions(state, ctx, kernelFiles(txn, state, ctx, partition, rows));
        } catch (IOException e) {
            direct.ifPresent(DirectParquetFiles.Rolling::abort);
            throw new UncheckedIOException("delta table: cannot write Parquet files for " + txn.getSchema(engine), e);
        }
    }

    /**
     * Tributary's own writer for the files of {@code txn}'s unpartitioned table, row by row, when it
     * applies (see the class comment); empty when Kernel's writer must be used. A table that is not
     * on the local disk gets each file written locally and uploaded when complete.
     */
    Optional<DirectParquetFiles.Rolling> direct(Transaction txn) {
        return direct(txn, Map.of());
    }

    /**
     * As above, for the files of one {@code partition} (its column values; empty for an unpartitioned table): they go into
     * the partition's folder, without the partition columns.
     */
    Optional<DirectParquetFiles.Rolling> direct(Transaction txn, Map<String, Literal> partition) {
        boolean variant = io.tributary.delta.KernelSchemas.hasVariant(kernelSchema); // Kernel writes no variant data
        if (strategy() != Strategy.DIRECT && !variant) {
            return Optional.empty();
        }
        return Optional.of(rolling(txn, partition));
    }

    /** Tributary's own writer for the files of {@code partition} of {@code txn}'s table, whatever the strategy. */
    DirectParquetFiles.Rolling rolling(Transaction txn, Map<String, Literal> partition) {
        Row state = txn.getTransactionState(engine);
        DataWriteContext ctx = Transaction.getWriteContext(engine, state, partition);
        StructType table = txn.getSchema(engine);
        FileColumns columns = FileColumns.of(schema, kernelSchema, table, txn.getPartitionColumns(engine));
        String folder = ctx.getTargetDirectory();
        Optional<Path> localDir = localDirectory(folder);
        try {
            DataFileTargets.Target target = localDir.isPresent() ? DataFileTargets.local(localDir.get())
                    : DataFileTargets.upload(RemoteFiles.of(KernelEngines.configuration(engine), folder));
            return new DirectParquetFiles.Rolling(target, folder, columns, statisticsColumns(engine, txn, ctx),
                    targetFileSize, "%s-%03d.parquet", dataFallbacks);
        } catch (IOException e) {
            throw new UncheckedIOException("delta table: cannot create the folder " + folder, e);
        }
    }

    /** The add actions of the unpartitioned files {@code files}, written by {@link #direct}. */
    List<Row> addActions(Transaction txn, List<DataFileStatus> files) throws IOException {
        return addActions(txn, Map.of(), files);
    }

    /** The add actions of the files {@code files} of {@code partition}, written by {@link #direct}. */
    List<Row> addActions(Transaction txn, Map<String, Literal> partition, List<DataFileStatus> files) throws IOException {
        Row state = txn.getTransactionState(engine);
        return addActions(state, Transaction.getWriteContext(engine, state, partition), Iterators.of(files));
    }

    private List<Row> addActions(Row state, DataWriteContext ctx, CloseableIterator<DataFileStatus> files) throws IOException {
        List<Row> actions = new ArrayList<>();
        try (CloseableIterator<Row> adds = Transaction.generateAppendActions(engine, state, files, ctx)) {
            adds.forEachRemaining(actions::add);
        }
        return actions;
    }

    private CloseableIterator<DataFileStatus> kernelFiles(Transaction txn, Row state, DataWriteContext ctx, Map<String, Literal> partition,
                                                          List<Object[]> rows) throws IOException {
        FilteredColumnarBatch batch = new FilteredColumnarBatch(new RowBatch(kernelSchema, rows), Optional.empty());
        CloseableIterator<FilteredColumnarBatch> physical = physicalData(engine, txn, state, Iterators.of(List.of(batch)), partition);
        return engine.getParquetHandler().writeParquetFiles(ctx.getTargetDirectory(), physical, statisticsColumns(engine, txn, ctx));
    }

    /**
     * The columns whose statistics the files' adds carry: Kernel's, less the partition columns of a
     * column-mapped table (Kernel 4.4 leaves them out by their logical names, and lists the physical ones).
     */
    static List<Column> statisticsColumns(Engine engine, Transaction txn, DataWriteContext ctx) {
        StructType tableSchema = txn.getSchema(engine);
        if (!ColumnMapping.isMapped(tableSchema) || txn.getPartitionColumns(engine).isEmpty()) {
            return ctx.getStatisticsColumns();
        }
        java.util.Set<String> partitions = new java.util.HashSet<>();
        for (String c : txn.getPartitionColumns(engine)) {
            partitions.add(ColumnMapping.physicalName(tableSchema.get(c)));
        }
        return ctx.getStatisticsColumns().stream().filter(c -> !partitions.contains(c.getNames()[0])).toList();
    }

    /**
     * The logical batches of a table's rows as the data to write in its files: Kernel's
     * {@code transformLogicalData}, or on a table with column mapping (which Kernel refuses) the columns
     * renamed to their physical names, with their ids as Parquet field ids, the partition columns left out.
     */
    static CloseableIterator<FilteredColumnarBatch> physicalData(Engine engine, Transaction txn, Row txnState,
            CloseableIterator<FilteredColumnarBatch> logical, Map<String, Literal> partition) {
        StructType tableSchema = txn.getSchema(engine);
        if (!ColumnMapping.isMapped(tableSchema)) {
            return Transaction.transformLogicalData(engine, txnState, logical, partition);
        }
        java.util.Set<String> partitionColumns = new java.util.HashSet<>(txn.getPartitionColumns(engine));
        return logical.map(b -> new FilteredColumnarBatch(ColumnMapping.physicalBatch(b.getData(), tableSchema, partitionColumns),
                b.getSelectionVector()));
    }

    /** The strategy the system property asks for (DIRECT unless it says kernel). */
    public static Strategy strategy() {
        String s = System.getProperty(STRATEGY_PROPERTY, "direct").trim().toLowerCase(Locale.ROOT);
        return "kernel".equals(s) ? Strategy.KERNEL : Strategy.DIRECT;
    }

    /**
     * True when the Parquet columns are named as the table's columns: no column mapping (which
     * Iceberg compatibility implies too), so no field carries a physical name or id.
     */
    static boolean plainNames(StructType schema) {
        for (StructField f : schema.fields()) {
            if (f.getMetadata().contains("delta.columnMapping.physicalName") || f.getMetadata().contains("delta.columnMapping.id")
                    || (f.getDataType() instanceof StructType st && !plainNames(st))) {
                return false;
            }
        }
        return true;
    }

    /** The local folder behind a Kernel target directory ({@code file:} URI or plain path); empty for other file systems. */
    static Optional<Path> localDirectory(String target) {
        if (target.startsWith("file:")) {
            return Optional.of(Path.of(URI.create(target.startsWith("file:///") || !target.startsWith("file://")
                    ? target : "file:///" + target.substring("file://".length()))));
        }
        if (target.matches("^[A-Za-z][A-Za-z0-9+.-]+:.*") && !target.matches("^[A-Za-z]:[\\\\/].*")) {
            return Optional.empty();
        }
        return Optional.of(Path.of(target));
    }

    /** The folder of the change data files, under the table root (PROTOCOL.md, "Change Data Files"). */
    public static final String CHANGE_DATA_DIR = "_change_data";
    /** The column of a change data file that says what the row is: insert, update_preimage, update_postimage, delete. */
    public static final String CHANGE_TYPE = "_change_type";

    /**
     * Writes change rows (the table's columns, then {@value #CHANGE_TYPE}) as the change data files of
     * {@code txn}'s table, {@code _change_data/cdc-<n>-<uuid>.c000.snappy.parquet} as Spark names them, with
     * the DIRECT writer (Snappy, no statistics: a change file's {@code cdc} action carries none); returns their
     * {@code cdc} actions. Only unpartitioned tables without column mapping.
     */
    public List<Row> writeChanges(Transaction txn, List<Object[]> rows) {
        if (rows.isEmpty()) {
            return List.of();
        }
        if (!txn.getPartitionColumns(engine).isEmpty() || !plainNames(txn.getSchema(engine))) {
            throw new UnsupportedOperationException("delta table: the sink writes the change data feed of unpartitioned tables without "
                    + "column mapping only; turn the feed off (delta.enableChangeDataFeed=false) or write an unpartitioned table");
        }
        Row state = txn.getTransactionState(engine);
        String root = Transaction.getWriteContext(engine, state, Map.of()).getTargetDirectory();
        String folder = (root.endsWith("/") ? root : root + "/") + CHANGE_DATA_DIR;
        List<io.tributary.schema.Field> fields = new ArrayList<>(schema.fields());
        fields.add(new io.tributary.schema.Field(CHANGE_TYPE, io.tributary.schema.DataType.STRING, true));
        StructType changeKernelSchema = kernelSchema.add(CHANGE_TYPE, io.delta.kernel.types.StringType.STRING, true);
        Optional<Path> localDir = localDirectory(folder);
        DirectParquetFiles.Rolling files = null;
        try {
            DataFileTargets.Target target = localDir.isPresent() ? DataFileTargets.local(localDir.get())
                    : DataFileTargets.upload(RemoteFiles.of(KernelEngines.configuration(engine), folder));
            files = new DirectParquetFiles.Rolling(target, folder, new Schema(fields), changeKernelSchema, List.of(), targetFileSize,
                    "cdc-%2$05d-%1$s.c000.snappy.parquet", changeFallbacks);
            for (Object[] row : rows) {
                files.write(row);
            }
            List<Row> actions = new ArrayList<>();
            for (DataFileStatus f : files.finish()) {
                String name = f.getPath().substring(f.getPath().lastIndexOf('/') + 1);
                actions.add(io.tributary.delta.kernel.KernelChangeData.cdcAction(CHANGE_DATA_DIR + "/" + name, Map.of(), f.getSize()));
            }
            return actions;
        } catch (IOException e) {
            if (files != null) {
                files.abort();
            }
            throw new UncheckedIOException("delta table: cannot write change data files in " + folder, e);
        }
    }
}
