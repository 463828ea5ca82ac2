package io.tributary.delta;

import io.delta.kernel.data.Row;
import io.delta.kernel.engine.Engine;
import io.tributary.delta.kernel.KernelDeletionVectors;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.UUID;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.roaringbitmap.longlong.Roaring64NavigableMap;

/**
 * Reads and writes the deletion vectors of a Delta table, local or on object storage: inline ones from the
 * log, on-disk ones ({@code u} and {@code p}) from their files, and new ones into one file
 * {@code deletion_vector_<uuid>.bin} in the table's folder per call, as Spark writes one per task.
 */
public final class DeletionVectorStore {
    /** The prefix of a deletion vector file's name, then the UUID, then {@value #SUFFIX}. */
    public static final String PREFIX = "deletion_vector_";
    public static final String SUFFIX = ".bin";

    private final Engine engine;
    private final String tableRoot;

    /** The deletion vectors of the table at {@code tableRoot} (as {@code Snapshot.getPath()} gives it), reached with {@code engine}'s file system. */
    public DeletionVectorStore(Engine engine, String tableRoot) {
        this.engine = engine;
        this.tableRoot = tableRoot;
    }

    /** The rows a scan file's deletion vector marks deleted; empty without one. */
    public Roaring64NavigableMap deletedRows(Row scanFile) {
        Optional<DeletionVector> dv = KernelDeletionVectors.of(scanFile);
        return dv.isPresent() ? read(dv.get()) : new Roaring64NavigableMap();
    }

    /** The rows {@code dv} marks deleted. */
    public Roaring64NavigableMap read(DeletionVector dv) {
        if (dv.cardinality() == 0) {
            return new Roaring64NavigableMap();
        }
        if (dv.inline()) {
            return DeletionVectorFormat.deserialize(KernelDeletionVectors.inlineData(dv), "inline " + dv.uniqueId());
        }
        String file = KernelDeletionVectors.absolutePath(dv, tableRoot);
        int offset = dv.offset().orElse(0);
        String where = file + " at offset " + offset;
        byte[] stored = new byte[dv.sizeInBytes() + 8];
        Path path = new Path(file);
        try (FSDataInputStream in = path.getFileSystem(KernelEngines.configuration(engine)).open(path)) {
            in.readFully(offset, stored);
        } catch (EOFException e) {
            throw io.tributary.delta.internal.DeltaErrors.deletionVectorUnreadable(where, "the file ends before the "
                    + dv.sizeInBytes() + "-byte bitmap and its checksum");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read deletion vector " + where, e);
        }
        Roaring64NavigableMap rows = DeletionVectorFormat.deserialize(DeletionVectorFormat.unwrap(stored, dv.sizeInBytes(), where), where);
        if (rows.getLongCardinality() != dv.cardinality()) {
            throw io.tributary.delta.internal.DeltaErrors.deletionVectorUnreadable(where, "it marks " + rows.getLongCardinality()
                    + " rows, its descriptor in the log " + dv.cardinality());
        }
        return rows;
    }

    /**
     * Writes {@code bitmaps} (none empty) into one new deletion vector file in the table's folder; returns
     * their descriptors ({@code u}, in order). The file is complete before any commit names it, and one no
     * commit names is an orphan that VACUUM deletes.
     */
    public List<DeletionVector> write(List<Roaring64NavigableMap> bitmaps) {
        if (bitmaps.isEmpty()) {
            return List.of();
        }
        List<byte[]> serialized = new ArrayList<>(bitmaps.size());
        bitmaps.forEach(b -> serialized.add(DeletionVectorFormat.serialize(b)));
        UUID id = UUID.randomUUID();
        Path path = new Path(tableRoot, PREFIX + id + SUFFIX);
        try {
            FileSystem fs = path.getFileSystem(KernelEngines.configuration(engine));
            try (FSDataOutputStream out = fs.create(path, false)) {
                out.write(DeletionVectorFormat.file(serialized));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write deletion vector file " + path, e);
        }
        String encoded = KernelDeletionVectors.encodeUuid(id);
        int[] offsets = DeletionVectorFormat.offsets(serialized);
        List<DeletionVector> out = new ArrayList<>(bitmaps.size());
        for (int i = 0; i < bitmaps.size(); i++) {
            out.add(new DeletionVector(DeletionVector.UUID_STORAGE, encoded, OptionalInt.of(offsets[i]), serialized.get(i).length,
                    bitmaps.get(i).getLongCardinality()));
        }
        return out;
    }

    /** {@code rows} as an inline deletion vector (its bitmap in the log, no file): for small bitmaps. */
    public static DeletionVector inline(Roaring64NavigableMap rows) {
        byte[] bitmap = DeletionVectorFormat.serialize(rows);
        return new DeletionVector(DeletionVector.INLINE_STORAGE, KernelDeletionVectors.encodeInline(bitmap), OptionalInt.empty(),
                bitmap.length, rows.getLongCardinality());
    }
}
