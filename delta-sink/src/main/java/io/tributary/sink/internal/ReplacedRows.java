package io.tributary.sink.internal;

import io.delta.kernel.Snapshot;
import io.delta.kernel.data.Row;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * How a rewrite (upsert, delete) takes the rows it replaces out of the files that hold them: a seam with
 * two named strategies. {@link CopyOnWrite} removes each such file and writes its other rows again in new
 * files; {@link DeletionVectorMarks}, on a table with deletion vectors on, keeps the file and marks the
 * replaced rows deleted in its deletion vector (merge-on-read, as Spark's {@code MERGE}, {@code UPDATE} and
 * {@code DELETE} do there).
 */
interface ReplacedRows {
    /** The strategy for a plan on {@code snapshot}: deletion vectors where the table has them on, else copy-on-write. */
    static ReplacedRows of(DeltaTableWriter writer, Optional<Snapshot> snapshot) {
        if (snapshot.isPresent() && DeletionVectorMarks.enabled(snapshot.get())) {
            return new DeletionVectorMarks(writer.engine(), snapshot.get());
        }
        return new CopyOnWrite();
    }

    /** True when the files must be read with their rows' positions (in {@code FileScan.read}); their other rows are then not written again. */
    boolean rowIndexes();

    /**
     * A file that holds rows the batch replaces or deletes: {@code kept} are its other rows read, {@code replaced} the
     * ordinals in {@code file.rows()} of those it replaces. (A read through a {@link KeyProbe}, for deletion
     * vectors alone, holds only the rows the probe let through; {@code file.liveRows()} counts them all.)
     */
    void replace(FileScan.ScannedFile file, List<Object[]> kept, List<Integer> replaced);

    /** The {@code remove} actions of the files {@link #replace} was given; call once, after the last file. */
    List<Row> removes();

    /** The {@code add} actions of files kept with a new deletion vector (after {@link #removes()}). */
    List<Row> readds();

    /** The rows to write again in new files, with the batch's (a mutable list). */
    List<Object[]> rewritten();

    /** Puts the strategy's counts into a plan's metrics (Delta's MERGE {@code operationMetrics} names). */
    void addMetrics(Map<String, Object> metrics);

    /** Copy-on-write: each file is removed, its kept rows written again. */
    final class CopyOnWrite implements ReplacedRows {
        private final List<Row> removes = new ArrayList<>();
        private final List<Object[]> rewritten = new ArrayList<>();

        @Override
        public boolean rowIndexes() {
            return false;
        }

        @Override
        public void replace(FileScan.ScannedFile file, List<Object[]> kept, List<Integer> replaced) {
            removes.add(file.removeAction());
            rewritten.addAll(kept);
        }

        @Override
        public List<Row> removes() {
            return removes;
        }

        @Override
        public List<Row> readds() {
            return List.of();
        }

        @Override
        public List<Object[]> rewritten() {
            return rewritten;
        }

        @Override
        public void addMetrics(Map<String, Object> metrics) {
        }
    }
}
