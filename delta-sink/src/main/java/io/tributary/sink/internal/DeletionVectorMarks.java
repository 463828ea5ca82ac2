package io.tributary.sink.internal;

import io.delta.kernel.Snapshot;
import io.delta.kernel.data.Row;
import io.delta.kernel.engine.Engine;
import io.tributary.delta.DeletionVector;
import io.tributary.delta.DeletionVectorStore;
import io.tributary.delta.kernel.KernelDeletionVectors;
import io.tributary.delta.kernel.KernelInternals;
import io.tributary.schema.CrashPoint;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.roaringbitmap.longlong.Roaring64NavigableMap;

/**
 * Merge-on-read ({@link ReplacedRows}): each file that holds replaced rows keeps its path and gets a
 * deletion vector that marks them deleted, merged with the one it has (a {@code remove} of the file as it
 * was, an {@code add} of it with the new vector); a file all of whose rows go is removed whole. The new
 * vectors of a plan go into one file {@code deletion_vector_<uuid>.bin} ({@link DeletionVectorStore}). A file's vector is
 * loaded once per batch: the key lookup's direct read hands over the bitmap it walked ({@link FileScan.ScannedFile#deleted()}),
 * and only a file Kernel's reader read has its vector loaded here.
 * On when the table has {@code delta.enableDeletionVectors=true} and the {@code deletionVectors} feature,
 * as Spark decides.
 */
final class DeletionVectorMarks implements ReplacedRows {
    static final String PROPERTY = "delta.enableDeletionVectors";
    static final String FEATURE = "deletionVectors";

    private final DeletionVectorStore store;
    private final List<Row> removes = new ArrayList<>();
    private final List<Row> scanFiles = new ArrayList<>();
    private final List<Roaring64NavigableMap> bitmaps = new ArrayList<>();
    private final List<Object[]> rewritten = new ArrayList<>();
    private List<Row> readds;
    private long added;
    private long updated;
    private long removedWithVector;
    private long removedWhole;

    DeletionVectorMarks(Engine engine, Snapshot snapshot) {
        this.store = new DeletionVectorStore(engine, snapshot.getPath());
    }

    /** True when replaced rows of {@code snapshot}'s table go into deletion vectors. */
    static boolean enabled(Snapshot snapshot) {
        return "true".equalsIgnoreCase(snapshot.getTableProperties().getOrDefault(PROPERTY, "false"))
                && KernelInternals.writerFeatures(snapshot).contains(FEATURE);
    }

    @Override
    public boolean rowIndexes() {
        return true;
    }

    @Override
    public void replace(FileScan.ScannedFile file, List<Object[]> kept, List<Integer> replaced) {
        removes.add(file.removeAction());
        boolean hadVector = KernelDeletionVectors.of(file.scanFile()).isPresent();
        if (file.liveRows() == replaced.size()) {
            removedWhole++;
            removedWithVector += hadVector ? 1 : 0;
            return;
        }
        Roaring64NavigableMap deleted = file.deleted() != null ? file.deleted() : store.deletedRows(file.scanFile());
        for (int ordinal : replaced) {
            deleted.addLong(file.rowIndexes()[ordinal]);
        }
        scanFiles.add(file.scanFile());
        bitmaps.add(deleted);
        if (hadVector) {
            updated++;
        } else {
            added++;
        }
    }

    @Override
    public List<Row> removes() {
        if (readds == null) {
            List<DeletionVector> vectors = store.write(bitmaps);
            CrashPoint.reach(CrashPoint.SINK_REWRITE_AFTER_VECTORS);
            readds = new ArrayList<>(vectors.size());
            for (int i = 0; i < vectors.size(); i++) {
                readds.add(KernelDeletionVectors.addWithDeletionVector(scanFiles.get(i), vectors.get(i)));
            }
        }
        return removes;
    }

    @Override
    public List<Row> readds() {
        if (readds == null) {
            throw new IllegalStateException("readds() before removes()");
        }
        return readds;
    }

    @Override
    public List<Object[]> rewritten() {
        return rewritten;
    }

    @Override
    public void addMetrics(Map<String, Object> metrics) {
        metrics.put("numTargetFilesRemoved", removedWhole);
        metrics.put("numTargetDeletionVectorsAdded", added);
        metrics.put("numTargetDeletionVectorsUpdated", updated);
        metrics.put("numTargetDeletionVectorsRemoved", removedWithVector);
    }
}
