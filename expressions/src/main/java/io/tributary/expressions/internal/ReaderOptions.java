package io.tributary.expressions.internal;

import io.tributary.schema.DataType;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the options maps of the CSV and XML functions share, read as Spark's {@code CSVOptions} and {@code XmlOptions} read
 * them: a constant map of text, its keys in any case, {@code mode}, {@code timeZone} and {@code locale}, and flags that are
 * {@code true} or {@code false}.
 */
final class ReaderOptions {
    private ReaderOptions() {
    }

    /** The options argument {@code args[index]}, keys in lower case; none, or a null map, gives no options. */
    static Map<String, String> given(Analyzer.Call call, List<Bound> args, int index, String refusal) {
        Map<String, String> map = args.size() <= index ? null : constant(call, args.get(index), refusal);
        return lowerCaseKeys(map == null ? Map.of() : map);
    }

    /** The map a constant map of text gives (null for a null map); anything else is refused with {@code refusal}. */
    @SuppressWarnings("unchecked")
    static Map<String, String> constant(Analyzer.Call call, Bound options, String refusal) {
        if (options.type() == null || !Types.is(options.type(), DataType.Kind.MAP) || !Types.is(options.type().element(), DataType.Kind.STRING)
                || !Bound.constant(options)) {
            throw call.typeError(refusal);
        }
        return (Map<String, String>) Interpreter.eval(options, new Object[0]);
    }

    /** The options with their keys in lower case, as Spark's case-insensitive map reads them. */
    static Map<String, String> lowerCaseKeys(Map<String, String> given) {
        Map<String, String> o = new HashMap<>();
        given.forEach((k, v) -> o.put(k.toLowerCase(Locale.ROOT), v));
        return o;
    }

    /** {@code FAILFAST} or {@code DROPMALFORMED} in any case; anything else is {@code PERMISSIVE}, as Spark reads a mode it does not know. */
    static String mode(Map<String, String> o) {
        String mode = o.getOrDefault("mode", "PERMISSIVE").toUpperCase(Locale.ROOT);
        return mode.equals("FAILFAST") || mode.equals("DROPMALFORMED") ? mode : "PERMISSIVE";
    }

    /** The zone of {@code timeZone}: UTC, the session's, without one or with one Spark cannot read ({@link #zoneProblem}). */
    static ZoneId zone(Map<String, String> o) {
        String id = o.get("timezone");
        if (id != null) {
            try {
                return FormatFunctions.zone(id);
            } catch (Failure f) {
                return ZoneOffset.UTC; // the zoneProblem the options fail with
            }
        }
        return ZoneOffset.UTC;
    }

    /** Spark's INVALID_TIMEZONE for a {@code timeZone} it cannot read, or null. */
    static Failure zoneProblem(Map<String, String> o) {
        String id = o.get("timezone");
        if (id != null) {
            try {
                FormatFunctions.zone(id);
            } catch (Failure f) {
                return f;
            }
        }
        return null;
    }

    /** The {@code locale}: {@code en-US} without one. */
    static Locale locale(Map<String, String> o) {
        return o.get("locale") == null ? Locale.US : Locale.forLanguageTag(o.get("locale"));
    }

    /**
     * The failure of class {@code errorClass} for the first of {@code names} given as neither {@code true} nor {@code false} (in
     * any case), named as written here; or null.
     */
    static Failure notAFlag(Map<String, String> o, String errorClass, Collection<String> names) {
        for (String name : names) {
            String v = o.get(name.toLowerCase(Locale.ROOT));
            if (v != null && !v.equalsIgnoreCase("true") && !v.equalsIgnoreCase("false")) {
                return Failure.of(errorClass, "the option " + name + " is true or false, not '" + v + "'");
            }
        }
        return null;
    }
}
