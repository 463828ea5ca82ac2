package io.tributary.sink.internal;

import io.delta.kernel.Scan;
import io.delta.kernel.Snapshot;
import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.data.FilteredColumnarBatch;
import io.delta.kernel.data.Row;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.expressions.Predicate;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterator;
import io.tributary.delta.KernelRows;
import io.tributary.delta.KernelSchemas;
import io.tributary.delta.kernel.KernelInternals;
import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The whole rows, at the positions a key lookup matched, of the files a narrow lookup ({@link FileScan} with a set of
 * columns and row indexes) read: the old values an upsert on a table with deletion vectors and the change data feed
 * records as {@code update_preimage} and {@code delete}. Only files with a matched row are read again, and only the
 * columns the lookup did not read; the Parquet reader skips the row groups whose key statistics exclude the matched
 * keys, and only the matched positions' values are built.
 */
final class MatchedRows {
    private final Engine engine;
    private final String tablePath;
    private final Schema keySchema;
    private final int[] at; // the table position of each column this pass reads
    private final Schema schema; // those columns, then the row index
    private final boolean keysByName; // the key columns' physical names are their names: statistics can prune row groups
    private final Snapshot snapshot;
    private final StructType readSchema;
    private Row scanState;
    private StructType physical;

    private MatchedRows(Engine engine, Snapshot snapshot, Schema keySchema, int[] at, StructType readSchema, Schema schema) {
        this.engine = engine;
        this.snapshot = snapshot;
        this.tablePath = snapshot.getPath();
        this.keySchema = keySchema;
        this.at = at;
        this.readSchema = readSchema;
        this.schema = schema;
        String mapping = snapshot.getTableProperties().getOrDefault("delta.columnMapping.mode", "none");
        List<String> partitions = snapshot.getPartitionColumnNames();
        this.keysByName = "none".equalsIgnoreCase(mapping)
                && keySchema.fields().stream().noneMatch(f -> partitions.stream().anyMatch(f.name()::equalsIgnoreCase));
    }

    /**
     * The second pass over {@code snapshot}'s files of a lookup that read the columns {@code read} (null: all, then the
     * lookup's rows are whole already) keyed by {@code keySchema}.
     */
    static MatchedRows of(Engine engine, Snapshot snapshot, Schema keySchema, Set<String> read) {
        if (read == null) {
            return new MatchedRows(engine, snapshot, keySchema, new int[0], null, null);
        }
        Schema table = KernelSchemas.fromKernel(snapshot.getPath(), snapshot.getSchema());
        List<StructField> kept = new ArrayList<>();
        List<Integer> at = new ArrayList<>();
        for (int i = 0; i < table.size(); i++) {
            if (!read.contains(table.field(i).name())) {
                kept.add(snapshot.getSchema().at(i));
                at.add(i);
            }
        }
        StructType readSchema = new StructType(kept);
        List<Field> fields = new ArrayList<>(KernelSchemas.fromKernel(snapshot.getPath(), readSchema).fields());
        fields.add(new Field(StructField.DEFAULT_ROW_INDEX_COLUMN.getName(), io.tributary.schema.DataType.LONG, false));
        return new MatchedRows(engine, snapshot, keySchema, at.stream().mapToInt(Integer::intValue).toArray(),
                readSchema.add(StructField.DEFAULT_ROW_INDEX_COLUMN), new Schema(fields));
    }

    /**
     * Records in {@code feed} the old values of the rows of {@code file} at the ordinals {@code hits} (ascending), each
     * with its change type in {@code types}; {@code keys} are their keys. A feed that is off reads nothing.
     */
    void feed(ChangeFeed feed, FileScan.ScannedFile file, List<Integer> hits, List<String> types, Collection<Key> keys, int width) {
        if (!feed.on() || hits.isEmpty()) {
            return;
        }
        List<Object[]> rows = whole(file, hits, keys);
        for (int i = 0; i < rows.size(); i++) {
            feed.add(types.get(i), rows.get(i), width);
        }
    }

    /**
     * The rows of {@code file} at the ordinals {@code hits} of its rows read by the lookup (in ascending order), whole,
     * in that order; {@code keys} are their keys (the row groups that hold none are skipped).
     */
    List<Object[]> whole(FileScan.ScannedFile file, List<Integer> hits, Collection<Key> keys) {
        List<Object[]> out = new ArrayList<>(hits.size());
        for (int hit : hits) {
            out.add(at.length == 0 ? file.rows().get(hit) : file.rows().get(hit).clone());
        }
        if (at.length == 0 || hits.isEmpty()) {
            return out;
        }
        long[] positions = new long[hits.size()];
        for (int i = 0; i < positions.length; i++) {
            positions[i] = file.rowIndexes()[hits.get(i)];
        }
        Optional<Predicate> rowGroups = keysByName ? Optional.of(KeyPredicates.forKeys(keySchema, keys)) : Optional.empty();
        if (fill(file.scanFile(), positions, out, rowGroups) < positions.length
                && (rowGroups.isEmpty() || fill(file.scanFile(), positions, out, Optional.empty()) < positions.length)) {
            throw new IllegalStateException("Delta table " + tablePath + ": file " + file.identity() + " no longer holds the "
                    + positions.length + " rows its key lookup matched (rows " + Arrays.toString(Arrays.copyOf(positions,
                    Math.min(5, positions.length))) + "...)");
        }
        return out;
    }

    /** Fills the columns this pass reads into {@code out}'s rows from the rows at {@code positions}; returns how many were found. */
    private int fill(Row scanFile, long[] positions, List<Object[]> out, Optional<Predicate> rowGroups) {
        if (scanState == null) {
            Scan scan = snapshot.getScanBuilder().withReadSchema(readSchema).build();
            scanState = scan.getScanState(engine);
            physical = KernelInternals.physicalReadSchema(scanState);
        }
        int index = at.length;
        int found = 0;
        try (CloseableIterator<FilteredColumnarBatch> batches = TableReader.batches(engine, scanState, scanFile, physical, rowGroups)) {
            while (batches.hasNext()) {
                ColumnarBatch batch = batches.next().getData();
                ColumnVector rowIndex = batch.getColumnVector(index);
                int n = batch.getSize();
                for (int i = 0; i < n; i++) {
                    int j = Arrays.binarySearch(positions, rowIndex.getLong(i));
                    if (j < 0) {
                        continue;
                    }
                    Object[] row = out.get(j);
                    for (int c = 0; c < at.length; c++) {
                        row[at[c]] = KernelRows.value(schema.field(c).type(), batch.getColumnVector(c), i);
                    }
                    found++;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read Delta table " + tablePath + " at version " + snapshot.getVersion(), e);
        }
        return found;
    }
}
