package io.tributary.sink.internal;

import io.tributary.delta.kernel.KernelInternals;
import io.delta.kernel.DataWriteContext;
import io.delta.kernel.Scan;
import io.delta.kernel.Snapshot;
import io.delta.kernel.Transaction;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.data.FilteredColumnarBatch;
import io.delta.kernel.data.Row;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.engine.FileReadResult;
import io.delta.kernel.expressions.Literal;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.DataFileStatus;
import io.delta.kernel.utils.FileStatus;
import io.tributary.delta.ColumnMapping;
import io.tributary.delta.KernelEngines;
import io.tributary.delta.KernelRows;
import io.tributary.delta.KernelSchemas;
import io.tributary.schema.Schema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * Rewrites a group of small files of one partition into new files, as one part of a compaction
 * commit: the old files' rows are streamed through Kernel (read, then written with Kernel's Parquet
 * writer, which rolls files at the engine's target size) without turning them into Java rows, and
 * every remove and add has {@code dataChange=false} (notes 4.2), so streaming readers skip the commit.
 * Kernel 4.4 writes no variant data: a table with a VARIANT column has its rows read as Tributary rows
 * (each VARIANT's {@code value} and {@code metadata} as a {@code VariantValue}, as the Delta source reads
 * them) and written by the sink's own writer ({@link DataFileWriter#rolling}).
 */
public final class Compaction {
    private final Engine engine;
    private final Snapshot snapshot;
    private final Row scanState;
    private final StructType physicalReadSchema;
    private final long targetFileSize;

    /** @param engine an engine whose Parquet writer rolls at the target file size ({@link KernelEngines#withTargetFileSize}) */
    public Compaction(Engine engine, Snapshot snapshot, Scan scan) {
        this(engine, snapshot, scan, io.tributary.sink.SinkConfig.DEFAULT_TARGET_FILE_SIZE);
    }

    /** As above; {@code targetFileSize} the size at which the sink's own writer rolls files (a VARIANT table's). */
    public Compaction(Engine engine, Snapshot snapshot, Scan scan, long targetFileSize) {
        this.engine = engine;
        this.snapshot = snapshot;
        this.scanState = scan.getScanState(engine);
        this.physicalReadSchema = KernelInternals.physicalReadSchema(scanState);
        this.targetFileSize = targetFileSize;
    }

    /**
     * What rewriting one bin produced.
     *
     * @param actions the removes of the old files and the adds of the new ones, all {@code dataChange=false}
     * @param written absolute paths of the new files (to delete if the commit fails)
     */
    public record Rewrite(List<Row> actions, List<String> written, long bytesWritten) {
    }

    /** Rewrites {@code files}, all of the partition {@code partitionValues}, as new files of {@code txn}. */
    public Rewrite rewrite(Transaction txn, Map<String, String> partitionValues, List<TableFile> files) {
        Row txnState = txn.getTransactionState(engine);
        Map<String, Literal> partition = literals(partitionValues);
        if (KernelSchemas.hasVariant(snapshot.getSchema())) {
            return rewriteDirect(txn, txnState, partition, files);
        }
        List<Row> actions = new ArrayList<>();
        List<String> written = new ArrayList<>();
        long bytes = 0;
        DataWriteContext ctx = Transaction.getWriteContext(engine, txnState, partition);
        try (CloseableIterator<FilteredColumnarBatch> physical =
                     DataFileWriter.physicalData(engine, txn, txnState, logicalRows(files), partition);
             CloseableIterator<DataFileStatus> out = engine.getParquetHandler()
                     .writeParquetFiles(ctx.getTargetDirectory(), physical, DataFileWriter.statisticsColumns(engine, txn, ctx))) {
            while (out.hasNext()) {
                DataFileStatus f = out.next();
                written.add(f.getPath());
                bytes += f.getSize();
                actions.add(KernelInternals.addWithoutDataChange(txnState, f, physicalKeys(partition)));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("delta table " + snapshot.getPath() + ": cannot rewrite " + files.size() + " files", e);
        }
        for (TableFile f : files) {
            actions.add(KernelInternals.removeWithoutDataChange(f.scanFile()));
        }
        return new Rewrite(actions, written, bytes);
    }

    /** {@link #rewrite} with the sink's own writer, row by row: Kernel writes no variant data. */
    private Rewrite rewriteDirect(Transaction txn, Row txnState, Map<String, Literal> partition, List<TableFile> files) {
        Schema schema = KernelSchemas.fromKernel(snapshot.getPath(), snapshot.getSchema());
        DirectParquetFiles.Rolling out = new DataFileWriter(engine, schema, KernelSchemas.toKernel(schema), targetFileSize)
                .rolling(txn, partition);
        List<Row> actions = new ArrayList<>();
        List<String> written = new ArrayList<>();
        long bytes = 0;
        try (CloseableIterator<FilteredColumnarBatch> logical = logicalRows(files)) {
            List<Object[]> rows = new ArrayList<>();
            while (logical.hasNext()) {
                rows.clear();
                KernelRows.addRows(schema, logical.next(), rows);
                for (Object[] row : rows) {
                    out.write(row);
                }
            }
            for (DataFileStatus f : out.finish()) {
                written.add(f.getPath());
                bytes += f.getSize();
                actions.add(KernelInternals.addWithoutDataChange(txnState, f, physicalKeys(partition)));
            }
        } catch (IOException | RuntimeException e) {
            out.abort();
            throw e instanceof IOException ioe
                    ? new UncheckedIOException("delta table " + snapshot.getPath() + ": cannot rewrite " + files.size() + " files", ioe)
                    : (RuntimeException) e;
        }
        for (TableFile f : files) {
            actions.add(KernelInternals.removeWithoutDataChange(f.scanFile()));
        }
        return new Rewrite(actions, written, bytes);
    }

    /** The partition's values by column name, from the log's serialized values (keyed by physical name on a column-mapped table). */
    private Map<String, Literal> literals(Map<String, String> serialized) {
        Map<String, Literal> out = new LinkedHashMap<>();
        for (String col : snapshot.getPartitionColumnNames()) {
            StructField field = snapshot.getSchema().get(col);
            String value = serialized.containsKey(col) ? serialized.get(col) : serialized.get(ColumnMapping.physicalName(field));
            out.put(col, KernelInternals.partitionLiteral(field.getDataType(), value));
        }
        return out;
    }

    /** Partition values keyed as an {@code add} holds them: by physical name on a column-mapped table. */
    private Map<String, Literal> physicalKeys(Map<String, Literal> partition) {
        Map<String, Literal> out = new LinkedHashMap<>();
        partition.forEach((col, v) -> out.put(ColumnMapping.physicalName(snapshot.getSchema().get(col)), v));
        return out;
    }

    /** The logical rows of {@code files}, one file after the other, read lazily. */
    private CloseableIterator<FilteredColumnarBatch> logicalRows(List<TableFile> files) {
        Iterator<TableFile> next = files.iterator();
        return new CloseableIterator<>() {
            private CloseableIterator<FilteredColumnarBatch> current;

            @Override
            public boolean hasNext() {
                try {
                    while (current == null || !current.hasNext()) {
                        if (current != null) {
                            current.close();
                            current = null;
                        }
                        if (!next.hasNext()) {
                            return false;
                        }
                        current = open(next.next());
                    }
                    return true;
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }

            @Override
            public FilteredColumnarBatch next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                return current.next();
            }

            @Override
            public void close() throws IOException {
                if (current != null) {
                    current.close();
                }
            }
        };
    }

    private CloseableIterator<FilteredColumnarBatch> open(TableFile file) throws IOException {
        FileStatus status = KernelInternals.scanFileStatus(file.scanFile());
        CloseableIterator<ColumnarBatch> data = engine.getParquetHandler()
                .readParquetFiles(Iterators.of(List.of(status)), physicalReadSchema, java.util.Optional.empty())
                .map(FileReadResult::getData);
        return KernelInternals.transformPhysicalData(engine, scanState, file.scanFile(), data);
    }
}
