package io.tributary.expressions.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import io.tributary.schema.DataType;
import io.tributary.schema.TimeTexts;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Locale;
import java.util.Map;

/**
 * The options map of {@code from_json(json, schema, map('mode', 'FAILFAST', ...))}, those of Spark's JSON reader that
 * matter when reading one value: {@code mode} ({@code PERMISSIVE}, the default, or {@code FAILFAST}; {@code
 * DROPMALFORMED} fails every row with PARSE_MODE_UNSUPPORTED, as Spark does; any other is PERMISSIVE), {@code
 * timestampFormat} and {@code dateFormat} (Spark's datetime patterns; a text that does not match is null, or fails
 * the row under FAILFAST) read in {@code locale} and {@code timeZone} (a text without an offset is a time there), and
 * Jackson's leniencies {@code allowNumericLeadingZeros}, {@code allowUnquotedFieldNames},
 * {@code allowSingleQuotes} (on by default), {@code allowComments}, {@code allowNonNumericNumbers} (on by default),
 * {@code allowBackslashEscapingAnyCharacter} and {@code allowUnquotedControlChars}. Other options are ignored, as Spark
 * ignores those it does not know.
 */
record JsonOptions(JsonFactory factory, String mode, TimeTexts times, Failure problem) {
    static final JsonOptions DEFAULT = of(Map.of());

    boolean failFast() {
        return mode.equals("FAILFAST");
    }

    /** Throws what Spark fails each row with under these options: a time zone it cannot read, or the mode DROPMALFORMED. */
    void check() {
        if (problem != null) {
            throw problem;
        }
        if (mode.equals("DROPMALFORMED")) {
            throw Failure.of("PARSE_MODE_UNSUPPORTED", "from_json does not take the mode DROPMALFORMED; use PERMISSIVE or FAILFAST");
        }
    }

    /** The options a resolved options argument gives: a map of text literals; anything else is refused. */
    static JsonOptions of(Analyzer.Call call, Bound options) {
        if (options.type() == null || !Types.is(options.type(), DataType.Kind.MAP) || !Types.is(options.type().element(), DataType.Kind.STRING)
                || !constant(options)) {
            throw call.typeError("from_json's options are a map of text literals: map('mode', 'FAILFAST', 'timestampFormat', 'yyyy/MM/dd HH:mm')");
        }
        @SuppressWarnings("unchecked")
        Map<String, String> map = (Map<String, String>) Interpreter.eval(options, new Object[0]);
        return of(map);
    }

    private static boolean constant(Bound b) {
        if (b instanceof Bound.Literal) {
            return true;
        }
        return b instanceof Bound.Apply a && a.args().stream().allMatch(JsonOptions::constant);
    }

    static JsonOptions of(Map<String, String> options) {
        JsonFactory factory = JsonFactory.builder()
                .configure(JsonReadFeature.ALLOW_SINGLE_QUOTES, flag(options, "allowSingleQuotes", true))
                .configure(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS, flag(options, "allowNonNumericNumbers", true))
                .configure(JsonReadFeature.ALLOW_LEADING_ZEROS_FOR_NUMBERS, flag(options, "allowNumericLeadingZeros", false))
                .configure(JsonReadFeature.ALLOW_UNQUOTED_FIELD_NAMES, flag(options, "allowUnquotedFieldNames", false))
                .configure(JsonReadFeature.ALLOW_JAVA_COMMENTS, flag(options, "allowComments", false))
                .configure(JsonReadFeature.ALLOW_BACKSLASH_ESCAPING_ANY_CHARACTER, flag(options, "allowBackslashEscapingAnyCharacter", false))
                .configure(JsonReadFeature.ALLOW_UNESCAPED_CONTROL_CHARS, flag(options, "allowUnquotedControlChars", false))
                .build();
        String mode = options.getOrDefault("mode", "PERMISSIVE").toUpperCase(Locale.ROOT);
        if (!mode.equals("FAILFAST") && !mode.equals("DROPMALFORMED")) {
            mode = "PERMISSIVE";
        }
        String timestampFormat = options.get("timestampFormat");
        String dateFormat = options.get("dateFormat");
        String zoneId = options.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase("timeZone")).map(Map.Entry::getValue).findFirst()
                .orElse(null);
        String localeTag = options.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase("locale")).map(Map.Entry::getValue).findFirst()
                .orElse(null);
        ZoneId zone = ZoneOffset.UTC;
        Failure problem = null;
        if (zoneId != null) {
            try {
                zone = FormatFunctions.zone(zoneId);
            } catch (Failure f) {
                problem = f; // INVALID_TIMEZONE for each row, as Spark fails
            }
        }
        TimeTexts defaults = TimeTexts.of(zone);
        TimeTexts times = timestampFormat == null && dateFormat == null ? defaults
                : zoneId == null && localeTag == null ? new PatternTimes(defaults, timestampFormat, timestampFormat, dateFormat)
                : new PatternTimes(defaults, timestampFormat, timestampFormat, dateFormat, zone,
                        localeTag == null ? Locale.US : Locale.forLanguageTag(localeTag));
        return new JsonOptions(factory, mode, times, problem);
    }

    private static boolean flag(Map<String, String> options, String key, boolean otherwise) {
        String v = options.get(key);
        return v == null ? otherwise : v.strip().equalsIgnoreCase("true");
    }
}
