package io.tributary.schema;

import java.util.Locale;

/**
 * The text rules of Spark's ANSI {@code CAST(text AS type)} for the primitive types, shared by the
 * expression engine's casts (which fail a row whose text does not cast) and a JSON MAP's typed keys
 * (which read such a key as null): each method takes text already {@link #trim trimmed} and gives
 * null when it does not cast.
 */
public final class TextCasts {
    private TextCasts() {
    }

    /** Spark trims whitespace and control characters (code points up to U+0020) around text it casts. */
    public static String trim(String s) {
        int start = 0;
        int end = s.length();
        while (start < end && s.charAt(start) <= ' ') {
            start++;
        }
        while (end > start && s.charAt(end - 1) <= ' ') {
            end--;
        }
        return s.substring(start, end);
    }

    /** A whole number within {@code [min, max]}, with an optional sign and no fraction or exponent. */
    public static Long integral(String t, long min, long max) {
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            if ((c < '0' || c > '9') && !(i == 0 && (c == '-' || c == '+'))) {
                return null;
            }
        }
        try {
            long v = Long.parseLong(t.startsWith("+") ? t.substring(1) : t);
            return v < min || v > max ? null : v;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** A DOUBLE: Java's decimal and exponent forms (with an optional d or f suffix), {@code NaN} and the infinities. */
    public static Double floating(String t) {
        String lower = t.toLowerCase(Locale.ROOT);
        switch (lower) {
            case "inf", "+inf", "infinity", "+infinity" -> {
                return Double.POSITIVE_INFINITY;
            }
            case "-inf", "-infinity" -> {
                return Double.NEGATIVE_INFINITY;
            }
            case "nan" -> {
                return Double.NaN;
            }
            default -> {
            }
        }
        char last = lower.isEmpty() ? ' ' : lower.charAt(lower.length() - 1);
        if (!(last >= '0' && last <= '9') && last != '.' && last != 'd' && last != 'f' || lower.contains("x")) {
            return null;
        }
        try {
            return Double.parseDouble(t);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** {@code t}, {@code true}, {@code y}, {@code yes}, {@code 1} and their opposites, in any case. */
    public static Boolean bool(String t) {
        return switch (t.toLowerCase(Locale.ROOT)) {
            case "t", "true", "y", "yes", "1" -> Boolean.TRUE;
            case "f", "false", "n", "no", "0" -> Boolean.FALSE;
            default -> null;
        };
    }
}
