package io.tributary.sink.internal;

import io.delta.kernel.Transaction;
import io.delta.kernel.data.Row;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Rows sorted (by key) and cut into files of at most {@code rowsPerFile} rows, each written by {@link DeltaTableWriter#writeFiles}. */
final class SortedFiles {
    private SortedFiles() {
    }

    static List<Row> write(DeltaTableWriter writer, Transaction txn, List<Object[]> rows, Comparator<Object[]> order, int rowsPerFile) {
        if (order != null) {
            rows.sort(order);
        }
        List<Row> adds = new ArrayList<>();
        for (int from = 0; from < rows.size(); from += rowsPerFile) {
            adds.addAll(writer.writeFiles(txn, rows.subList(from, Math.min(rows.size(), from + rowsPerFile))));
        }
        return adds;
    }
}
