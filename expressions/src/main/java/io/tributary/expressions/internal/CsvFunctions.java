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
                "the struct's fields (numbers, text, booleans, dates, timestamps) as one CSV line, as Spark's CSV writer: text quoted"
                        + " where it holds the separator, a quote or a line break, an empty text as \"\", null as nothing, leading and"
                        + " trailing spaces trimmed; options sep (or delimiter), quote, escape, nullValue, emptyValue, timestampFormat,"
                        + " dateFormat, quoteAll, escapeQuotes, ignoreLeadingWhiteSpace, ignoreTrailingWhiteSpace", CsvFunctions::toCsv));
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
            converters[i] = switch (t == null || Types.VOID.equals(t) ? Kind.STRING : t.kind()) {
                case BYTE, SHORT, INT, LONG, FLOAT, DOUBLE, BOOLEAN, STRING -> String::valueOf;
                case DECIMAL -> v -> ((BigDecimal) v).toString();
                case DATE -> v -> dates.format(java.time.LocalDate.ofEpochDay((Integer) v));
                case TIMESTAMP -> v -> timestamps.format(Dates.instant((Long) v).atZone(ZoneOffset.UTC));
                case TIMESTAMP_NTZ -> v -> Dates.dateTime((Long) v).format(NTZ);
                default -> throw call.typeError("[DATATYPE_MISMATCH.UNSUPPORTED_INPUT_TYPE] to_csv of a field of arrays, maps, structs, BINARY or"
                        + " intervals is not supported yet (Spark writes them as its pretty text); '" + fields.field(i).name() + "' is " + Types.name(t));
            };
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

    /** The options argument: a constant map of text. */
    @SuppressWarnings("unchecked")
    private static Map<String, String> options(Analyzer.Call call, Bound options) {
        if (options.type() == null || !Types.is(options.type(), Kind.MAP) || !Types.is(options.type().element(), Kind.STRING)
                || !Bound.constant(options)) {
            throw call.typeError("the options of " + call.name() + " are a map of text literals: map('sep', ';', 'nullValue', 'NA')");
        }
        return (Map<String, String>) Interpreter.eval(options, new Object[0]);
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
