package io.tributary.sink.internal;

import io.delta.kernel.Transaction;
import io.delta.kernel.data.Row;
import java.util.Comparator;
import java.util.List;
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
        if (order != null) {
            rows.sort(order);
        }
        int files = (rows.size() + rowsPerFile - 1) / rowsPerFile;
        return IntStream.range(0, files).parallel()
                .mapToObj(i -> writer.writeFiles(txn, rows.subList(i * rowsPerFile, Math.min(rows.size(), (i + 1) * rowsPerFile))))
                .flatMap(List::stream)
                .toList();
    }
}
