package io.tributary.sink.internal;

import io.delta.kernel.Scan;
import io.delta.kernel.Snapshot;
import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.data.Row;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.engine.FileReadResult;
import io.delta.kernel.expressions.Predicate;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterator;
import io.tributary.delta.KernelRows;
import io.tributary.delta.KernelSchemas;
import io.tributary.delta.kernel.KernelInternals;
import io.tributary.schema.Schema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The second pass of a key lookup on a table with deletion vectors ({@link FileScan} with a set of columns and row
 * indexes): the other columns of the rows it matched, for the old values an upsert with the change data feed records
 * ({@code update_preimage}, {@code delete}) or the versions a history upsert may end. Only the files where a key
 * matched are read again, and only their other columns, straight from the Parquet file at the matched positions: the
 * lookup already applied the file's deletion vector, so this pass loads none and builds no logical batch. Where the
 * columns allow ({@link DirectKeyRead#readAt}), parquet-mr's column readers pass over the other rows without a value made
 * and read no row group that holds none of the positions; else Kernel's Parquet reader reads them, skipping the row
 * groups whose key statistics hold none of the matched keys. A history batch fills in only the versions it ends
 * ({@link HistoryUpsert}), the others keep the columns the lookup read (in a file not read whole).
 *
 * <p>Which pays is decided per batch, from what the lookup finds as it goes ({@link #wholeNext()}): reading a file
 * again costs its opening and its row positions once more, which saves nothing when the file matches anyway. Once
 * {@value #SEEN} files are read and at least three in four of them held a matched key, or as soon as the files read held
 * {@value #ROWS_PER_FILE} matched rows each on average (keys that dense leave hardly a file without one), the next file
 * is read whole in the lookup (every column, as without this pass), until neither holds again.
 */
final class MatchedRows {
    /** The files a batch's lookup reads before it may read the next ones whole. */
    static final int SEEN = 2;
    /** The matched rows per file read above which the next file is read whole: a further file then holds one almost surely. */
    static final int ROWS_PER_FILE = 3;

    private final Engine engine;
    private final Snapshot snapshot;
    private final Schema keySchema;
    private final int[] at; // the table position of each column this pass reads
    private final Schema schema; // those columns
    private final StructType readSchema; // those columns, then the row index
    private final boolean keysByName; // the key columns' physical names are their names: statistics can prune row groups
    private StructType physical;
    private int rowIndex;
    private DirectKeyRead direct; // the direct read of this pass's columns at positions, when they allow one
    private boolean directTried;
    private long seen;
    private long matched;
    private long matchedRows;

    private MatchedRows(Engine engine, Snapshot snapshot, Schema keySchema, int[] at, Schema schema, StructType readSchema) {
        this.engine = engine;
        this.snapshot = snapshot;
        this.keySchema = keySchema;
        this.at = at;
        this.schema = schema;
        this.readSchema = readSchema;
        String mapping = snapshot.getTableProperties().getOrDefault("delta.columnMapping.mode", "none");
        List<String> partitions = snapshot.getPartitionColumnNames();
        this.keysByName = "none".equalsIgnoreCase(mapping)
                && keySchema.fields().stream().noneMatch(f -> partitions.stream().anyMatch(f.name()::equalsIgnoreCase));
    }

    /**
     * The columns of {@code snapshot}'s table a lookup reads in its first pass: the columns of {@code keySchema}, those
     * named {@code more} (the sequence) and the partition columns (which Kernel fills from the file's partition values,
     * so the second pass, reading the Parquet file alone, needs none of them), as the table spells them.
     */
    static Set<String> lookupColumns(Snapshot snapshot, Schema keySchema, String... more) {
        List<String> names = new ArrayList<>(snapshot.getPartitionColumnNames());
        keySchema.fields().forEach(f -> names.add(f.name()));
        names.addAll(Arrays.asList(more));
        Set<String> out = new LinkedHashSet<>();
        for (StructField f : snapshot.getSchema().fields()) {
            if (names.stream().anyMatch(f.getName()::equalsIgnoreCase)) {
                out.add(f.getName());
            }
        }
        return out;
    }

    /**
     * The second pass over {@code snapshot}'s files of a lookup that read the columns {@code read} (null: all, then the
     * lookup's rows are whole already and this pass reads nothing) keyed by {@code keySchema}.
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
        StructType others = new StructType(kept);
        return new MatchedRows(engine, snapshot, keySchema, at.stream().mapToInt(Integer::intValue).toArray(),
                KernelSchemas.fromKernel(snapshot.getPath(), others), others.add(StructField.DEFAULT_ROW_INDEX_COLUMN));
    }

    /** True when the lookup should read its next file whole: most files so far held a matched key. */
    boolean wholeNext() {
        return at.length > 0 && seen > 0 && (matchedRows >= ROWS_PER_FILE * seen || seen >= SEEN && matched * 4 >= seen * 3);
    }

    /** True when this pass reads the rows it fills in straight from the Parquet columns ({@link DirectKeyRead#readAt}). */
    private boolean readsDirectly() {
        if (!directTried) {
            directTried = true;
            if (at.length > 0) {
                StructType others = new StructType(Arrays.stream(at).mapToObj(c -> snapshot.getSchema().at(c)).toList());
                direct = DirectKeyRead.of(engine, snapshot, schema, others, null);
            }
        }
        return direct != null;
    }

    /**
     * Records in {@code feed} the old values of the rows of {@code file} at the ordinals {@code hits} (ascending), each
     * with its change type in {@code types}; {@code keys} are their keys. A feed that is off reads nothing.
     */
    void feed(ChangeFeed feed, FileScan.ScannedFile file, List<Integer> hits, List<String> types, Collection<Key> keys, int width) {
        if (!feed.on()) {
            return;
        }
        fill(file, hits, keys);
        for (int i = 0; i < hits.size(); i++) {
            feed.add(types.get(i), file.rows().get(hits.get(i)), width);
        }
    }

    /**
     * Fills in the other columns of the rows of {@code file} at the ordinals {@code hits} of its rows read by the
     * lookup (ascending), in place; {@code keys} are their keys (the row groups that hold none are skipped). Call once
     * for each file the lookup reads, with or without hits: what the lookup found decides {@link #wholeNext()}.
     */
    void fill(FileScan.ScannedFile file, List<Integer> hits, Collection<Key> keys) {
        looked(hits.size());
        fillOnly(file, hits, keys);
    }

    /** Records that the lookup read a file and matched {@code hits} rows in it (what decides {@link #wholeNext()}). */
    void looked(int hits) {
        seen++;
        matched += hits == 0 ? 0 : 1;
        matchedRows += hits;
    }

    /** {@link #fill} of rows of a file the lookup read and {@link #looked} at already. */
    void fillOnly(FileScan.ScannedFile file, List<Integer> hits, Collection<Key> keys) {
        if (at.length == 0 || file.whole() || hits.isEmpty()) {
            return;
        }
        long[] positions = new long[hits.size()];
        for (int i = 0; i < positions.length; i++) {
            positions[i] = file.rowIndexes()[hits.get(i)];
        }
        List<Object[]> out = new ArrayList<>(hits.size());
        hits.forEach(h -> out.add(file.rows().get(h)));
        Optional<Predicate> rowGroups = keysByName ? Optional.of(KeyPredicates.forKeys(keySchema, keys)) : Optional.empty();
        if (fill(file.scanFile(), positions, out, rowGroups) < positions.length
                && (rowGroups.isEmpty() || fill(file.scanFile(), positions, out, Optional.empty()) < positions.length)) {
            throw new IllegalStateException("Delta table " + snapshot.getPath() + ": file " + file.identity() + " no longer holds the "
                    + positions.length + " rows its key lookup matched (rows " + Arrays.toString(Arrays.copyOf(positions,
                    Math.min(5, positions.length))) + "...)");
        }
    }

    /**
     * Fills the columns this pass reads into {@code out}'s rows from the rows at {@code positions} (ascending) of the
     * Parquet file, read as it is stored (no deletion vector, no partition values); returns how many were found.
     */
    private int fill(Row scanFile, long[] positions, List<Object[]> out, Optional<Predicate> rowGroups) {
        List<Object[]> read = readDirect(scanFile, positions);
        if (read != null) {
            for (int i = 0; i < positions.length; i++) {
                for (int c = 0; c < at.length; c++) {
                    out.get(i)[at[c]] = read.get(i)[c];
                }
            }
            return positions.length;
        }
        if (physical == null) {
            Scan scan = snapshot.getScanBuilder().withReadSchema(readSchema).build();
            physical = KernelInternals.physicalReadSchema(scan.getScanState(engine));
            rowIndex = physical.indexOf(StructField.DEFAULT_ROW_INDEX_COLUMN.getName());
            if (physical.length() != at.length + 1 || rowIndex < 0) {
                throw new IllegalStateException("Delta table " + snapshot.getPath() + ": Kernel's physical read schema " + physical
                        + " is not the " + at.length + " columns " + readSchema + " asked for");
            }
        }
        int found = 0;
        int next = 0; // the first position not yet passed: the reader hands rows over in file order
        try (CloseableIterator<ColumnarBatch> batches = engine.getParquetHandler()
                .readParquetFiles(KernelInternals.single(KernelInternals.scanFileStatus(scanFile)), physical, rowGroups)
                .map(FileReadResult::getData)) {
            while (batches.hasNext() && next < positions.length) {
                ColumnarBatch batch = batches.next();
                ColumnVector index = batch.getColumnVector(rowIndex);
                int n = batch.getSize();
                if (n == 0 || index.getLong(n - 1) < positions[next]) {
                    continue;
                }
                for (int i = 0; i < n && next < positions.length; i++) {
                    long position = index.getLong(i);
                    while (next < positions.length && positions[next] < position) {
                        next++;
                    }
                    if (next == positions.length || positions[next] != position) {
                        continue;
                    }
                    Object[] row = out.get(next++);
                    for (int c = 0, v = 0; c < at.length; c++, v++) {
                        v += v == rowIndex ? 1 : 0;
                        row[at[c]] = KernelRows.value(schema.field(c).type(), batch.getColumnVector(v), i);
                    }
                    found++;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read Delta table " + snapshot.getPath() + " at version " + snapshot.getVersion(), e);
        }
        return found;
    }

    /** The rows at {@code positions} read straight from the Parquet file's columns, or null when Kernel's reader must read them. */
    private List<Object[]> readDirect(Row scanFile, long[] positions) {
        try {
            return readsDirectly() ? direct.readAt(scanFile, positions) : null;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read Delta table " + snapshot.getPath() + " at version " + snapshot.getVersion(), e);
        }
    }
}
