package io.tributary.expressions.internal;

import com.univocity.parsers.csv.CsvWriter;
import com.univocity.parsers.csv.CsvWriterSettings;
import io.tributary.schema.DataType;
import io.tributary.schema.DataType.Kind;
import io.tributary.schema.Schema;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Spark's {@code to_csv}: a STRUCT of atomic fields as one CSV line, written by the parser Spark writes CSV with (univocity),
 * set up as Spark's {@code CSVOptions.asWriterSettings} sets it up from the same options.
 */
final class CsvFunctions {
    private static final Set<String> OPTIONS = Set.of("sep", "delimiter", "quote", "escape", "nullvalue", "timestampformat", "dateformat",
            "quoteall", "escapequotes", "ignoreleadingwhitespace", "ignoretrailingwhitespace", "emptyvalue", "mode");

    /** Spark's timestampNTZFormat for writing, {@code yyyy-MM-dd'T'HH:mm:ss[.SSS]}: the optional fraction is written. */
    private static final DateTimeFormatter NTZ = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS", Locale.US);

    private CsvFunctions() {
    }

    static void register(Consumer<FunctionDef> add) {
        add.accept(Fn.custom("to_csv", 1, 2, "to_csv(STRUCT[, options MAP<STRING, STRING>]) → STRING", FunctionDef.NULL_IN_NULL_OUT,
                "the struct's fields as one CSV line, as Spark's CSV writer: text quoted"
                        + " where it holds the separator, a quote or a line break, an empty text as \"\", null as nothing, leading and"
                        + " trailing spaces trimmed; a struct, array or map field as Spark's text of it ({1, a}, [1, , 3], {k -> 1}), BINARY"
                        + " as hex bytes ([01 FF]), an interval as its literal (INTERVAL '1' DAY); options sep (or delimiter), quote,"
                        + " escape, nullValue, emptyValue, timestampFormat, dateFormat, quoteAll, escapeQuotes, ignoreLeadingWhiteSpace, ignoreTrailingWhiteSpace", CsvFunctions::toCsv));
    }

    private static Bound toCsv(Analyzer.Call call, List<Bound> args) {
        Bound struct = args.get(0);
        if (struct.type() != null && !Types.is(struct.type(), Kind.STRUCT)) {
            throw call.typeError("[DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE] to_csv needs a STRUCT, and '" + struct.text() + "' is "
                    + Types.name(struct.type()));
        }
        Map<String, String> options = args.size() > 1 ? options(call, args.get(1)) : Map.of();
        for (String key : options.keySet()) {
            if (!OPTIONS.contains(key.toLowerCase(Locale.ROOT))) {
                throw call.typeError("the to_csv option '" + key + "' is not supported yet; supported: sep, delimiter, quote, escape,"
                        + " nullValue, emptyValue, timestampFormat, dateFormat, quoteAll, escapeQuotes, ignoreLeadingWhiteSpace,"
                        + " ignoreTrailingWhiteSpace (mode is taken and does nothing, as in Spark)");
            }
        }
        Map<String, String> o = new java.util.HashMap<>();
        options.forEach((k, v) -> o.put(k.toLowerCase(Locale.ROOT), v));
        if (struct.type() == null) {
            return new Bound.Literal(null, DataType.STRING, call.text());
        }
        Schema fields = struct.type().struct();
        @SuppressWarnings("unchecked")
        Function<Object, String>[] converters = new Function[fields.size()];
        DateTimeFormatter timestamps = DateFunctions.formatter(o.getOrDefault("timestampformat", "yyyy-MM-dd'T'HH:mm:ss.SSSXXX"));
        DateTimeFormatter dates = DateFunctions.formatter(o.getOrDefault("dateformat", "yyyy-MM-dd"));
        for (int i = 0; i < converters.length; i++) {
            DataType t = fields.field(i).type();
            if (t != null && !Types.VOID.equals(t) && !Intervals.isInterval(t) && !t.isNested() && !atomic(t.kind())) {
                throw call.typeError("[DATATYPE_MISMATCH.UNSUPPORTED_INPUT_TYPE] to_csv of '" + fields.field(i).name() + "', "
                        + Types.name(t) + ", is not supported yet");
            }
            converters[i] = converter(t == null || Types.VOID.equals(t) ? DataType.STRING : t, timestamps, dates);
        }
        CsvWriterSettings settings = settings(call, o);
        return call.apply(List.of(struct), DataType.STRING, (Kernel.Unary) v -> {
            Object[] row = (Object[]) v;
            String[] values = new String[row.length];
            for (int i = 0; i < row.length; i++) {
                values[i] = row[i] == null ? null : converters[i].apply(row[i]);
            }
            CsvWriter writer = new CsvWriter(new StringWriter(), settings);
            return writer.writeRowToString((Object[]) values);
        });
    }

    private static boolean atomic(Kind kind) {
        return switch (kind) {
            case BYTE, SHORT, INT, LONG, FLOAT, DOUBLE, BOOLEAN, STRING, DECIMAL, DATE, TIMESTAMP, TIMESTAMP_NTZ, BINARY -> true;
            default -> false;
        };
    }

    /**
     * How Spark's CSV writer writes a value of {@code t}: dates and timestamps by the options' patterns, BINARY
     * as hex bytes ({@code [01 FF]}), an interval as its literal ({@code INTERVAL '1' DAY}), a struct {@code {1, a}}, an array
     * {@code [1, , 3]} and a map {@code {k -> 1, n ->}} with their values written the same way and nulls inside as nothing.
     */
    private static Function<Object, String> converter(DataType t, DateTimeFormatter timestamps, DateTimeFormatter dates) {
        if (Intervals.isInterval(t)) {
            return v -> IntervalText.format(v, t);
        }
        if (CalendarIntervals.isCalendar(t)) {
            return Object::toString;
        }
        return switch (t.kind()) {
            case DECIMAL -> v -> ((BigDecimal) v).toString();
            case DATE -> v -> dates.format(java.time.LocalDate.ofEpochDay((Integer) v));
            case TIMESTAMP -> v -> timestamps.format(Dates.instant((Long) v).atZone(ZoneOffset.UTC));
            case TIMESTAMP_NTZ -> v -> Dates.dateTime((Long) v).format(NTZ);
            case BINARY -> v -> {
                StringBuilder b = new StringBuilder("[");
                for (byte x : (byte[]) v) {
                    b.append(b.length() > 1 ? " " : "").append(String.format(Locale.ROOT, "%02X", x));
                }
                return b.append(']').toString();
            };
            case ARRAY -> {
                Function<Object, String> element = converter(t.element(), timestamps, dates);
                yield v -> {
                    StringBuilder b = new StringBuilder("[");
                    int i = 0;
                    for (Object e : (List<?>) v) {
                        b.append(i++ > 0 ? "," : "").append(e == null ? "" : (i > 1 ? " " : "") + element.apply(e));
                    }
                    return b.append(']').toString();
                };
            }
            case STRUCT -> {
                Schema s = t.struct();
                @SuppressWarnings("unchecked")
                Function<Object, String>[] fields = new Function[s.size()];
                for (int i = 0; i < fields.length; i++) {
                    fields[i] = converter(s.field(i).type(), timestamps, dates);
                }
                yield v -> {
                    StringBuilder b = new StringBuilder("{");
                    Object[] row = (Object[]) v;
                    for (int i = 0; i < row.length; i++) {
                        b.append(i > 0 ? "," : "").append(row[i] == null ? "" : (i > 0 ? " " : "") + fields[i].apply(row[i]));
                    }
                    return b.append('}').toString();
                };
            }
            case MAP -> {
                Function<Object, String> key = converter(t.keyType(), timestamps, dates);
                Function<Object, String> value = converter(t.element(), timestamps, dates);
                yield v -> {
                    StringBuilder b = new StringBuilder("{");
                    int i = 0;
                    for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                        b.append(i++ > 0 ? ", " : "").append(key.apply(e.getKey())).append(" ->")
                                .append(e.getValue() == null ? "" : " " + value.apply(e.getValue()));
                    }
                    return b.append('}').toString();
                };
            }
            default -> String::valueOf;
        };
    }

    /** The options argument: a constant map of text. */
    private static Map<String, String> options(Analyzer.Call call, Bound options) {
        return ReaderOptions.constant(call, options, "the options of " + call.name() + " are a map of text literals: map('sep', ';', 'nullValue', 'NA')");
    }

    /** Spark's {@code CSVOptions.asWriterSettings} for the options. */
    private static CsvWriterSettings settings(Analyzer.Call call, Map<String, String> o) {
        CsvWriterSettings s = new CsvWriterSettings();
        String sep = o.getOrDefault("sep", o.getOrDefault("delimiter", ","));
        if (sep.isEmpty()) {
            throw call.typeError("the to_csv option sep is empty: give one character, such as ';'");
        }
        s.getFormat().setDelimiter(sep);
        s.getFormat().setQuote(character(call, o, "quote", '"'));
        s.getFormat().setQuoteEscape(character(call, o, "escape", '\\'));
        s.getFormat().setComment('\u0000');
        s.setIgnoreLeadingWhitespaces(flag(o, "ignoreleadingwhitespace", true));
        s.setIgnoreTrailingWhitespaces(flag(o, "ignoretrailingwhitespace", true));
        s.setNullValue(o.getOrDefault("nullvalue", ""));
        s.setEmptyValue(o.getOrDefault("emptyvalue", "\"\""));
        s.setSkipEmptyLines(true);
        s.setQuoteAllFields(flag(o, "quoteall", false));
        s.setQuoteEscapingEnabled(flag(o, "escapequotes", true));
        return s;
    }

    private static char character(Analyzer.Call call, Map<String, String> o, String key, char otherwise) {
        String v = o.get(key);
        if (v == null) {
            return otherwise;
        }
        if (v.isEmpty()) {
            return '\u0000';
        }
        if (v.length() != 1) {
            throw call.typeError("the to_csv option " + key + " is one character, not '" + v + "'");
        }
        return v.charAt(0);
    }

    private static boolean flag(Map<String, String> o, String key, boolean otherwise) {
        String v = o.get(key);
        return v == null ? otherwise : v.equalsIgnoreCase("true");
    }
}
