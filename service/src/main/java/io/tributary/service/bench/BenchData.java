package io.tributary.service.bench;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The benchmark's input: JSON-lines files of rows {@code id INT, user STRING, amt DOUBLE, ts TIMESTAMP},
 * the same bytes for the same arguments (the same rows as CSV or Parquet: {@link BenchFiles}). Ids are 0..rows-1 (unique), users {@code user_0000} to
 * {@code user_9999} spread over the rows, amounts 0.00 to 9.99, one second between timestamps
 * from 2026-01-01T00:00:00Z; about 71 bytes a row.
 */
public final class BenchData {
    /** The schema of the generated rows, as a pipeline spec declares it. */
    public static final String SCHEMA = "id INT, user STRING, amt DOUBLE, ts TIMESTAMP";
    private static final long START_SECONDS = 1_767_225_600L; // 2026-01-01T00:00:00Z
    private static final int USERS = 10_000;

    private BenchData() {
    }

    /** Writes {@code rows} rows as {@code files} files {@code part-00000.json}... into {@code dir}; returns the bytes written. */
    public static long write(Path dir, long rows, int files) throws IOException {
        return write(dir, "part", 0, rows, files);
    }

    /** As {@link #write(Path, long, int)}, files {@code prefix-00000.json}..., ids from {@code firstId}. */
    public static long write(Path dir, String prefix, long firstId, long rows, int files) throws IOException {
        return write(dir, prefix, firstId, rows, files, 0);
    }

    /**
     * As above; with {@code repeatedIds} above 0, that fraction of the rows repeat an earlier row's
     * id (row {@code r} gets id {@code firstId + r mod distinct}, where {@code distinct = rows * (1 - repeatedIds)}),
     * the upsert benchmark's input: later rows update earlier ones.
     */
    public static long write(Path dir, String prefix, long firstId, long rows, int files, double repeatedIds) throws IOException {
        long distinct = Math.max(1, Math.round(rows * (1 - repeatedIds)));
        Files.createDirectories(dir);
        long bytes = 0;
        long id = firstId;
        StringBuilder line = new StringBuilder(96);
        for (int f = 0; f < files; f++) {
            long count = rows / files + (f < rows % files ? 1 : 0);
            Path file = dir.resolve(String.format("%s-%05d.json", prefix, f));
            try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16)) {
                for (long r = 0; r < count; r++, id++) {
                    line.setLength(0);
                    line.append("{\"id\":").append(firstId + (id - firstId) % distinct)
                            .append(",\"user\":\"user_").append(pad(user(id), 4))
                            .append("\",\"amt\":").append(id * 7919 % 1000 / 100).append('.').append(pad(id * 7919 % 100, 2))
                            .append(",\"ts\":\"").append(io.tributary.schema.Timestamps.formatMicros((START_SECONDS + id) * 1_000_000L))
                            .append("\"}\n");
                    byte[] b = line.toString().getBytes(StandardCharsets.US_ASCII);
                    out.write(b);
                    bytes += b.length;
                }
            }
        }
        return bytes;
    }

    /** Row {@code index}'s values (counting from the first id), as {@link #write} writes them. */
    static long id(long firstId, long index, long distinct) {
        return firstId + index % distinct;
    }

    /** Row {@code index}'s amount as its text, 0.00 to 9.99. */
    static String amount(long index) {
        return index * 7919 % 1000 / 100 + "." + pad(index * 7919 % 100, 2);
    }

    /** Row {@code index}'s user name. */
    static String userName(long index) {
        return "user_" + pad(user(index), 4);
    }

    /** Row {@code index}'s timestamp in microseconds since the epoch. */
    static long micros(long index) {
        return (START_SECONDS + index) * 1_000_000L;
    }

    /** A user for each row: every one of the 10,000 users, in a scattered order. */
    static long user(long id) {
        return (id * 7_907L + id / USERS) % USERS;
    }

    private static String pad(long v, int width) {
        String s = Long.toString(v);
        return "0".repeat(Math.max(0, width - s.length())) + s;
    }
}
