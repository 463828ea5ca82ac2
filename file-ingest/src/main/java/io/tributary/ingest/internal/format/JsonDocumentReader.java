package io.tributary.ingest.internal.format;

import io.tributary.schema.BadRecordException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Spark's JSON {@code multiLine}: the whole file is one JSON document, an object (one row) or an
 * array of objects (a row each). Any error makes the file one bad record (Spark's corrupt record
 * is the whole file too), at line 1.
 */
final class JsonDocumentReader implements RecordReader {
    private final InputStream in;
    private final InputJson rows;
    private final int maxBytes;
    private byte[] content;
    private long length;
    private List<Object[]> parsed;
    private BadRecordException bad;
    private int next;
    private final Leftover leftover;

    JsonDocumentReader(InputStream in, InputJson rows, int maxBytes, Leftover leftover) {
        this.in = in;
        this.rows = rows;
        this.maxBytes = maxBytes;
        this.leftover = leftover;
    }

    @Override
    public boolean next() throws IOException {
        if (parsed == null && bad == null) {
            load();
            return parsed == null || !parsed.isEmpty();
        }
        return bad == null && ++next < parsed.size();
    }

    private void load() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[64 * 1024];
        int n;
        while ((n = in.read(buf)) >= 0) {
            length += n;
            if (out.size() <= maxBytes) {
                out.write(buf, 0, n);
            }
        }
        content = out.toByteArray();
        if (length > maxBytes) {
            bad = FormatErrors.documentTooLong(length, maxBytes);
            return;
        }
        try {
            parsed = rows.parseDocument(content, 0, content.length, leftover);
        } catch (BadRecordException e) {
            bad = e;
        }
    }

    @Override
    public Object[] row() {
        if (bad != null) {
            throw bad;
        }
        return parsed.get(next);
    }

    @Override
    public long line() {
        return 1;
    }

    @Override
    public Text text(int maxBytes) {
        int n = Math.min(content.length, maxBytes);
        return new Text(new String(content, 0, n, StandardCharsets.UTF_8), n < length);
    }
}
