package io.tributary.ingest.internal;

import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;

/**
 * Reads a JSON-lines file as a stream of lines, in bounded memory: the buffer grows to the
 * longest line it meets, at most {@code maxLineBytes + 1}; a longer line is skipped to its end
 * and reported as {@link Problem#TOO_LONG} with its start kept for the message.
 *
 * <p>As Spark's JSON reader: lines end at {@code \n} with an optional {@code \r} before it;
 * blank lines (whitespace only) are skipped but counted in line numbers; a UTF-8 byte-order
 * mark at the start of the file is dropped; the last line may lack a line end
 * ({@link #unterminated()} says so). Every byte read goes through the digest, so the content
 * hash is the hash of exactly what was parsed.
 */
public final class LineReader {
    /** What is wrong with the current line as bytes, before any JSON is parsed. */
    public enum Problem { NONE, TOO_LONG, INVALID_UTF8 }

    /** How much of an over-long line is kept for the bad-record text. */
    static final int KEPT_PREFIX = 16 * 1024;
    private static final int INITIAL = 64 * 1024;

    private final InputStream in;
    private final int maxLineBytes;
    private final MessageDigest digest;
    private byte[] buf;
    private int pos;
    private int limit;
    private boolean eof;
    private long bytesRead;
    private long lineNumber;

    private byte[] lineBuf;
    private int lineStart;
    private int lineLength;
    private long fullLength;
    private Problem problem = Problem.NONE;
    private int invalidAt = -1;
    private boolean unterminated;

    public LineReader(InputStream in, int maxLineBytes, MessageDigest digest) {
        this.in = in;
        this.maxLineBytes = maxLineBytes;
        this.digest = digest;
        this.buf = new byte[(int) Math.min(INITIAL, (long) maxLineBytes + 1)];
    }

    /** Advances to the next non-blank line; false at the end of the input. */
    public boolean next() throws IOException {
        while (true) {
            if (!readLine()) {
                return false;
            }
            if (problem == Problem.TOO_LONG || !blank(lineBuf, lineStart, lineLength)) {
                return true;
            }
        }
    }

    /** Advances to the next line, blank or not (Spark's text source keeps empty lines); false at the end of the input. */
    public boolean nextLine() throws IOException {
        return readLine();
    }

    private boolean readLine() throws IOException {
        problem = Problem.NONE;
        invalidAt = -1;
        unterminated = false;
        int scanFrom = pos;
        while (true) {
            int nl = indexOfNewline(scanFrom);
            if (nl >= 0) {
                setLine(buf, pos, nl - pos);
                pos = nl + 1;
                break;
            }
            if (eof) {
                if (pos == limit) {
                    return false;
                }
                setLine(buf, pos, limit - pos);
                pos = limit;
                unterminated = true;
                break;
            }
            if (pos == 0 && limit == buf.length) {
                if (buf.length > maxLineBytes) {
                    skipTooLong();
                    break;
                }
                grow();
            }
            int scanned = limit - pos;
            fill();
            scanFrom = pos + scanned;
        }
        lineNumber++;
        if (lineNumber == 1 && problem == Problem.NONE && lineLength >= 3
                && (lineBuf[lineStart] & 0xFF) == 0xEF && (lineBuf[lineStart + 1] & 0xFF) == 0xBB
                && (lineBuf[lineStart + 2] & 0xFF) == 0xBF) {
            lineStart += 3;
            lineLength -= 3;
            fullLength -= 3;
        }
        if (problem == Problem.NONE) {
            if (lineLength > 0 && lineBuf[lineStart + lineLength - 1] == '\r') {
                lineLength--;
                fullLength--;
            }
            invalidAt = Utf8.firstInvalid(lineBuf, lineStart, lineLength);
            if (invalidAt >= 0) {
                problem = Problem.INVALID_UTF8;
            }
        }
        return true;
    }

    private void setLine(byte[] b, int start, int length) {
        lineBuf = b;
        lineStart = start;
        lineLength = length;
        fullLength = length;
    }

    /** The buffer is full of one line with no end in sight: keep its start, drop the rest up to its end. */
    private void skipTooLong() throws IOException {
        byte[] prefix = new byte[Math.min(KEPT_PREFIX, limit)];
        System.arraycopy(buf, 0, prefix, 0, prefix.length);
        long length = limit;
        pos = 0;
        limit = 0;
        while (true) {
            fill();
            int nl = indexOfNewline(pos);
            if (nl >= 0) {
                length += nl - pos;
                pos = nl + 1;
                break;
            }
            length += limit - pos;
            pos = 0;
            limit = 0;
            if (eof) {
                unterminated = true;
                break;
            }
        }
        setLine(prefix, 0, prefix.length);
        fullLength = length;
        problem = Problem.TOO_LONG;
    }

    private int indexOfNewline(int from) {
        for (int i = from; i < limit; i++) {
            if (buf[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    private void grow() {
        long bigger = Math.min((long) buf.length * 2, (long) maxLineBytes + 1);
        byte[] b = new byte[(int) bigger];
        System.arraycopy(buf, 0, b, 0, limit);
        buf = b;
    }

    /** Reads more input after the unread bytes, moving them to the buffer's start first. */
    private void fill() throws IOException {
        if (pos > 0) {
            System.arraycopy(buf, pos, buf, 0, limit - pos);
            limit -= pos;
            pos = 0;
        }
        if (limit == buf.length) {
            return;
        }
        int n = in.read(buf, limit, buf.length - limit);
        if (n < 0) {
            eof = true;
            return;
        }
        if (digest != null) {
            digest.update(buf, limit, n);
        }
        bytesRead += n;
        limit += n;
    }

    private static boolean blank(byte[] b, int off, int len) {
        for (int i = off; i < off + len; i++) {
            byte c = b[i];
            if (c != ' ' && c != '\t' && c != '\r' && c != '\f') {
                return false;
            }
        }
        return true;
    }

    /** The current line's bytes are {@code bytes()[start() .. start() + length())}, line end excluded. */
    public byte[] bytes() {
        return lineBuf;
    }

    public int start() {
        return lineStart;
    }

    public int length() {
        return lineLength;
    }

    /** The full length of the current line in bytes, also when only its start was kept. */
    public long fullLength() {
        return fullLength;
    }

    /** 1-based, counting blank lines too. */
    public long lineNumber() {
        return lineNumber;
    }

    public Problem problem() {
        return problem;
    }

    /** For {@link Problem#INVALID_UTF8}: the byte offset in the line of the first bad byte. */
    public int invalidAt() {
        return invalidAt;
    }

    /** True when the current line is the last one and has no line end. */
    public boolean unterminated() {
        return unterminated;
    }

    /** Bytes read from the input so far (the whole file once {@link #next()} returned false). */
    public long bytesRead() {
        return bytesRead;
    }
}
