package io.tributary.sink.internal;

import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code deleteWhen} condition: {@code column = value} or {@code column IN (v1, v2)}, each value
 * bare or in single quotes. A row matches when the column's value, written as text
 * ({@code d}, {@code 3}, {@code true}), is one of the values; a null never matches.
 */
public record DeleteWhen(String column, Set<String> values) {
    private static final Pattern EQUALS = Pattern.compile("\\s*([A-Za-z_][A-Za-z0-9_]*)\\s*=\\s*('([^']*)'|[^\\s']+)\\s*");
    private static final Pattern IN = Pattern.compile("\\s*([A-Za-z_][A-Za-z0-9_]*)\\s+(?i:in)\\s*\\((.*)\\)\\s*");
    private static final Pattern ITEM = Pattern.compile("\\s*('([^']*)'|[^\\s',]+)\\s*");

    /** The condition {@code text} writes; empty when it is neither form. */
    public static Optional<DeleteWhen> parse(String text) {
        Matcher m = EQUALS.matcher(text);
        if (m.matches()) {
            return Optional.of(new DeleteWhen(m.group(1), Set.of(m.group(3) != null ? m.group(3) : m.group(2))));
        }
        m = IN.matcher(text);
        if (!m.matches()) {
            return Optional.empty();
        }
        Set<String> values = new LinkedHashSet<>();
        for (String item : m.group(2).split(",", -1)) {
            Matcher v = ITEM.matcher(item);
            if (!v.matches()) {
                return Optional.empty();
            }
            values.add(v.group(2) != null ? v.group(2) : v.group(1));
        }
        return Optional.of(new DeleteWhen(m.group(1), Set.copyOf(values)));
    }

    /** True if {@code value} (the column's value in a row) is one of the values. */
    boolean matches(Object value) {
        return value != null && values.contains(String.valueOf(value));
    }
}
