package io.tributary.ingest.internal;

/**
 * What publishing one file gave: valid rows sent, bad lines (dead-lettered or dropped), bytes
 * read with their SHA-256, the event-time range of its rows ({@code etCount} 0 when none), and,
 * when its data broke off and {@code ignoreCorruptFiles} skipped the rest, where and why
 * ({@code corruption}, naming the file; null for a file read whole), and the records that give no row
 * and are no bad record ({@code skipped}: Debezium's tombstones and truncate events).
 */
public record FileResult(FileStat file, long rows, long inputRows, long badRows, long deadLettered, long bytesRead, String sha256,
                         long etCount, long etMin, long etMax, double etSum, String corruption, long skipped) {
}
