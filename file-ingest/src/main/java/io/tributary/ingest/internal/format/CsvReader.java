package io.tributary.ingest.internal.format;

import com.univocity.parsers.common.TextParsingException;
import com.univocity.parsers.csv.CsvParser;
import com.univocity.parsers.csv.CsvParserSettings;
import com.univocity.parsers.csv.UnescapedQuoteHandling;
import io.tributary.expressions.CsvInputVariants;
import io.tributary.ingest.FileFormat;
import io.tributary.ingest.internal.LineReader;
import io.tributary.schema.CsvValues;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * CSV as Spark's CSV source reads it, with the parser Spark uses (univocity) set up as Spark sets
 * it up from the same options: by default each line is a record (blank lines and, with
 * {@code comment}, comment lines skipped); with {@code multiLine} a quoted value may span lines.
 * With {@code header} the file's first record is its header and is skipped; the columns are
 * the schema's by position, as Spark's {@code enforceSchema} (its default) takes them.
 */
final class CsvReader implements RecordReader {
    private final CsvParser parser;
    private final CsvValues values;
    private final CsvValues.Variants variants;
    private final boolean header;
    private final int maxLineBytes;
    private final char comment;
    // line by line
    private final LineReader lines;
    // multiLine
    private long recordLine;
    private long endLine;
    private String[] tokens;
    private String multiLineError;
    private boolean first = true;
    // singleVariantColumn: each record one variant object keyed by the header's names (_c0, _c1 ... without one)
    private final CsvInputVariants wholeRecord;
    private final String nullValue;
    private String[] names = new String[0];

    /** @param variants how this file's VARIANT columns read (one per file: a column's values type the ones after them); null for none */
    CsvReader(InputStream in, FileFormat format, CsvValues values, int maxLineBytes, CsvValues.Variants variants) {
        this.variants = variants;
        this.wholeRecord = format.singleVariantColumn() != null ? (CsvInputVariants) variants : null;
        this.nullValue = format.option("nullvalue", "");
        this.values = values;
        this.header = format.flag("header", false);
        this.maxLineBytes = maxLineBytes;
        this.comment = format.csvOption("comment", '\u0000');
        this.parser = new CsvParser(settings(format, maxLineBytes));
        if (format.flag("multiline", false)) {
            this.lines = null;
            // univocity closes its input at the end; the file's own stream is closed (after it is read whole) by the ingest
            parser.beginParsing(new InputStreamReader(new FilterInputStream(in) {
                @Override
                public void close() {
                }
            }, StandardCharsets.UTF_8));
        } else {
            this.lines = new LineReader(in, maxLineBytes, null);
        }
    }

    /** Spark's {@code CSVOptions.asParserSettings} for the same options. */
    static CsvParserSettings settings(FileFormat format, int maxLineBytes) {
        CsvParserSettings s = new CsvParserSettings();
        s.getFormat().setDelimiter(format.csvOption("sep", ','));
        s.getFormat().setQuote(format.csvOption("quote", '"'));
        s.getFormat().setQuoteEscape(format.csvOption("escape", '\\'));
        char comment = format.csvOption("comment", '\u0000');
        if (comment != '\u0000') {
            s.getFormat().setComment(comment);
        } else {
            s.setCommentProcessingEnabled(false);
        }
        s.setIgnoreLeadingWhitespaces(format.flag("ignoreleadingwhitespace", false));
        s.setIgnoreTrailingWhitespaces(format.flag("ignoretrailingwhitespace", false));
        s.setReadInputOnSeparateThread(false);
        s.setInputBufferSize(128);
        s.setMaxColumns(20480);
        s.setNullValue(format.option("nullvalue", ""));
        s.setEmptyValue(format.option("emptyvalue", ""));
        s.setMaxCharsPerColumn(maxLineBytes);
        s.setUnescapedQuoteHandling(UnescapedQuoteHandling.STOP_AT_DELIMITER);
        s.setLineSeparatorDetectionEnabled(format.flag("multiline", false));
        return s;
    }

    @Override
    public boolean next() throws IOException {
        if (lines != null) {
            while (lines.next()) {
                if (comment != '\u0000' && lines.length() > 0 && lines.bytes()[lines.start()] == comment) {
                    continue;
                }
                if (first && header) {
                    first = false;
                    if (wholeRecord != null && lines.problem() == LineReader.Problem.NONE) {
                        String[] h = parser.parseLine(new String(lines.bytes(), lines.start(), lines.length(), StandardCharsets.UTF_8));
                        names = h == null ? new String[0] : h;
                    }
                    continue; // the header: names only (Spark's enforceSchema)
                }
                first = false;
                return true;
            }
            return false;
        }
        while (true) {
            recordLine = endLine + 1;
            multiLineError = null;
            try {
                tokens = parser.parseNext();
            } catch (TextParsingException e) {
                CorruptFileException corrupt = CorruptFileException.in(e);
                if (corrupt != null) {
                    throw corrupt; // the compressed file broke off: no bad record, the file is damaged
                }
                multiLineError = e.getMessage();
                tokens = new String[0];
            }
            endLine = parser.getContext().currentLine();
            if (tokens == null) {
                return false;
            }
            if (first && header) {
                first = false;
                names = multiLineError == null ? tokens : names;
                continue;
            }
            first = false;
            return true;
        }
    }

    /** The current record's values as text, before conversion; null for a record the parser cannot read. */
    String[] tokens() {
        if (lines == null) {
            return multiLineError == null ? tokens : null;
        }
        if (lines.problem() != LineReader.Problem.NONE) {
            return null;
        }
        try {
            return parser.parseLine(new String(lines.bytes(), lines.start(), lines.length(), StandardCharsets.UTF_8));
        } catch (TextParsingException e) {
            return null;
        }
    }

    @Override
    public Object[] row() {
        if (lines == null) {
            if (multiLineError != null) {
                throw FormatErrors.malformedCsv(firstLine(multiLineError));
            }
            return wholeRecord != null ? whole(tokens) : values.row(tokens, variants);
        }
        JsonLinesReader.checkLine(lines, maxLineBytes);
        String[] t;
        try {
            t = parser.parseLine(new String(lines.bytes(), lines.start(), lines.length(), StandardCharsets.UTF_8));
        } catch (TextParsingException e) {
            throw FormatErrors.malformedCsv(firstLine(e.getMessage()));
        }
        t = t == null ? new String[0] : t;
        return wholeRecord != null ? whole(t) : values.row(t, variants);
    }

    /** The record as its one VARIANT (Spark's {@code singleVariantColumn}); without a header its columns are _c0, _c1 ... */
    private Object[] whole(String[] t) {
        if (!header && names.length < t.length) {
            String[] more = Arrays.copyOf(names, t.length);
            for (int i = names.length; i < t.length; i++) {
                more[i] = "_c" + i;
            }
            names = more;
        }
        return new Object[] {wholeRecord.record(names, t, nullValue)};
    }

    private static String firstLine(String message) {
        int nl = message == null ? -1 : message.indexOf('\n');
        return nl < 0 ? String.valueOf(message) : message.substring(0, nl);
    }

    @Override
    public long line() {
        return lines != null ? lines.lineNumber() : recordLine;
    }

    @Override
    public Text text(int maxBytes) {
        if (lines != null) {
            return JsonLinesReader.text(lines, maxBytes);
        }
        String content = parser.getContext().currentParsedContent();
        String s = content == null ? String.join(",", tokens) : stripLineEnd(content);
        return s.length() > maxBytes ? new Text(s.substring(0, maxBytes), true) : new Text(s, false);
    }

    /** Without its trailing line end, as Spark's corrupt record shows it. */
    private static String stripLineEnd(String s) {
        int end = s.length();
        while (end > 0 && (s.charAt(end - 1) == '\n' || s.charAt(end - 1) == '\r')) {
            end--;
        }
        return s.substring(0, end);
    }

    @Override
    public String note() {
        return lines == null ? "" : JsonLinesReader.note(lines);
    }

    @Override
    public void close() {
        if (lines == null) {
            parser.stopParsing();
        }
    }
}
