package io.tributary.ingest;

/**
 * A file that was ingested once and differs now: rewritten, appended to, or replaced. It is
 * reported, never read again and never silently skipped; to ingest the new content, write it
 * under a new name.
 *
 * @param path the file's path relative to the input folder, as {@link IngestedFile#path()}
 * @param ingested what the ingest-log recorded when it was published
 * @param sizeNow its size now
 * @param mtimeMsNow its modification time now
 * @param reason what differs, in words
 */
public record ChangedFile(String path, IngestedFile ingested, long sizeNow, long mtimeMsNow, String reason) {
}
