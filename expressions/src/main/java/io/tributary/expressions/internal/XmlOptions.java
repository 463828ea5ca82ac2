package io.tributary.expressions.internal;

import io.tributary.schema.TimeTexts;
import java.time.ZoneId;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The options map of {@code from_xml}, {@code schema_of_xml} and {@code to_xml}, read as Spark's {@code XmlOptions} reads
 * them (keys in any case): {@code attributePrefix} ({@code _}), {@code valueTag} ({@code _VALUE}), {@code
 * ignoreSurroundingSpaces} (true), {@code nullValue} (none), {@code excludeAttribute}, {@code mode} and {@code
 * columnNameOfCorruptRecord}, {@code timestampFormat}, {@code timestampNTZFormat} and {@code dateFormat} read in {@code locale}
 * ({@code en-US}) and {@code timeZone} (the session's, UTC), {@code ignoreNamespace}, {@code wildcardColName} ({@code xs_any});
 * for the inference {@code prefersDecimal} and {@code inferSchema}; for writing {@code rowTag} ({@code ROW}), {@code rootTag},
 * {@code arrayElementName} ({@code item}), {@code indent} and {@code validateName}. A value Spark cannot read (a flag that is
 * not {@code true} or {@code false}, an unknown zone) is kept as the {@link #problem} Spark fails with. Options that change
 * Spark's reading in ways Tributary does not follow are refused at start; others are ignored, as Spark ignores them.
 */
record XmlOptions(Map<String, String> options, String mode, TimeTexts times, ZoneId zone, Locale locale, Failure problem) {
    /** Spark's options that Tributary does not follow yet (lower case). */
    private static final List<String> UNSUPPORTED = List.of("singlevariantcolumn");

    /** The flags Spark reads as {@code true} or {@code false} only, failing on any other text, and their defaults. */
    private static final Map<String, Boolean> FLAGS = Map.of("excludeattribute", false, "ignoresurroundingspaces", true,
            "inferschema", true, "ignorenamespace", false, "validatename", true);

    /** The options a resolved options argument gives: a constant map of text; anything else is refused. */
    static XmlOptions of(Analyzer.Call call, List<Bound> args, int index) {
        XmlOptions read = of(ReaderOptions.given(call, args, index, "[INVALID_OPTIONS.NON_MAP_FUNCTION] the options of " + call.name()
                + " are a map of text literals: map('mode', 'FAILFAST', 'attributePrefix', '_')"));
        for (String key : read.options.keySet()) {
            if (UNSUPPORTED.contains(key)) {
                throw call.typeError("the " + call.name() + " option '" + key + "' is not supported yet");
            }
        }
        return read;
    }

    static XmlOptions of(Map<String, String> given) {
        Map<String, String> o = ReaderOptions.lowerCaseKeys(given);
        ZoneId zone = ReaderOptions.zone(o);
        Locale locale = ReaderOptions.locale(o);
        String ts = o.get("timestampformat");
        String ntz = o.get("timestampntzformat");
        String date = o.getOrDefault("dateformat", "yyyy-MM-dd"); // Spark's XML reader reads dates by this pattern by default
        TimeTexts times = new PatternTimes(TimeTexts.of(zone), ts, ntz, date, zone, locale);
        return new XmlOptions(o, ReaderOptions.mode(o), times, zone, locale, problem(o));
    }

    /** What Spark fails on when it reads the options: a flag that is not true or false, a samplingRatio that is not above 0, an unknown zone. */
    private static Failure problem(Map<String, String> o) {
        Failure flags = ReaderOptions.notAFlag(o, "_LEGACY_ERROR_TEMP_2147", FLAGS.keySet());
        if (flags == null) {
            flags = ReaderOptions.notAFlag(o, "IllegalArgumentException", List.of("prefersDecimal"));
        }
        if (flags != null) {
            return flags;
        }
        String ratio = o.get("samplingratio");
        if (ratio != null) {
            try {
                if (!(Double.parseDouble(ratio) > 0)) {
                    return Failure.of("IllegalArgumentException", "the option samplingRatio (" + ratio + ") should be greater than 0");
                }
            } catch (NumberFormatException e) {
                return Failure.of("NumberFormatException", "the option samplingRatio is a number, not '" + ratio + "'");
            }
        }
        return ReaderOptions.zoneProblem(o); // INVALID_TIMEZONE, as Spark fails
    }

    /** Throws the {@link #problem} Spark fails on with these options, if any. */
    void check() {
        if (problem != null) {
            throw problem;
        }
    }

    boolean failFast() {
        return mode.equals("FAILFAST");
    }

    String attributePrefix() {
        return options.getOrDefault("attributeprefix", "_");
    }

    String valueTag() {
        return options.getOrDefault("valuetag", "_VALUE");
    }

    /** Spark's nullValue: the text that reads as null (none by default), and what to_xml writes for a null. */
    String nullValue() {
        return options.get("nullvalue");
    }

    boolean ignoreSurroundingSpaces() {
        return flag("ignoresurroundingspaces");
    }

    boolean excludeAttribute() {
        return flag("excludeattribute");
    }

    /** Whether a name's namespace prefix is dropped ({@code x:a} read as {@code a}). */
    boolean ignoreNamespace() {
        return flag("ignorenamespace");
    }

    /** Whether schema_of_xml infers the types of values (else every value is STRING). */
    boolean inferSchema() {
        return flag("inferschema");
    }

    /** Whether to_xml checks that names are XML names. */
    boolean validateName() {
        return flag("validatename");
    }

    /** Whether schema_of_xml infers a DECIMAL for a number with a fraction. */
    boolean prefersDecimal() {
        return "true".equalsIgnoreCase(options.get("prefersdecimal"));
    }

    /** The field that collects the elements the schema does not name, when the schema has it (by this exact name). */
    String wildcardColName() {
        return options.getOrDefault("wildcardcolname", "xs_any");
    }

    String corruptColumn() {
        return options.getOrDefault("columnnameofcorruptrecord", "_corrupt_record");
    }

    String rowTag() {
        return options.getOrDefault("rowtag", "ROW");
    }

    String arrayElementName() {
        return options.getOrDefault("arrayelementname", "item");
    }

    /** A value option by its lower-case key, or null. */
    String get(String key) {
        return options.get(key);
    }

    /** A name as the reader gives it: with ignoreNamespace, what follows its last colon. */
    String name(String qualified) {
        if (!ignoreNamespace()) {
            return qualified;
        }
        String[] parts = qualified.split(":");
        return parts.length == 0 ? qualified : parts[parts.length - 1];
    }

    private boolean flag(String key) {
        String v = options.get(key);
        return v == null ? FLAGS.get(key) : v.strip().equalsIgnoreCase("true");
    }
}
