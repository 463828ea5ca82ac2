package io.tributary.expressions.internal;

import io.tributary.schema.DataType;
import io.tributary.schema.DataType.Kind;
import java.math.BigDecimal;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Spark 4.2's {@code TIME(p)} type (a time of day, {@code p} digits of fraction, 0 to 6) as a user has it by default, where
 * {@code spark.sql.timeType.enabled} is false: a literal ({@code TIME '12:34:56.789'}, TIME(6)) and {@code current_time([p])}
 * live inside an expression, compare with one another, cast to a whole number of seconds, a DECIMAL or text, and make a
 * timestamp with a date ({@code make_timestamp(d, t)}); what else Spark refuses with UNSUPPORTED_TIME_TYPE (a cast to TIME, the
 * TIME functions, a result of type TIME) is refused here. The type is marked in {@link DataType}'s record as a LONG of
 * precision {@code -10 - p}; a value is a {@code Long} of nanoseconds since midnight, as Spark holds it.
 */
public final class Times {
    static final String UNSUPPORTED = "UNSUPPORTED_TIME_TYPE";
    static final long NANOS_PER_SECOND = 1_000_000_000L;
    static final long NANOS_PER_DAY = 86_400L * NANOS_PER_SECOND;
    /** TIME(6), a literal's type. */
    static final DataType TIME = type(6);
    private static final int MARK = -10;
    private static final Pattern TEXT = Pattern.compile(
            "T?(\\d{1,2}):(\\d{1,2})(?::(\\d{1,2})(?:\\.(\\d*))?)?(?:\\s*([AaPp][Mm]))?");

    private static final Pattern TYPE = Pattern.compile("(?i)TIME\\s*(?:\\(\\s*([0-6])\\s*\\))?");

    private Times() {
    }

    /** {@code TIME(p)}. */
    static DataType type(int precision) {
        return new DataType(Kind.LONG, MARK - precision, 0, null, null);
    }

    public static boolean isTime(DataType t) {
        return t != null && t.kind() == Kind.LONG && t.precision() <= MARK && t.precision() >= MARK - 6;
    }

    /** Whether {@code t} is TIME or holds one (an array of TIME, a struct with a TIME field). */
    public static boolean holdsTime(DataType t) {
        return Types.holds(t, Times::isTime);
    }

    /** The type {@code TIME} (TIME(6)) or {@code TIME(p)} names, p 0 to 6; null for another text. */
    static DataType parseType(String text) {
        Matcher m = TYPE.matcher(text.strip());
        return m.matches() ? type(m.group(1) == null ? 6 : Integer.parseInt(m.group(1))) : null;
    }

    static int precision(DataType t) {
        return MARK - t.precision();
    }

    /** {@code TIME(6)}, as Spark's SQL names the type. */
    public static String name(DataType t) {
        return "TIME(" + precision(t) + ")";
    }

    /**
     * A TIME literal's text as Spark reads it: {@code [T]h:m[:s[.fraction]]} with an optional AM or PM, blanks around it
     * trimmed, the fraction cut to microseconds; null when it is no time of day (24:00, 12:60, a zone after it).
     */
    static Long parse(String text) {
        Matcher m = TEXT.matcher(text.strip());
        if (!m.matches()) {
            return null;
        }
        int hour = Integer.parseInt(m.group(1));
        int minute = Integer.parseInt(m.group(2));
        int second = m.group(3) == null ? 0 : Integer.parseInt(m.group(3));
        if (m.group(5) != null) {
            if (hour < 1 || hour > 12) {
                return null;
            }
            hour = hour % 12 + (m.group(5).toUpperCase(Locale.ROOT).equals("PM") ? 12 : 0);
        }
        if (hour > 23 || minute > 59 || second > 59) {
            return null;
        }
        String fraction = m.group(4) == null ? "" : m.group(4);
        long micros = fraction.isEmpty() ? 0 : Long.parseLong((fraction + "00000").substring(0, 6));
        return ((hour * 60L + minute) * 60L + second) * NANOS_PER_SECOND + micros * 1000L;
    }

    /** A time as Spark's cast to STRING writes it: {@code HH:mm:ss}, then the fraction without its trailing zeros. */
    static String format(long nanos) {
        long seconds = nanos / NANOS_PER_SECOND;
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%02d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60));
        long fraction = nanos % NANOS_PER_SECOND;
        if (fraction != 0) {
            String digits = String.format(Locale.ROOT, "%09d", fraction).replaceAll("0+$", "");
            sb.append('.').append(digits);
        }
        return sb.toString();
    }

    /** The seconds since midnight with their fraction, as Spark casts a TIME to a DECIMAL. */
    static BigDecimal seconds(long nanos) {
        return BigDecimal.valueOf(nanos / 1000L, 6);
    }

    /** The time of day of {@code micros} since the epoch in UTC, cut to {@code precision} digits of fraction, in nanoseconds. */
    static long ofMicros(long micros, int precision) {
        long ofDay = Math.floorMod(micros, Dates.MICROS_PER_DAY);
        long unit = (long) Math.pow(10, 6 - precision);
        return ofDay / unit * unit * 1000L;
    }

    /** The failure of an expression whose result is or holds a TIME, as Spark fails such a query when it runs. */
    public static Failure unsupportedResult(DataType t) {
        return Failure.of(UNSUPPORTED, "the result is " + Types.name(t) + ", which Spark 4.2 does not return (spark.sql.timeType.enabled is"
                + " false by default); cast it: CAST(t AS STRING), or compare it: t < TIME '12:00'");
    }
}
