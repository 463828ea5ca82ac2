package io.tributary.schema;

import java.util.Arrays;

/**
 * Several rows in one Kafka record: their {@link RowJson} texts separated by a line feed (JSON
 * Lines; a row's JSON never holds a raw line feed, JSON escapes it). A record of one row is a
 * pack of one, so a reader of packs reads one-row records too.
 *
 * <p>A pack of {@link RowBinary} rows (a record with the {@link Topics#ROWS_HEADER}) holds their binary
 * forms one after another instead, with no separator.
 *
 * <p>Why: Kafka's cost is per record (the producer's append, the broker's validation, the
 * consumer's and Kafka Streams' per-record work), and a row of the benchmarks is ~70 bytes.
 * Packing a thousand rows per record divides that work by as much (docs/performance.md).
 */
public final class RowPack {
    public static final byte SEPARATOR = '\n';
    /** A pack is sent once it holds this many bytes, whatever its row count. */
    public static final int MAX_BYTES = 128 * 1024;

    private final FlatRowWriter.Out out;
    /** The binary form rows are packed in, or null for JSON Lines. */
    private final RowBinary binary;
    private int rows;
    private long maxTimestamp = -1;

    public RowPack(int initialBytes) {
        this(initialBytes, null);
    }

    /** A pack of rows in {@code binary}'s form; JSON Lines when null. */
    public RowPack(int initialBytes, RowBinary binary) {
        this.out = new FlatRowWriter.Out(Math.max(16, initialBytes));
        this.binary = binary;
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
        if (binary != null) {
            throw new IllegalStateException("a binary pack takes rows, not their JSON");
        }
        separate();
        out.put(rowJson);
        added(timestampMs);
    }

    /**
     * Appends {@code row} as {@code json} writes it ({@link RowJson#write}), straight into the pack
     * (no array per row), and its record timestamp (ms, or -1 for none).
     */
    public void add(RowJson json, Object[] row, long timestampMs) {
        if (binary != null) {
            binary.write(out, row);
            added(timestampMs);
            return;
        }
        separate();
        int start = out.size;
        if (!json.writeFast(out, row)) {
            out.size = start; // what the fast path wrote before it gave up
            out.put(json.write(row));
        }
        added(timestampMs);
    }

    private void separate() {
        if (rows > 0) {
            out.ensure(1);
            out.buf[out.size++] = SEPARATOR;
        }
    }

    private void added(long timestampMs) {
        rows++;
        maxTimestamp = Math.max(maxTimestamp, timestampMs);
    }

    public int rows() {
        return rows;
    }

    public int bytes() {
        return out.size;
    }

    /** Whether the pack is to be sent: it holds {@code rowsPerRecord} rows, or {@link #MAX_BYTES}. */
    public boolean full(int rowsPerRecord) {
        return rows >= rowsPerRecord || out.size >= MAX_BYTES;
    }

    /** The newest row timestamp added, or null when no row had one: the record's timestamp. */
    public Long timestamp() {
        return maxTimestamp < 0 ? null : maxTimestamp;
    }

    /** The record value of the rows added so far; empties the pack. */
    public byte[] take() {
        byte[] value = Arrays.copyOf(out.buf, out.size);
        clear();
        return value;
    }

    public void clear() {
        out.size = 0;
        rows = 0;
        maxTimestamp = -1;
    }
}
