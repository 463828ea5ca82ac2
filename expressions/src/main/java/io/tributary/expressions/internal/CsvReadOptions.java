package io.tributary.expressions.internal;

import com.univocity.parsers.csv.CsvParserSettings;
import com.univocity.parsers.csv.UnescapedQuoteHandling;
import io.tributary.schema.CsvValues;
import io.tributary.schema.TimeTexts;
import java.time.ZoneId;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The options map of {@code from_csv} and {@code schema_of_csv}, read as Spark's {@code CSVOptions} reads them (keys in any
 * case): {@code sep} (or {@code delimiter}), {@code quote}, {@code escape}, {@code charToEscapeQuoteEscaping}, {@code comment},
 * {@code nullValue}, {@code emptyValue}, {@code nanValue}, {@code positiveInf}, {@code negativeInf}, {@code
 * ignoreLeadingWhiteSpace}, {@code ignoreTrailingWhiteSpace}, {@code unescapedQuoteHandling}, {@code maxCharsPerColumn},
 * {@code dateFormat}, {@code timestampFormat}, {@code timestampNTZFormat} read in {@code locale} and {@code timeZone}, {@code
 * enableDateTimeParsingFallback}, {@code preferDate}, {@code mode} and {@code columnNameOfCorruptRecord}. A value Spark
 * cannot read (an unknown zone or quote handling, a number that is not one) is kept as the {@link #problem} Spark fails with.
 * Spark's functions read one record whatever {@code lineSep} says (they set it to U+FFFF); other options are ignored, as Spark
 * ignores those it does not know ({@code prefersDecimal} is JSON's and XML's).
 */
record CsvReadOptions(Map<String, String> options, String mode, String corruptColumn, TimeTexts times, boolean defaultDates, ZoneId zone,
        Locale locale, Failure problem) {
    /** The options a resolved options argument gives: a constant map of text; anything else is refused. */
    static CsvReadOptions of(Analyzer.Call call, List<Bound> args, int index) {
        Map<String, String> o = ReaderOptions.given(call, args, index,
                "the options of " + call.name() + " are a map of text literals: map('sep', ';', 'nullValue', 'NA')");
        for (String key : List.of("quote", "escape", "comment")) {
            String v = o.get(key);
            if (v != null && CsvValues.optionChar(v) == null) {
                throw call.typeError("the " + call.name() + " option " + key + " is one character, not '" + v + "'");
            }
        }
        ZoneId zone = ReaderOptions.zone(o);
        Locale locale = ReaderOptions.locale(o);
        String ts = o.get("timestampformat");
        String ntz = o.get("timestampntzformat");
        String date = o.get("dateformat");
        String fallback = o.get("enabledatetimeparsingfallback");
        TimeTexts defaults = TimeTexts.of(zone);
        TimeTexts patterns = new PatternTimes(defaults, ts, ntz, date, zone, locale); // yyyy-MM-dd, Spark's default, is the defaults' strict part
        boolean dateFallback = fallback != null ? Boolean.parseBoolean(fallback) : date == null;
        TimeTexts times = new FallbackTimes(patterns, defaults, dateFallback, fallback != null ? Boolean.parseBoolean(fallback) : ts == null,
                date == null && !dateFallback && !"false".equalsIgnoreCase(o.get("preferdate")));
        return new CsvReadOptions(o, ReaderOptions.mode(o), o.getOrDefault("columnnameofcorruptrecord", "_corrupt_record"), times,
                date == null, zone, locale, problem(o));
    }

    /** What Spark fails on when it reads the options: an unknown quote handling, a number or flag that is not one, an unknown zone. */
    private static Failure problem(Map<String, String> o) {
        String handling = o.get("unescapedquotehandling");
        if (handling != null) {
            try {
                UnescapedQuoteHandling.valueOf(handling.toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                return Failure.of("IllegalArgumentException", "the option unescapedQuoteHandling is STOP_AT_CLOSING_QUOTE,"
                        + " BACK_TO_DELIMITER, STOP_AT_DELIMITER, SKIP_VALUE or RAISE_ERROR, not '" + handling + "'");
            }
        }
        String escaping = o.get("chartoescapequoteescaping");
        if (escaping != null && escaping.length() > 1) {
            return Failure.of("OPTION_VALUE_EXCEEDS_ONE_CHARACTER", "the option charToEscapeQuoteEscaping is one character, not '"
                    + escaping + "'");
        }
        String max = o.get("maxcharspercolumn");
        if (max != null) {
            try {
                Integer.parseInt(max);
            } catch (NumberFormatException e) {
                return Failure.of("_LEGACY_ERROR_TEMP_2146", "the option maxCharsPerColumn is a whole number, not '" + max + "'");
            }
        }
        Failure flags = ReaderOptions.notAFlag(o, "_LEGACY_ERROR_TEMP_2147",
                List.of("preferdate", "ignoreleadingwhitespace", "ignoretrailingwhitespace"));
        if (flags == null) {
            flags = ReaderOptions.notAFlag(o, "IllegalArgumentException", List.of("enableDateTimeParsingFallback"));
        }
        return flags != null ? flags : ReaderOptions.zoneProblem(o); // INVALID_TIMEZONE, as Spark fails
    }

    /** Throws the {@link #problem} Spark fails on with these options, if any. */
    void check() {
        if (problem != null) {
            throw problem;
        }
    }

    /** Whether schema_of_csv infers DATE before TIMESTAMP (Spark's preferDate, true by default). */
    boolean preferDate() {
        return !"false".equalsIgnoreCase(options.get("preferdate"));
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
        String escaping = options.get("chartoescapequoteescaping");
        if (escaping != null && escaping.length() == 1) {
            s.getFormat().setCharToEscapeQuoteEscaping(escaping.charAt(0));
        }
        String max = options.get("maxcharspercolumn");
        s.setMaxCharsPerColumn(problem == null && max != null ? Integer.parseInt(max) : -1);
        String handling = options.get("unescapedquotehandling");
        s.setUnescapedQuoteHandling(problem == null && handling != null ? UnescapedQuoteHandling.valueOf(handling.toUpperCase(Locale.ROOT))
                : UnescapedQuoteHandling.STOP_AT_DELIMITER);
        s.getFormat().setLineSeparator("\uFFFF"); // Spark's from_csv and schema_of_csv read one record: their lineSep is a noncharacter
        s.setNormalizeLineEndingsWithinQuotes(true);
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
