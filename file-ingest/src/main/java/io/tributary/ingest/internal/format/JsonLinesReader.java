package io.tributary.ingest.internal.format;

import io.tributary.ingest.internal.LineReader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/** JSON Lines, Spark's default JSON: one object per line, blank lines skipped ({@link LineReader}). */
final class JsonLinesReader implements RecordReader {
    private final LineReader lines;
    private final InputJson rows;
    private final int maxLineBytes;
    private final Leftover leftover;

    /** @param leftover what schema evolution does with fields the schema lacks; null: ignore them */
    JsonLinesReader(InputStream in, InputJson rows, int maxLineBytes, Leftover leftover) {
        this.lines = new LineReader(in, maxLineBytes, null);
        this.rows = rows;
        this.maxLineBytes = maxLineBytes;
        this.leftover = leftover;
    }

    @Override
    public boolean next() throws IOException {
        return lines.next();
    }

    @Override
    public Object[] row() {
        checkLine(lines, maxLineBytes);
        if (leftover == null) {
            return rows.parse(lines.bytes(), lines.start(), lines.length());
        }
        leftover.line(lines.lineNumber());
        return rows.parse(lines.bytes(), lines.start(), lines.length(), leftover);
    }

    /** The line's own problems, before any parsing: too long, or not UTF-8. */
    static void checkLine(LineReader lines, int maxLineBytes) {
        switch (lines.problem()) {
            case TOO_LONG -> throw FormatErrors.lineTooLong(lines.fullLength(), maxLineBytes);
            case INVALID_UTF8 -> throw FormatErrors.invalidUtf8(lines.invalidAt());
            default -> { }
        }
    }

    @Override
    public long line() {
        return lines.lineNumber();
    }

    @Override
    public Text text(int maxBytes) {
        return text(lines, maxBytes);
    }

    static Text text(LineReader lines, int maxBytes) {
        int n = Math.min(lines.length(), maxBytes);
        return new Text(new String(lines.bytes(), lines.start(), n, StandardCharsets.UTF_8), n < lines.fullLength());
    }

    @Override
    public String note() {
        return note(lines);
    }

    static String note(LineReader lines) {
        return lines.unterminated() && lines.problem() == LineReader.Problem.NONE
                ? " (the file's last line has no line end: was the file cut short or still being written?)" : "";
    }
}
