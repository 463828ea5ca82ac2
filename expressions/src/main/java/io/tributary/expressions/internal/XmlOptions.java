package io.tributary.expressions.internal;

import io.tributary.schema.DataType;
import io.tributary.schema.TimeTexts;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The options map of {@code from_xml}, {@code schema_of_xml} and {@code to_xml}, read as Spark's {@code XmlOptions} reads
 * them (keys in any case): {@code attributePrefix} ({@code _}), {@code valueTag} ({@code _VALUE}), {@code
 * ignoreSurroundingSpaces} (true), {@code nullValue} (none), {@code excludeAttribute}, {@code mode} and {@code
 * columnNameOfCorruptRecord}, {@code timestampFormat}, {@code timestampNTZFormat} and {@code dateFormat}; for writing {@code
 * rowTag} ({@code ROW}), {@code rootTag}, {@code arrayElementName} ({@code item}) and {@code indent}. Options that change
 * Spark's reading in ways Tributary does not follow are refused at start; others are ignored, as Spark ignores them.
 */
record XmlOptions(Map<String, String> options, String mode, TimeTexts times) {
    /** Spark's options that Tributary does not follow yet (lower case). */
    private static final List<String> UNSUPPORTED = List.of("rowvalidationxsdpath", "ignorenamespace", "wildcardcolname", "locale",
            "prefersdecimal", "inferschema", "samplingratio", "timezone", "charset", "encoding", "treatemptyvaluesasnulls",
            "validatename", "singlevariantcolumn");

    /** The options a resolved options argument gives: a constant map of text; anything else is refused. */
    static XmlOptions of(Analyzer.Call call, List<Bound> args, int index) {
        if (args.size() <= index) {
            return of(Map.of());
        }
        Bound options = args.get(index);
        if (options.type() == null || !Types.is(options.type(), DataType.Kind.MAP) || !Types.is(options.type().element(), DataType.Kind.STRING)
                || !Bound.constant(options)) {
            throw call.typeError("[INVALID_OPTIONS.NON_MAP_FUNCTION] the options of " + call.name() + " are a map of text literals:"
                    + " map('mode', 'FAILFAST', 'attributePrefix', '_')");
        }
        @SuppressWarnings("unchecked")
        Map<String, String> map = (Map<String, String>) Interpreter.eval(options, new Object[0]);
        XmlOptions read = of(map == null ? Map.of() : map);
        for (String key : read.options.keySet()) {
            if (UNSUPPORTED.contains(key)) {
                throw call.typeError("the " + call.name() + " option '" + key + "' is not supported yet");
            }
        }
        return read;
    }

    static XmlOptions of(Map<String, String> given) {
        Map<String, String> o = new HashMap<>();
        given.forEach((k, v) -> o.put(k.toLowerCase(Locale.ROOT), v));
        String mode = o.getOrDefault("mode", "PERMISSIVE").toUpperCase(Locale.ROOT);
        if (!mode.equals("FAILFAST") && !mode.equals("DROPMALFORMED")) {
            mode = "PERMISSIVE"; // Spark reads a mode it does not know as PERMISSIVE
        }
        String ts = o.get("timestampformat");
        String ntz = o.get("timestampntzformat");
        String date = o.getOrDefault("dateformat", "yyyy-MM-dd"); // Spark's XML reader reads dates by this pattern by default
        TimeTexts times = new PatternTimes(TimeTexts.of(ZoneOffset.UTC), ts, ntz, date);
        return new XmlOptions(o, mode, times);
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
        return flag("ignoresurroundingspaces", true);
    }

    boolean excludeAttribute() {
        return flag("excludeattribute", false);
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

    private boolean flag(String key, boolean otherwise) {
        String v = options.get(key);
        return v == null ? otherwise : v.strip().equalsIgnoreCase("true");
    }
}
