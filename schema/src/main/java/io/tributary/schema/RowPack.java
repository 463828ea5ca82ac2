package io.tributary.schema;

import java.util.Arrays;

/**
 * Several rows in one Kafka record: their {@link RowJson} texts separated by a line feed (JSON
 * Lines; a row's JSON never holds a raw line feed, JSON escapes it). A record of one row is a
 * pack of one, so a reader of packs reads one-row records too.
 *
 * <p>Why: Kafka's cost is per record (the producer's append, the broker's validation, the
 * consumer's and Kafka Streams' per-record work), and a row of the benchmarks is ~70 bytes.
 * Packing a thousand rows per record cut that work by as much (README "Performance").
 */
public final class RowPack {
    public static final byte SEPARATOR = '\n';

    private byte[] buf;
    private int length;
    private int rows;
    private long maxTimestamp = -1;

    public RowPack(int initialBytes) {
        this.buf = new byte[Math.max(16, initialBytes)];
    }

    /** What a visitor gets: one row's JSON, {@code bytes[offset, offset + length)}. */
    @FunctionalInterface
    public interface RowVisitor {
        void row(byte[] bytes, int offset, int length);
    }

    /** Visits each row of a record value in order (empty lines are not rows); returns how many. */
    public static int forEachRow(byte[] value, RowVisitor visitor) {
        int n = 0;
        int start = 0;
        for (int i = 0; i <= value.length; i++) {
            if (i == value.length || value[i] == SEPARATOR) {
                if (i > start) {
                    visitor.row(value, start, i - start);
                    n++;
                }
                start = i + 1;
            }
        }
        return n;
    }

    /** Appends a row's JSON and its record timestamp (ms, or -1 for none). */
    public void add(byte[] rowJson, long timestampMs) {
        int need = length + rowJson.length + 1;
        if (need > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(need, buf.length * 2));
        }
        if (rows > 0) {
            buf[length++] = SEPARATOR;
        }
        System.arraycopy(rowJson, 0, buf, length, rowJson.length);
        length += rowJson.length;
        rows++;
        maxTimestamp = Math.max(maxTimestamp, timestampMs);
    }

    public int rows() {
        return rows;
    }

    public int bytes() {
        return length;
    }

    /** The newest row timestamp added, or null when no row had one: the record's timestamp. */
    public Long timestamp() {
        return maxTimestamp < 0 ? null : maxTimestamp;
    }

    /** The record value of the rows added so far; empties the pack. */
    public byte[] take() {
        byte[] value = Arrays.copyOf(buf, length);
        clear();
        return value;
    }

    public void clear() {
        length = 0;
        rows = 0;
        maxTimestamp = -1;
    }
}
