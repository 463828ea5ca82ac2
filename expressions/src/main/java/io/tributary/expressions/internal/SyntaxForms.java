package io.tributary.expressions.internal;

import io.tributary.schema.DataType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/** Spark's call forms of their own syntax, as the calls they stand for: TRIM ... FROM, OVERLAY ... PLACING, TIMESTAMPADD(unit, ...). */
final class SyntaxForms {
    /** The units of TIMESTAMPADD (DATEADD, DATE_ADD with three arguments), written as words. */
    static final Set<String> UNITS = Set.of("YEAR", "QUARTER", "MONTH", "WEEK", "DAY", "DAYOFYEAR", "HOUR", "MINUTE", "SECOND",
            "MILLISECOND", "MICROSECOND");

    private SyntaxForms() {
    }

    /** A call of {@code name} over the arguments that are not null. */
    static Node call(String name, String text, int position, Node... args) {
        return new Node.Call(name, Arrays.stream(args).filter(Objects::nonNull).toList(), text, position);
    }

    /** TRIM([BOTH | LEADING | TRAILING] [chars] FROM str), as Spark's StringTrim, StringTrimLeft, StringTrimRight. */
    static Node trim(String option, Node chars, Node source, String text, int position) {
        String name = switch (option == null ? "both" : option.toLowerCase(Locale.ROOT)) {
            case "leading" -> "ltrim";
            case "trailing" -> "rtrim";
            default -> "btrim";
        };
        if (chars == null) {
            return call(name, text, position, source);
        }
        return name.equals("btrim") ? call(name, text, position, source, chars) : call(name, text, position, chars, source);
    }

    /**
     * The name a call resolves by: TIMESTAMPADD(unit, n, ts), DATEADD and DATE_ADD of three arguments whose first is a unit
     * word as {@code timestampadd}, the word made a literal that only this form writes (its text unquoted).
     */
    static String unitCall(String name, List<Node> args) {
        boolean adds = name.equals("timestampadd") || (name.equals("dateadd") || name.equals("date_add")) && args.size() == 3;
        if (adds && !args.isEmpty() && args.get(0) instanceof Node.Column c && c.names().size() == 1
                && UNITS.contains(c.names().get(0).toUpperCase(Locale.ROOT))) {
            String unit = c.names().get(0).toUpperCase(Locale.ROOT);
            List<Node> rest = new ArrayList<>(args);
            rest.set(0, new Node.Literal(unit, DataType.STRING, unit, c.position()));
            args.clear();
            args.addAll(rest);
            return "timestampadd";
        }
        return name;
    }
}
