package io.tributary.ingest;

/**
 * A file the ingest published, as its ingest-log record holds it.
 *
 * @param path the file's path relative to the input folder (the ingest-log key): its exact bytes, a byte that is not
 *             UTF-8 kept as {@code U+DC00 + byte}; print it with {@link io.tributary.schema.Printable#escape}
 * @param size its size in bytes when it was read
 * @param mtimeMs its modification time then, epoch milliseconds
 * @param sha256 the SHA-256 of its content, in hex
 * @param rows the valid rows published
 * @param badRows the lines that were bad records (dead-lettered or dropped)
 * @param batchId the batch that published it
 * @param etag an object's ETag when it was read (object storage), or null
 */
public record IngestedFile(String path, long size, long mtimeMs, String sha256, long rows, long badRows, long batchId, String etag) {
    /** A local file's record (no ETag). */
    public IngestedFile(String path, long size, long mtimeMs, String sha256, long rows, long badRows, long batchId) {
        this(path, size, mtimeMs, sha256, rows, badRows, batchId, null);
    }
}
