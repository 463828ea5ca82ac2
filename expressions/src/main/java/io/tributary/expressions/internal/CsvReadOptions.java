package io.tributary.expressions.internal;

import com.univocity.parsers.csv.CsvParserSettings;
import com.univocity.parsers.csv.UnescapedQuoteHandling;
import io.tributary.schema.CsvValues;
import io.tributary.schema.DataType;
import io.tributary.schema.TimeTexts;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The options map of {@code from_csv} and {@code schema_of_csv}, read as Spark's {@code CSVOptions} reads them (keys in any
 * case): {@code sep} (or {@code delimiter}), {@code quote}, {@code escape}, {@code comment}, {@code nullValue}, {@code
 * emptyValue}, {@code nanValue}, {@code positiveInf}, {@code negativeInf}, {@code ignoreLeadingWhiteSpace}, {@code
 * ignoreTrailingWhiteSpace}, {@code dateFormat}, {@code timestampFormat}, {@code timestampNTZFormat}, {@code mode} and
 * {@code columnNameOfCorruptRecord}. Options that change Spark's reading in ways Tributary does not follow are refused at start;
 * others are ignored, as Spark ignores those it does not know.
 */
record CsvReadOptions(Map<String, String> options, String mode, String corruptColumn, TimeTexts times, boolean defaultDates) {
    private static final List<String> UNSUPPORTED = List.of("locale", "prefersdecimal", "preferdate", "enabledatetimeparsingfallback",
            "unescapedquotehandling", "chartoescapequoteescaping", "linesep", "maxcharspercolumn", "timezone");

    /** The options a resolved options argument gives: a constant map of text; anything else is refused. */
    static CsvReadOptions of(Analyzer.Call call, List<Bound> args, int index) {
        if (args.size() <= index) {
            return of(call, Map.of());
        }
        Bound options = args.get(index);
        if (options.type() == null || !Types.is(options.type(), DataType.Kind.MAP) || !Types.is(options.type().element(), DataType.Kind.STRING)
                || !Bound.constant(options)) {
            throw call.typeError("the options of " + call.name() + " are a map of text literals: map('sep', ';', 'nullValue', 'NA')");
        }
        @SuppressWarnings("unchecked")
        Map<String, String> map = (Map<String, String>) Interpreter.eval(options, new Object[0]);
        return of(call, map == null ? Map.of() : map);
    }

    private static CsvReadOptions of(Analyzer.Call call, Map<String, String> given) {
        Map<String, String> o = new HashMap<>();
        given.forEach((k, v) -> o.put(k.toLowerCase(Locale.ROOT), v));
        for (String key : o.keySet()) {
            if (UNSUPPORTED.contains(key)) {
                throw call.typeError("the " + call.name() + " option '" + key + "' is not supported yet");
            }
        }
        for (String key : List.of("quote", "escape", "comment")) {
            String v = o.get(key);
            if (v != null && CsvValues.optionChar(v) == null) {
                throw call.typeError("the " + call.name() + " option " + key + " is one character, not '" + v + "'");
            }
        }
        String mode = o.getOrDefault("mode", "PERMISSIVE").toUpperCase(Locale.ROOT);
        if (!mode.equals("FAILFAST") && !mode.equals("DROPMALFORMED")) {
            mode = "PERMISSIVE"; // Spark reads a mode it does not know as PERMISSIVE
        }
        String ts = o.get("timestampformat");
        String ntz = o.get("timestampntzformat");
        String date = o.get("dateformat");
        TimeTexts defaults = TimeTexts.of(ZoneOffset.UTC);
        TimeTexts times = ts == null && ntz == null && date == null ? defaults : new PatternTimes(defaults, ts, ntz, date);
        return new CsvReadOptions(o, mode, o.getOrDefault("columnnameofcorruptrecord", "_corrupt_record"), times, date == null);
    }

    boolean failFast() {
        return mode.equals("FAILFAST");
    }

    /** The texts that read as NaN and the infinities: Spark's nanValue, positiveInf and negativeInf. */
    java.util.Set<String> specialDoubles() {
        return new java.util.HashSet<>(List.of(options.getOrDefault("nanvalue", "NaN"), options.getOrDefault("positiveinf", "Inf"),
                options.getOrDefault("negativeinf", "-Inf")));
    }

    /** A value option by its lower-case key, or null. */
    String get(String key) {
        return options.get(key);
    }

    /** Spark's {@code CSVOptions.asParserSettings} for reading one record. */
    CsvParserSettings parserSettings() {
        CsvParserSettings s = new CsvParserSettings();
        String sep = options.getOrDefault("sep", options.get("delimiter"));
        Character one = sep == null ? Character.valueOf(',') : CsvValues.optionChar(sep);
        if (one != null) {
            s.getFormat().setDelimiter(one);
        } else {
            s.getFormat().setDelimiter(sep); // Spark takes a separator of several characters
        }
        s.getFormat().setQuote(character("quote", '"'));
        s.getFormat().setQuoteEscape(character("escape", '\\'));
        char comment = character("comment", '\u0000');
        if (comment != '\u0000') {
            s.getFormat().setComment(comment);
        } else {
            s.setCommentProcessingEnabled(false);
        }
        s.setIgnoreLeadingWhitespaces(flag("ignoreleadingwhitespace"));
        s.setIgnoreTrailingWhitespaces(flag("ignoretrailingwhitespace"));
        s.setReadInputOnSeparateThread(false);
        s.setInputBufferSize(128);
        s.setMaxColumns(20480);
        s.setNullValue(options.getOrDefault("nullvalue", ""));
        s.setEmptyValue(options.getOrDefault("emptyvalue", ""));
        s.setMaxCharsPerColumn(-1);
        s.setUnescapedQuoteHandling(UnescapedQuoteHandling.STOP_AT_DELIMITER);
        s.setLineSeparatorDetectionEnabled(false);
        return s;
    }

    private char character(String key, char otherwise) {
        String v = options.get(key);
        return v == null ? otherwise : CsvValues.optionChar(v);
    }

    private boolean flag(String key) {
        String v = options.get(key);
        return v != null && v.strip().equalsIgnoreCase("true");
    }
}
