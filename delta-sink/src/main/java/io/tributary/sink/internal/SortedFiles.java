package io.tributary.sink.internal;

import io.delta.kernel.Transaction;
import io.delta.kernel.data.Row;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.stream.IntStream;

/**
 * Rows sorted (by key; {@code order} null for rows already in order) and cut into files of at most {@code rowsPerFile} rows, each written by
 * {@link DeltaTableWriter#writeFiles}; the files are written in parallel (the common pool and
 * this thread), their add actions returned in key order.
 */
final class SortedFiles {
    private SortedFiles() {
    }

    static List<Row> write(DeltaTableWriter writer, Transaction txn, List<Object[]> rows, Comparator<Object[]> order, int rowsPerFile) {
        if (order == null && rows instanceof SpilledChanges.Rows) {
            return StreamedFiles.write(writer, txn, rows, rowsPerFile).orElseGet(() -> writeInOrder(writer, txn, rows, rowsPerFile));
        }
        if (order != null) {
            rows.sort(order);
        }
        int files = (rows.size() + rowsPerFile - 1) / rowsPerFile;
        return IntStream.range(0, files).parallel()
                .mapToObj(i -> writer.writeFiles(txn, rows.subList(i * rowsPerFile, Math.min(rows.size(), (i + 1) * rowsPerFile))))
                .flatMap(List::stream)
                .toList();
    }

    /**
     * Rows read from disk in order ({@link SpilledChanges}) for Kernel's writer, which takes a file's rows at once
     * ({@link StreamedFiles} streams them to Tributary's): a file's rows are read while the file before is written (in the
     * common pool), so that at most two files' rows are in memory.
     */
    private static List<Row> writeInOrder(DeltaTableWriter writer, Transaction txn, List<Object[]> rows, int rowsPerFile) {
        List<Row> adds = new ArrayList<>();
        Iterator<Object[]> it = rows.iterator();
        ForkJoinTask<List<Row>> pending = null;
        while (it.hasNext()) {
            List<Object[]> file = new ArrayList<>(Math.min(rowsPerFile, 1 << 16));
            while (it.hasNext() && file.size() < rowsPerFile) {
                file.add(it.next());
            }
            ForkJoinTask<List<Row>> task = ForkJoinPool.commonPool().submit(() -> writer.writeFiles(txn, file));
            if (pending != null) {
                adds.addAll(pending.join());
            }
            pending = task;
        }
        if (pending != null) {
            adds.addAll(pending.join());
        }
        return adds;
    }
}
