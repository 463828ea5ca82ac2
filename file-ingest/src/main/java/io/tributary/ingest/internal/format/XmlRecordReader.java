package io.tributary.ingest.internal.format;

import io.tributary.expressions.XmlInput;
import io.tributary.schema.Schema;
import java.io.FilterReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Spark 4's XML file source: each element of the {@code rowTag} is one record, read into a row by the expressions module's
 * {@link XmlInput} as Spark's reader reads it, at the line its start tag is on. A record Spark marks corrupt is a bad record
 * whose text is, as Spark's corrupt record, the file's text (its first {@value #KEPT_CHARS} characters kept), or the record's
 * own when the XSD of {@code rowValidationXSDPath} refused it; text that is not XML ends the file there, as in Spark. Bytes that are not UTF-8 read as U+FFFD.
 */
final class XmlRecordReader implements RecordReader {
    /** The most characters of a file kept for a bad record's text. */
    static final int KEPT_CHARS = 1 << 20;

    private final Kept in;
    private final XmlInput.Records records;
    private final Schema schema;
    private final boolean singleVariant;

    /** @param singleVariant each record one VARIANT, the schema's one column (Spark's {@code singleVariantColumn}) */
    XmlRecordReader(InputStream in, XmlInput xml, Schema schema, boolean singleVariant) {
        this.in = (Kept) reader(in);
        this.records = xml.records(this.in);
        this.schema = schema;
        this.singleVariant = singleVariant;
    }

    /** The file's text as UTF-8, a byte order mark at its start left out (as Spark's reader leaves it out). */
    static Reader reader(InputStream in) {
        return new Kept(new InputStreamReader(in, StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPLACE)
                .onUnmappableCharacter(CodingErrorAction.REPLACE)));
    }

    @Override
    public boolean next() throws IOException {
        boolean next;
        try {
            next = records.next();
        } catch (UncheckedIOException e) {
            throw e.getCause(); // a compressed file cut short: the file is damaged, no bad record
        }
        if (next) {
            return true;
        }
        in.drain(); // the rest after the last record, or after text that is not XML, counts as read
        return false;
    }

    @Override
    public Object[] row() {
        try {
            return singleVariant ? new Object[] {records.variant()} : records.row(schema);
        } catch (XmlInput.MalformedRecord e) {
            throw FormatErrors.malformedXml(e.getMessage());
        }
    }

    @Override
    public long line() {
        return records.line();
    }

    @Override
    public Text text(int maxBytes) {
        String element = records.corruptText(); // a record its XSD refused: its own text, as in Spark
        if (element != null) {
            byte[] bytes = element.getBytes(StandardCharsets.UTF_8);
            return bytes.length <= maxBytes ? new Text(element, false) : new Text(new String(bytes, 0, maxBytes, StandardCharsets.UTF_8), true);
        }
        String kept = in.kept.toString();
        byte[] bytes = kept.getBytes(StandardCharsets.UTF_8);
        boolean cut = in.count > in.kept.length() || !in.ended;
        if (bytes.length <= maxBytes) {
            return new Text(kept, cut);
        }
        return new Text(new String(bytes, 0, maxBytes, StandardCharsets.UTF_8), true);
    }

    /** A reader that leaves out a byte order mark at the start and keeps the first characters it reads, for a bad record's text. */
    private static final class Kept extends FilterReader {
        final StringBuilder kept = new StringBuilder();
        long count;
        boolean ended;

        Kept(Reader in) {
            super(in);
        }

        private boolean started;

        @Override
        public int read() throws IOException {
            char[] one = new char[1];
            return read(one, 0, 1) < 0 ? -1 : one[0];
        }

        @Override
        public int read(char[] buf, int off, int len) throws IOException {
            int n = super.read(buf, off, len);
            if (!started && n > 0) {
                started = true;
                if (buf[off] == '\uFEFF') {
                    System.arraycopy(buf, off + 1, buf, off, n - 1);
                    if (--n == 0) {
                        return read(buf, off, len);
                    }
                }
            }
            if (n < 0) {
                ended = true;
            } else if (kept.length() < KEPT_CHARS) {
                kept.append(buf, off, Math.min(n, KEPT_CHARS - kept.length()));
                count += n;
            } else {
                count += n;
            }
            return n;
        }

        void drain() throws IOException {
            char[] buf = new char[8192];
            while (read(buf, 0, buf.length) >= 0) {
                // counted
            }
        }

        @Override
        public void close() {
            // the stream is the caller's to close
        }
    }
}
