package io.tributary.ingest.internal.format;

import io.tributary.schema.DebeziumEvents;
import io.tributary.ingest.internal.LineReader;
import io.tributary.schema.BadRecordException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code format: debezium-json}: Debezium's change events ({@link DebeziumEvents}), one per line
 * (JSON Lines, as the JSON format; blank lines skipped), or with {@code multiLine} a file of one
 * event or a JSON array of events (any error makes the file one bad record, as the JSON format's
 * {@code multiLine}). Tombstones and truncate events give no row and are counted
 * ({@link #skipped()}); a truncate is logged, as the table keeps its rows.
 */
final class DebeziumReader implements RecordReader {
    private static final Logger LOG = LoggerFactory.getLogger(DebeziumReader.class);

    private final InputStream in;
    private final DebeziumEvents events;
    private final int maxLineBytes;
    private final String display;
    private final LineReader lines;
    private Object[] row;
    private BadRecordException bad;
    private long skipped;
    // multiLine: the whole file, its events, and the next one to give
    private byte[] content;
    private long length;
    private List<DebeziumEvents.Event> parsed;
    private int next = -1;

    DebeziumReader(InputStream in, DebeziumEvents events, boolean document, int maxLineBytes, String display) {
        this.in = in;
        this.events = events;
        this.maxLineBytes = maxLineBytes;
        this.display = display;
        this.lines = document ? null : new LineReader(in, maxLineBytes, null);
    }

    @Override
    public boolean next() throws IOException {
        return lines == null ? nextInDocument() : nextLine();
    }

    private boolean nextLine() throws IOException {
        while (lines.next()) {
            row = null;
            bad = null;
            try {
                JsonLinesReader.checkLine(lines, maxLineBytes);
                DebeziumEvents.Event e = events.parse(lines.bytes(), lines.start(), lines.length());
                if (e.skip() != null) {
                    skip(e, lines.lineNumber());
                    continue;
                }
                row = e.row();
            } catch (BadRecordException e) {
                bad = e;
            }
            return true;
        }
        return false;
    }

    private boolean nextInDocument() throws IOException {
        if (content == null) {
            load();
            if (bad != null) {
                return true; // the file is one bad record
            }
        } else if (bad != null) {
            return false;
        }
        while (++next < parsed.size()) {
            DebeziumEvents.Event e = parsed.get(next);
            if (e.skip() == null) {
                row = e.row();
                return true;
            }
            skip(e, 1);
        }
        return false;
    }

    private void load() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[64 * 1024];
        int n;
        while ((n = in.read(buf)) >= 0) {
            length += n;
            if (out.size() <= maxLineBytes) {
                out.write(buf, 0, n);
            }
        }
        content = out.toByteArray();
        if (length > maxLineBytes) {
            bad = FormatErrors.documentTooLong(length, maxLineBytes);
            return;
        }
        try {
            parsed = events.parseDocument(content, 0, content.length);
        } catch (BadRecordException e) {
            bad = e;
        }
    }

    private void skip(DebeziumEvents.Event e, long line) {
        skipped++;
        if (e.skip() == DebeziumEvents.Skip.TRUNCATE) {
            LOG.warn("file {} line {}: a truncate event (op t) skipped: the table keeps its rows, as the upsert sink"
                    + " applies row changes only; empty the table yourself if the source table was truncated (docs/cdc.md)",
                    display, line);
        }
    }

    @Override
    public Object[] row() {
        if (bad != null) {
            throw bad;
        }
        return row;
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
        int n = Math.min(content.length, maxBytes);
        return new Text(new String(content, 0, n, StandardCharsets.UTF_8), n < length);
    }

    @Override
    public String note() {
        return lines == null ? "" : JsonLinesReader.note(lines);
    }

    @Override
    public long skipped() {
        return skipped;
    }
}
