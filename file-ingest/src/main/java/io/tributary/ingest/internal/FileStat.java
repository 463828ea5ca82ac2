package io.tributary.ingest.internal;

import java.nio.file.Path;

/**
 * A file of the input folder as listed: its name relative to the folder (the ingest-log key),
 * its size and modification time in epoch milliseconds; for an object in object storage, its
 * ETag (which changes whenever the object is replaced) and no local {@code path}.
 */
public record FileStat(String relPath, Path path, long size, long mtimeMs, String etag) {
    /** A local file. */
    public FileStat(String relPath, Path path, long size, long mtimeMs) {
        this(relPath, path, size, mtimeMs, null);
    }

    /** True when size and modification time (and the ETag, when both have one) are the same as {@code other}'s. */
    public boolean sameAs(FileStat other) {
        return other != null && other.size == size && other.mtimeMs == mtimeMs
                && (etag == null || other.etag == null || etag.equals(other.etag));
    }
}
