package io.tributary.ingest.internal;

import java.nio.file.Path;

/**
 * A file of the input folder as listed: its name relative to the folder (the ingest-log key),
 * its size and modification time in epoch milliseconds.
 */
public record FileStat(String relPath, Path path, long size, long mtimeMs) {
    /** True when size and modification time are the same as {@code other}'s. */
    public boolean sameAs(FileStat other) {
        return other != null && other.size == size && other.mtimeMs == mtimeMs;
    }
}
