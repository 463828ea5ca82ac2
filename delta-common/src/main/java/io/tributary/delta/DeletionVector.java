package io.tributary.delta;

import java.util.OptionalInt;

/**
 * A deletion vector's descriptor, as a file action's {@code deletionVector} holds it (PROTOCOL.md,
 * "Deletion Vector Descriptor Schema"): where the bitmap of the file's deleted rows is and how many rows
 * it marks.
 *
 * @param storageType {@code u} (a file beside the table's data, named by a UUID), {@code i} (inline in the
 *     log) or {@code p} (a file at an absolute path)
 * @param pathOrInlineDv for {@code u}: an optional random prefix, then the UUID in Z85 (20 characters); for
 *     {@code i}: the bitmap in Z85; for {@code p}: the absolute path
 * @param offset where the bitmap starts in its file (at its size field); empty for {@code i}
 * @param sizeInBytes the bitmap's size, magic number included (before Z85 for {@code i})
 * @param cardinality the rows it marks deleted
 */
public record DeletionVector(String storageType, String pathOrInlineDv, OptionalInt offset, int sizeInBytes, long cardinality) {
    public static final String UUID_STORAGE = "u";
    public static final String INLINE_STORAGE = "i";
    public static final String PATH_STORAGE = "p";

    public boolean inline() {
        return INLINE_STORAGE.equals(storageType);
    }

    /** The descriptor's identity in the log: storage type, path or data, and offset (Delta's {@code uniqueId}). */
    public String uniqueId() {
        return storageType + pathOrInlineDv + (offset.isPresent() ? "@" + offset.getAsInt() : "");
    }
}
