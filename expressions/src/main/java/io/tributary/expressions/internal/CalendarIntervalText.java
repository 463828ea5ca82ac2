package io.tributary.expressions.internal;

import java.util.Locale;

/**
 * Text read as a {@link CalendarInterval}, as Spark's {@code IntervalUtils.stringToInterval} reads it for {@code CAST(s AS
 * INTERVAL)} and the literal {@code INTERVAL '1 day 2 hours'}: an optional {@code interval} prefix, then pairs of a signed
 * number and a unit ({@code year}, {@code month}, {@code week}, {@code day}, {@code hour}, {@code minute}, {@code second},
 * {@code millisecond}, {@code microsecond}, each singular or plural, any case), separated by white space; only seconds
 * take a fraction (to the nanosecond, kept to the microsecond). Anything else is an {@link IllegalArgumentException}.
 */
final class CalendarIntervalText {
    private static final int NANOS_SCALE = 100_000_000;
    private static final String[] UNITS = {"year", "month", "week", "day", "hour", "minute", "second", "millisecond", "microsecond"};

    private CalendarIntervalText() {
    }

    /** The interval {@code text} writes, or null when it writes none (Spark's {@code safeStringToInterval}, which its casts use). */
    static CalendarInterval orNull(String text) {
        try {
            return parse(text);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** The interval {@code text} writes; an {@link IllegalArgumentException} naming what is wrong when it is none. */
    static CalendarInterval parse(String text) {
        String s = strip(text).toLowerCase(Locale.ROOT);
        if (s.isEmpty()) {
            throw new IllegalArgumentException("an interval's text cannot be empty");
        }
        int i = 0;
        if (s.startsWith("interval")) {
            if (s.length() == "interval".length()) {
                throw new IllegalArgumentException("an interval's text cannot be empty");
            }
            if (!Character.isWhitespace(s.charAt(8))) {
                throw new IllegalArgumentException("invalid interval prefix");
            }
            i = 9;
        }
        int months = 0;
        int days = 0;
        long micros = 0;
        boolean any = false;
        try {
            while (true) {
                i = skipSpace(s, i);
                if (i == s.length()) {
                    if (!any) {
                        throw new IllegalArgumentException("expect a number but hit the end");
                    }
                    return new CalendarInterval(months, days, micros);
                }
                boolean negative = s.charAt(i) == '-';
                if (negative || s.charAt(i) == '+') {
                    i = skipSpace(s, i + 1);
                }
                int start = i;
                long value = 0;
                while (i < s.length() && Character.isDigit(s.charAt(i)) && s.charAt(i) < 128) {
                    value = Math.addExact(Math.multiplyExact(10, value), s.charAt(i++) - '0');
                }
                boolean pointPrefixed = i == start && i < s.length() && s.charAt(i) == '.';
                if (i == start && !pointPrefixed) {
                    throw new IllegalArgumentException("unrecognized number at " + (start + 1));
                }
                long fraction = 0;
                boolean fractional = i < s.length() && s.charAt(i) == '.';
                if (fractional) {
                    int scale = NANOS_SCALE;
                    int digits = 0;
                    i++;
                    while (i < s.length() && Character.isDigit(s.charAt(i)) && s.charAt(i) < 128) {
                        if (scale == 0) {
                            throw new IllegalArgumentException("an interval holds nanoseconds at most");
                        }
                        fraction += (long) (s.charAt(i++) - '0') * scale;
                        scale /= 10;
                        digits++;
                    }
                    if (pointPrefixed && digits == 0) {
                        throw new IllegalArgumentException("invalid value at " + (start + 1));
                    }
                    fraction /= 1000;
                }
                if (i == s.length() || !Character.isWhitespace(s.charAt(i))) {
                    throw new IllegalArgumentException(i == s.length() ? "expect a unit name but hit the end" : "invalid value at " + (start + 1));
                }
                i = skipSpace(s, i);
                String unit = unitAt(s, i);
                if (fractional && !"second".equals(unit)) {
                    throw new IllegalArgumentException("only seconds have a fractional part");
                }
                if (negative) {
                    value = -value;
                    fraction = -fraction;
                }
                switch (unit) {
                    case "year" -> months = Math.toIntExact(Math.addExact(months, Math.multiplyExact(12, value)));
                    case "month" -> months = Math.addExact(months, Math.toIntExact(value));
                    case "week" -> days = Math.toIntExact(Math.addExact(days, Math.multiplyExact(7, value)));
                    case "day" -> days = Math.addExact(days, Math.toIntExact(value));
                    case "hour" -> micros = Math.addExact(micros, Math.multiplyExact(value, CalendarInterval.MICROS_PER_HOUR));
                    case "minute" -> micros = Math.addExact(micros, Math.multiplyExact(value, CalendarInterval.MICROS_PER_MINUTE));
                    case "second" -> micros = Math.addExact(Math.addExact(micros, Math.multiplyExact(value, 1_000_000L)), fraction);
                    case "millisecond" -> micros = Math.addExact(micros, Math.multiplyExact(value, 1000L));
                    case "microsecond" -> micros = Math.addExact(micros, value);
                    default -> throw new IllegalArgumentException("invalid unit at " + (i + 1));
                }
                i += unit.length();
                if (i < s.length() && s.charAt(i) == 's') {
                    i++;
                }
                if (i < s.length() && !Character.isWhitespace(s.charAt(i))) {
                    throw new IllegalArgumentException("invalid unit at " + (i + 1));
                }
                any = true;
            }
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("the interval overflows", e);
        }
    }

    /** The unit written at {@code i}, or null. */
    private static String unitAt(String s, int i) {
        for (String u : UNITS) {
            if (s.startsWith(u, i)) {
                return u;
            }
        }
        return "";
    }

    private static int skipSpace(String s, int i) {
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
        return i;
    }

    /** Spark's {@code trimAll}: white space and control characters off both ends. */
    private static String strip(String s) {
        int a = 0;
        int b = s.length();
        while (a < b && (s.charAt(a) <= ' ' || Character.isWhitespace(s.charAt(a)))) {
            a++;
        }
        while (b > a && (s.charAt(b - 1) <= ' ' || Character.isWhitespace(s.charAt(b - 1)))) {
            b--;
        }
        return s.substring(a, b);
    }
}
