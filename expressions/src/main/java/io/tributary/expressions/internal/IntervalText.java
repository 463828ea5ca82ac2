package io.tributary.expressions.internal;

import io.tributary.schema.DataType;
import io.tributary.schema.DataType.Kind;
import java.math.BigDecimal;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Intervals cast to and from text in Spark's ANSI forms: an {@code INTERVAL DAY TO SECOND} of 1 day 2 hours 3 minutes 4.5
 * seconds is the text {@code INTERVAL '1 02:03:04.5' DAY TO SECOND}, and both that text and its bare value
 * {@code 1 02:03:04.5} cast back to the interval; a year-month interval is {@code INTERVAL '1-2' YEAR TO MONTH}.
 */
final class IntervalText {
    private static final String[] DAY_TIME = {"DAY", "HOUR", "MINUTE", "SECOND"};
    private static final String[] YEAR_MONTH = {"YEAR", "MONTH"};
    private static final long[] MICROS = {Dates.MICROS_PER_DAY, 3_600_000_000L, 60_000_000L, 1_000_000L};
    private static final long[] LIMITS = {Long.MAX_VALUE, 23, 59, 59};
    private static final Pattern ANSI = Pattern.compile("(?i)INTERVAL\\s+([+-])?'([^']*)'\\s+([A-Z]+)(?:\\s+TO\\s+([A-Z]+))?");

    private IntervalText() {
    }

    private static int start(DataType t) {
        return -1 - t.precision();
    }

    private static String suffix(DataType t) {
        String[] fields = t.kind() == Kind.LONG ? DAY_TIME : YEAR_MONTH;
        return start(t) == t.scale() ? fields[start(t)] : fields[start(t)] + " TO " + fields[t.scale()];
    }

    /** The interval {@code v} of type {@code t} as Spark's {@code CAST(... AS STRING)} writes it. */
    static String format(Object v, DataType t) {
        int start = start(t);
        int end = t.scale();
        if (t.kind() == Kind.INT) {
            long months = (Integer) v;
            String sign = months < 0 ? "-" : "";
            long abs = Math.abs(months);
            String body = start != end ? sign + abs / 12 + "-" + abs % 12 : start == 0 ? sign + abs / 12 : String.valueOf(months);
            return "INTERVAL '" + body + "' " + suffix(t);
        }
        long micros = (Long) v;
        BigDecimal rest = BigDecimal.valueOf(micros).abs();
        StringBuilder b = new StringBuilder(micros < 0 ? "-" : "");
        for (int f = start; f <= end; f++) {
            BigDecimal unit = BigDecimal.valueOf(MICROS[f]);
            if (f > start) {
                b.append(f == 1 ? " " : ":");
            }
            if (f == 3) {
                BigDecimal seconds = rest.movePointLeft(6);
                b.append(seconds.compareTo(BigDecimal.TEN) < 0 ? "0" : "").append(seconds.stripTrailingZeros().toPlainString());
            } else {
                BigDecimal[] qr = rest.divideAndRemainder(unit);
                String n = qr[0].toPlainString();
                b.append(f > 0 && n.length() < 2 ? "0" + n : n);
                rest = qr[1];
            }
        }
        return "INTERVAL '" + b + "' " + suffix(t);
    }

    /** The text {@code s} read as an interval of type {@code t}, in the ANSI form or bare; CAST_INVALID_INPUT otherwise. */
    static Object parse(String s, DataType t) {
        String text = s.strip();
        int sign = 1;
        Matcher m = ANSI.matcher(text);
        if (m.matches()) {
            String from = m.group(3).toUpperCase(Locale.ROOT);
            String to = m.group(4) == null ? from : m.group(4).toUpperCase(Locale.ROOT);
            if (!(from + (from.equals(to) ? "" : " TO " + to)).equals(suffix(t))) {
                throw invalid(s, t);
            }
            sign = "-".equals(m.group(1)) ? -1 : 1;
            text = m.group(2).strip();
        }
        if (text.startsWith("-") || text.startsWith("+")) {
            sign = text.startsWith("-") ? -sign : sign;
            text = text.substring(1);
        }
        try {
            if (t.kind() == Kind.INT) {
                return sign * months(text, t);
            }
            return sign * micros(text, t);
        } catch (ArithmeticException | OutOfRange e) {
            throw Failure.of("INVALID_INTERVAL_FORMAT.INTERVAL_PARSING", "the value '" + s + "' is out of the range of " + Intervals.name(t));
        } catch (IllegalArgumentException e) {
            throw invalid(s, t);
        }
    }

    /** A field of the text beyond its range (a month of 12, an hour of 25). */
    private static final class OutOfRange extends RuntimeException {
        OutOfRange() {
            super(null, null, false, false);
        }
    }

    private static int months(String text, DataType t) {
        if (start(t) != t.scale()) {
            Matcher m = Pattern.compile("(\\d+)-(\\d+)").matcher(text);
            if (!m.matches()) {
                throw new IllegalArgumentException(text);
            }
            if (Integer.parseInt(m.group(2)) > 11) {
                throw new OutOfRange();
            }
            return Math.addExact(Math.multiplyExact(Integer.parseInt(m.group(1)), 12), Integer.parseInt(m.group(2)));
        }
        if (!text.matches("\\d+")) {
            throw new IllegalArgumentException(text);
        }
        int n = Integer.parseInt(text);
        return start(t) == 0 ? Math.multiplyExact(n, 12) : n;
    }

    private static long micros(String text, DataType t) {
        int start = start(t);
        int end = t.scale();
        StringBuilder regex = new StringBuilder("(\\d+)");
        for (int i = start + 1; i <= end; i++) {
            regex.append(i == 1 ? " " : ":").append("(\\d{1,2})");
        }
        if (end == 3) {
            regex.append("(\\.\\d{1,9})?");
        }
        Matcher m = Pattern.compile(regex.toString()).matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException(text);
        }
        long micros = Math.multiplyExact(Long.parseLong(m.group(1)), MICROS[start]);
        for (int i = start + 1; i <= end; i++) {
            long n = Long.parseLong(m.group(i - start + 1));
            if (n > LIMITS[i]) {
                throw new OutOfRange();
            }
            micros = Math.addExact(micros, n * MICROS[i]);
        }
        String fraction = end == 3 ? m.group(end - start + 2) : null;
        if (fraction != null) {
            micros = Math.addExact(micros, new BigDecimal("0" + fraction).movePointRight(6).longValue());
        }
        return micros;
    }

    private static Failure invalid(String s, DataType t) {
        String condition = t.kind() == Kind.LONG ? "INVALID_INTERVAL_FORMAT.UNMATCHED_FORMAT_STRING_WITH_NOTICE" : "INVALID_INTERVAL_FORMAT.UNMATCHED_FORMAT_STRING";
        return Failure.of(condition, "the value '" + s + "' is not an " + Intervals.name(t) + ": write it as '" + example(t) + "' or "
                + format(t.kind() == Kind.LONG ? (Object) 93_784_000_000L : (Object) 14, t));
    }

    private static String example(DataType t) {
        String f = format(t.kind() == Kind.LONG ? (Object) 93_784_000_000L : (Object) 14, t);
        return f.substring(f.indexOf('\'') + 1, f.lastIndexOf('\''));
    }
}
