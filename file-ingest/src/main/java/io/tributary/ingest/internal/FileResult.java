package io.tributary.ingest.internal;

/**
 * What publishing one file gave: valid rows sent, bad lines (dead-lettered or dropped), bytes
 * read with their SHA-256, and the event-time range of its rows ({@code etCount} 0 when none).
 */
public record FileResult(FileStat file, long rows, long badRows, long deadLettered, long bytesRead, String sha256,
                         long etCount, long etMin, long etMax, double etSum) {
}
