package io.tributary.ingest.internal.format;

import io.tributary.ingest.internal.LineReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * Spark's text source: each line a row of one STRING column, empty lines included (as
 * {@code ""}), line ends {@code \n} or {@code \r\n}; with {@code wholetext}, the whole file one
 * row. Bytes that are not UTF-8 read as U+FFFD, as Spark's strings show them.
 */
final class TextReader implements RecordReader {
    private final LineReader lines;
    private final InputStream whole;
    private final int maxLineBytes;
    private String wholeText;
    private long wholeLength;
    private boolean done;

    TextReader(InputStream in, boolean wholeText, int maxLineBytes) {
        this.lines = wholeText ? null : new LineReader(in, maxLineBytes, null);
        this.whole = wholeText ? in : null;
        this.maxLineBytes = maxLineBytes;
    }

    @Override
    public boolean next() throws IOException {
        if (lines != null) {
            return lines.nextLine();
        }
        if (done) {
            return false;
        }
        done = true;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[64 * 1024];
        int n;
        while ((n = whole.read(buf)) >= 0) {
            wholeLength += n;
            if (out.size() <= maxLineBytes) {
                out.write(buf, 0, n);
            }
        }
        wholeText = out.size() > maxLineBytes ? null : out.toString(StandardCharsets.UTF_8);
        return wholeLength > 0; // an empty file has no row, as in Spark
    }

    @Override
    public Object[] row() {
        if (lines == null) {
            if (wholeText == null) {
                throw FormatErrors.wholeTextTooLong(wholeLength, maxLineBytes);
            }
            return new Object[] {wholeText};
        }
        if (lines.problem() == LineReader.Problem.TOO_LONG) {
            JsonLinesReader.checkLine(lines, maxLineBytes);
        }
        return new Object[] {new String(lines.bytes(), lines.start(), lines.length(), StandardCharsets.UTF_8)};
    }

    @Override
    public long line() {
        return lines == null ? 1 : lines.lineNumber();
    }

    @Override
    public Text text(int maxBytes) {
        if (lines != null) {
            return JsonLinesReader.text(lines, maxBytes);
        }
        return new Text("", wholeLength > 0);
    }
}
