package io.tributary.ingest.internal.format;

import java.io.IOException;

/**
 * An input file whose bytes cannot be decoded: a compressed file that breaks off or is damaged, a
 * damaged Parquet file. Says what broke and where in the file; the reader of the file names it
 * ({@link #describe}), and stops, or skips the rest of the file under Spark's
 * {@code ignoreCorruptFiles}. An error of the storage itself (a read that failed) is never one.
 */
public final class CorruptFileException extends IOException {
    private final String codec;
    private final long fileOffset;

    /**
     * @param codec the codec ({@code gzip}, {@code bzip2}, {@code zstd}) or format ({@code parquet}) that failed
     * @param fileOffset how many bytes of the file the codec had read when it failed; -1 when not known
     * @param detail what the codec said; with no {@code fileOffset}, the whole account (a Parquet file's, naming the row)
     */
    public CorruptFileException(String codec, long fileOffset, String detail, Throwable cause) {
        super(detail, cause);
        this.codec = codec;
        this.fileOffset = fileOffset;
    }

    public String codec() {
        return codec;
    }

    /**
     * Where and why the file broke, for a message that names the file before it:
     * {@code the gzip data is cut short or damaged after line 120 (decoding failed at byte 4096 of 5000):
     * Unexpected end of ZLIB input stream}.
     *
     * @param lastLine the line (the row of a Parquet file) last read whole; 0 for none
     * @param fileSize the file's size in bytes
     */
    public String describe(long lastLine, long fileSize) {
        if (fileOffset < 0) {
            return getMessage(); // a Parquet file's reader says the row itself
        }
        return "the " + codec + " data is cut short or damaged " + (lastLine > 0 ? "after line " + lastLine : "before its first line")
                + " (decoding failed at byte " + fileOffset + " of " + fileSize + "): " + getMessage();
    }

    /** The first {@link CorruptFileException} among {@code e} and its causes (a parser may wrap it), or null. */
    public static CorruptFileException in(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof CorruptFileException c) {
                return c;
            }
        }
        return null;
    }
}
