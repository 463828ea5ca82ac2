package io.tributary.delta.kernel;

import io.delta.kernel.data.MapValue;
import io.delta.kernel.data.Row;
import io.delta.kernel.internal.InternalScanFileUtils;
import io.delta.kernel.internal.actions.AddFile;
import io.delta.kernel.internal.actions.DeletionVectorDescriptor;
import io.delta.kernel.internal.actions.SingleAction;
import io.delta.kernel.internal.data.GenericRow;
import io.delta.kernel.internal.deletionvectors.Base85Codec;
import io.tributary.delta.DeletionVector;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.UUID;

/**
 * The door's part for deletion vectors: a scan file's descriptor, the Z85 encoding of the log (Kernel's
 * {@code Base85Codec}), the path of a {@code u} descriptor's file, and the {@code add} of a file with a new
 * deletion vector, which Kernel 4.4 has no API for (it reads deletion vectors, and writes none).
 * {@code KernelDeletionVectorsTest} checks each against Kernel's own reader.
 */
public final class KernelDeletionVectors {
    private KernelDeletionVectors() {
    }

    /** The deletion vector of a scan file's {@code add}, if it has one. */
    public static Optional<DeletionVector> of(Row scanFile) {
        return new AddFile(scanFile.getStruct(InternalScanFileUtils.ADD_FILE_ORDINAL)).getDeletionVector().map(KernelDeletionVectors::of);
    }

    private static DeletionVector of(DeletionVectorDescriptor d) {
        return new DeletionVector(d.getStorageType(), d.getPathOrInlineDv(),
                d.getOffset().map(OptionalInt::of).orElse(OptionalInt.empty()), d.getSizeInBytes(), d.getCardinality());
    }

    private static DeletionVectorDescriptor descriptor(DeletionVector dv) {
        return new DeletionVectorDescriptor(dv.storageType(), dv.pathOrInlineDv(),
                dv.offset().isPresent() ? Optional.of(dv.offset().getAsInt()) : Optional.empty(), dv.sizeInBytes(), dv.cardinality());
    }

    /** The absolute path of the file that holds an on-disk deletion vector of the table at {@code tableRoot}. */
    public static String absolutePath(DeletionVector dv, String tableRoot) {
        return descriptor(dv).getAbsolutePath(tableRoot);
    }

    /** The bitmap bytes of an inline deletion vector (Z85 in the log). */
    public static byte[] inlineData(DeletionVector dv) {
        return descriptor(dv).inlineData();
    }

    /** A {@code u} descriptor's {@code pathOrInlineDv} for the file {@code deletion_vector_<id>.bin} beside the table's data. */
    public static String encodeUuid(UUID id) {
        return Base85Codec.encodeUUID(id);
    }

    /** An {@code i} descriptor's {@code pathOrInlineDv}: the bitmap bytes in Z85. */
    public static String encodeInline(byte[] bitmap) {
        return Base85Codec.encodeBytes(bitmap);
    }

    /**
     * The actions that give a scan file (listed with its statistics) the deletion vector {@code dv} in place of
     * the one it has: an {@code add} of the same path, size, partition values, tags and row ids, with
     * {@code dataChange=true} and its statistics marked {@code tightBounds: false}, as Spark writes it (the
     * minimum and maximum may now belong to deleted rows). The {@code remove} of the file as it was is
     * {@link KernelInternals#removeAction}.
     */
    public static Row addWithDeletionVector(Row scanFile, DeletionVector dv) {
        AddFile add = new AddFile(scanFile.getStruct(InternalScanFileUtils.ADD_FILE_ORDINAL));
        Map<Integer, Object> fields = new HashMap<>();
        fields.put(AddFile.FULL_SCHEMA.indexOf("path"), add.getPath());
        fields.put(AddFile.FULL_SCHEMA.indexOf("partitionValues"), add.getPartitionValues());
        fields.put(AddFile.FULL_SCHEMA.indexOf("size"), add.getSize());
        fields.put(AddFile.FULL_SCHEMA.indexOf("modificationTime"), add.getModificationTime());
        fields.put(AddFile.FULL_SCHEMA.indexOf("dataChange"), true);
        fields.put(AddFile.FULL_SCHEMA.indexOf("deletionVector"), descriptor(dv).toRow());
        Optional<MapValue> tags = add.getTags();
        tags.ifPresent(t -> fields.put(AddFile.FULL_SCHEMA.indexOf("tags"), t));
        add.getBaseRowId().ifPresent(id -> fields.put(AddFile.FULL_SCHEMA.indexOf("baseRowId"), id));
        add.getDefaultRowCommitVersion().ifPresent(v -> fields.put(AddFile.FULL_SCHEMA.indexOf("defaultRowCommitVersion"), v));
        add.getStatsJson().ifPresent(stats -> fields.put(AddFile.FULL_SCHEMA.indexOf("stats"), looseBounds(stats)));
        return SingleAction.createAddFileSingleAction(new GenericRow(AddFile.FULL_SCHEMA, fields));
    }

    /** Statistics JSON with {@code tightBounds} false. */
    static String looseBounds(String stats) {
        String s = stats.trim();
        if (s.contains("\"tightBounds\":true")) {
            return s.replace("\"tightBounds\":true", "\"tightBounds\":false");
        }
        if (s.contains("\"tightBounds\"")) {
            return s;
        }
        String body = s.substring(0, s.length() - 1).trim();
        return body + (body.endsWith("{") ? "" : ",") + "\"tightBounds\":false}";
    }
}
