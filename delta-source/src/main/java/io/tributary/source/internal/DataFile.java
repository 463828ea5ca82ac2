package io.tributary.source.internal;

import io.delta.kernel.data.Row;

/**
 * One data file a batch reads, at its place in the stream: {@code version} and {@code index}
 * (its position among the files the stream takes from that version) are what progress records.
 *
 * @param scanFile for {@link Kind#TABLE_FILE}, the scan-file row that Kernel reads (partition values,
 *                 deletion vectors and column mapping applied); null for a change-data file
 * @param changeType the change-feed {@code _change_type} for a table file read as a change feed
 *                   ({@code insert} or {@code delete}); null otherwise (a change-data file carries its own)
 */
public record DataFile(long version, int index, Kind kind, String path, long size, Row scanFile,
                       String changeType, long commitTimestampMs) {
    public enum Kind { TABLE_FILE, CHANGE_DATA_FILE }

    public DataFile withIndex(int i) {
        return new DataFile(version, i, kind, path, size, scanFile, changeType, commitTimestampMs);
    }
}
