package io.tributary.source.internal;

import io.tributary.delta.kernel.KernelInternals;
import io.delta.kernel.Scan;
import io.delta.kernel.Snapshot;
import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.data.FilteredColumnarBatch;
import io.delta.kernel.data.Row;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.engine.FileReadResult;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.FileStatus;
import io.tributary.delta.ColumnMapping;
import io.tributary.delta.KernelRows;
import io.tributary.delta.KernelSchemas;
import io.tributary.schema.DataType;
import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Reads the rows of a {@link DataFile} in Tributary's row form: table files through Kernel
 * ({@code Scan.transformPhysicalData} applies partition values, deletion vectors and column
 * mapping), change-data files directly as Parquet. With the change feed, each row gets
 * {@code _change_type}, {@code _commit_version} and {@code _commit_timestamp} appended.
 */
public final class FileRowReader {
    public static final String CHANGE_TYPE = "_change_type";

    private final Engine engine;
    private final String tablePath;
    private final Schema tableSchema;
    private final StructType kernelSchema;
    private final Row scanState;
    private final StructType physicalSchema;
    private final boolean changeFeed;
    private final boolean partitioned;

    public FileRowReader(Engine engine, String tablePath, Snapshot snapshot, boolean changeFeed) {
        this.engine = engine;
        this.tablePath = tablePath;
        this.kernelSchema = snapshot.getSchema();
        this.tableSchema = KernelSchemas.fromKernel(tablePath, kernelSchema);
        Scan scan = snapshot.getScanBuilder().build();
        this.scanState = scan.getScanState(engine);
        this.physicalSchema = KernelInternals.physicalReadSchema(scanState);
        this.changeFeed = changeFeed;
        this.partitioned = !snapshot.getPartitionColumnNames().isEmpty();
    }

    /** The schema of the rows this reader gives: the table's, plus the three change-feed columns with the change feed. */
    public static Schema outputSchema(Schema tableSchema, boolean changeFeed) {
        if (!changeFeed) {
            return tableSchema;
        }
        List<Field> fields = new ArrayList<>(tableSchema.fields());
        fields.add(new Field(CHANGE_TYPE, DataType.STRING, true));
        fields.add(new Field("_commit_version", DataType.LONG, true));
        fields.add(new Field("_commit_timestamp", DataType.TIMESTAMP, true));
        return new Schema(fields);
    }

    public Schema tableSchema() {
        return tableSchema;
    }

    /** Calls {@code sink} with each row of {@code file}, in file order. */
    public void read(DataFile file, Consumer<Object[]> sink) {
        try {
            if (file.kind() == DataFile.Kind.CHANGE_DATA_FILE) {
                readChangeData(file, sink);
            } else {
                readTableFile(file, sink);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("delta-source: cannot read file " + file.path() + " of " + tablePath
                    + " (version " + file.version() + ")", e);
        }
    }

    private void readTableFile(DataFile file, Consumer<Object[]> sink) throws IOException {
        FileStatus fs = KernelInternals.scanFileStatus(file.scanFile());
        CloseableIterator<ColumnarBatch> data = engine.getParquetHandler()
                .readParquetFiles(single(fs), physicalSchema, Optional.empty())
                .map(FileReadResult::getData);
        try (CloseableIterator<FilteredColumnarBatch> logical = KernelInternals.transformPhysicalData(engine, scanState, file.scanFile(), data)) {
            List<Object[]> rows = new ArrayList<>();
            while (logical.hasNext()) {
                rows.clear();
                KernelRows.addRows(tableSchema, logical.next(), rows);
                for (Object[] row : rows) {
                    sink.accept(changeFeed ? withChange(row, file.changeType(), file) : row);
                }
            }
        }
    }

    private void readChangeData(DataFile file, Consumer<Object[]> sink) throws IOException {
        if (partitioned) {
            throw SourceErrors.changeFeedUnsupported(tablePath, file.version(), "its change-data file " + file.path() + " belongs to a "
                    + "partitioned table, which Tributary's change-data reader does not handle yet");
        }
        // a change-data file names the table's columns by their physical names (column mapping), then _change_type
        StructType readSchema = ColumnMapping.physicalSchema(kernelSchema).add(CHANGE_TYPE, StringType.STRING, true);
        FileStatus fs = FileStatus.of(file.path(), file.size(), 0);
        int n = tableSchema.size();
        try (CloseableIterator<FileReadResult> results = engine.getParquetHandler()
                .readParquetFiles(single(fs), readSchema, Optional.empty())) {
            while (results.hasNext()) {
                ColumnarBatch batch = results.next().getData();
                List<Object[]> rows = new ArrayList<>();
                KernelRows.addRows(tableSchema, new FilteredColumnarBatch(batch, Optional.empty()), rows);
                ColumnVector changeType = batch.getColumnVector(n);
                for (int i = 0; i < rows.size(); i++) {
                    String type = changeType.isNullAt(i) ? null : changeType.getString(i);
                    sink.accept(withChange(rows.get(i), type, file));
                }
            }
        }
    }

    private static Object[] withChange(Object[] row, String changeType, DataFile file) {
        Object[] out = Arrays.copyOf(row, row.length + 3);
        out[row.length] = changeType;
        out[row.length + 1] = file.version();
        out[row.length + 2] = file.commitTimestampMs() * 1000L;
        return out;
    }

    private static <T> CloseableIterator<T> single(T item) {
        return KernelInternals.single(item);
    }
}
