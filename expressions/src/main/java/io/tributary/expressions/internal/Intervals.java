package io.tributary.expressions.internal;

import io.tributary.expressions.ExpressionErrors;
import io.tributary.schema.DataType;
import io.tributary.schema.DataType.Kind;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Period;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Spark's ANSI interval types as far as expressions use them: {@code INTERVAL YEAR TO MONTH} (a number of months, an
 * {@code Integer}) and {@code INTERVAL DAY TO SECOND} (microseconds, a {@code Long}), each with its start and end
 * fields, as literals ({@code INTERVAL 1 HOUR}, {@code INTERVAL '1 02:00' DAY TO MINUTE}, {@code INTERVAL '1-2' YEAR TO
 * MONTH}), added to and subtracted from timestamps, dates and one another, compared, and made by subtracting two
 * timestamps or two dates. An interval lives inside an expression: a table cannot hold one, so a select item of an
 * interval type is refused. The types are marked in {@link DataType}'s record by a negative precision (minus one, minus
 * the start field) and the end field as the scale, over the kind of the value (INT months, LONG microseconds).
 */
public final class Intervals {
    private static final String[] DAY_TIME = {"DAY", "HOUR", "MINUTE", "SECOND"};
    private static final String[] YEAR_MONTH = {"YEAR", "MONTH"};
    private static final long[] MICROS = {Dates.MICROS_PER_DAY, 3_600_000_000L, 60_000_000L, 1_000_000L};
    private static final long[] LIMITS = {Long.MAX_VALUE, 23, 59, 59};

    private Intervals() {
    }

    static DataType dayTime(int start, int end) {
        return new DataType(Kind.LONG, -1 - start, end, null, null);
    }

    static DataType yearMonth(int start, int end) {
        return new DataType(Kind.INT, -1 - start, end, null, null);
    }

    /** The type {@code INTERVAL from [TO to]}, null when it is none of Spark's ANSI interval types; {@code INTERVAL} alone the CALENDAR INTERVAL. */
    static DataType type(String from, String to) {
        if (from == null) {
            return CalendarIntervals.TYPE;
        }
        String f = from.toUpperCase(Locale.ROOT);
        String t = to == null ? f : to.toUpperCase(Locale.ROOT);
        int ym = List.of(YEAR_MONTH).indexOf(f);
        int ymEnd = List.of(YEAR_MONTH).indexOf(t);
        if (ym >= 0 && ymEnd >= (to == null ? ym : ym + 1)) {
            return yearMonth(ym, ymEnd);
        }
        int dt = List.of(DAY_TIME).indexOf(f);
        int dtEnd = List.of(DAY_TIME).indexOf(t);
        return dt >= 0 && dtEnd >= (to == null ? dt : dt + 1) ? dayTime(dt, dtEnd) : null;
    }

    public static boolean isInterval(DataType t) {
        return t != null && t.precision() < 0 && t.precision() > -10 && (t.kind() == Kind.LONG || t.kind() == Kind.INT); // -10 and below: TIME
    }

    static boolean isDayTime(DataType t) {
        return isInterval(t) && t.kind() == Kind.LONG;
    }

    private static int start(DataType t) {
        return -1 - t.precision();
    }

    /** {@code INTERVAL DAY TO SECOND}, {@code INTERVAL HOUR}, {@code INTERVAL YEAR TO MONTH}: as Spark names the type. */
    public static String name(DataType t) {
        String[] fields = t.kind() == Kind.LONG ? DAY_TIME : YEAR_MONTH;
        int start = start(t);
        return "INTERVAL " + fields[start] + (t.scale() == start ? "" : " TO " + fields[t.scale()]);
    }

    /** An interval value as Spark's collect gives it, as text: a {@code Duration} or a normalized {@code Period}. */
    public static String canonical(Object v, DataType t) {
        return t.kind() == Kind.LONG ? Duration.of((Long) v, ChronoUnit.MICROS).toString() : Period.ofMonths((Integer) v).normalized().toString();
    }

    /** The type two intervals of one kind meet in (the widest fields), null when they are of different kinds. */
    static DataType common(DataType a, DataType b) {
        if (a == null || b == null || a.equals(b)) {
            return a == null ? b : a;
        }
        if (!isInterval(a) || !isInterval(b) || a.kind() != b.kind()) {
            return null;
        }
        int start = Math.min(start(a), start(b));
        int end = Math.max(a.scale(), b.scale());
        return a.kind() == Kind.LONG ? dayTime(start, end) : yearMonth(start, end);
    }

    /**
     * The literal {@code INTERVAL v unit [TO unit] ...}: each field's value text (a string literal's content, or a number), its
     * unit and the TO unit (null without one).
     */
    static Object[] literal(List<String[]> fields, String source, int position, String text) {
        try {
            if (fields.size() == 1 && fields.get(0)[2] != null) {
                return fromTo(fields.get(0));
            }
            long micros = 0;
            int months = 0;
            int start = Integer.MAX_VALUE;
            int end = -1;
            Boolean dayTime = null;
            for (String[] f : fields) {
                if (f[2] != null) {
                    throw new IllegalArgumentException();
                }
                String unit = unit(f[1]);
                BigDecimal value = new BigDecimal(f[0].strip());
                boolean dt = !unit.equals("YEAR") && !unit.equals("MONTH");
                if (dayTime != null && dayTime != dt) {
                    throw ExpressionErrors.typeMismatch(source, position, text, "an interval of years or months and days or times together is"
                            + " Spark's legacy CALENDAR INTERVAL, which is not supported; add two intervals: INTERVAL 1 MONTH + INTERVAL 2 DAYS");
                }
                dayTime = dt;
                int field;
                if (dt) {
                    long scaled = switch (unit) {
                        case "WEEK" -> value.multiply(BigDecimal.valueOf(7 * Dates.MICROS_PER_DAY)).longValueExact();
                        case "MILLISECOND" -> value.movePointRight(3).longValueExact();
                        case "MICROSECOND" -> value.longValueExact();
                        default -> value.multiply(BigDecimal.valueOf(MICROS[index(DAY_TIME, unit)])).longValueExact();
                    };
                    if (value.stripTrailingZeros().scale() > 0 && !unit.endsWith("SECOND")) {
                        throw new IllegalArgumentException();
                    }
                    micros = Math.addExact(micros, scaled);
                    field = unit.equals("WEEK") ? 0 : unit.endsWith("SECOND") ? 3 : index(DAY_TIME, unit);
                } else {
                    int n = value.intValueExact();
                    months = Math.addExact(months, unit.equals("YEAR") ? Math.multiplyExact(n, 12) : n);
                    field = index(YEAR_MONTH, unit);
                }
                start = Math.min(start, field);
                end = Math.max(end, field);
            }
            return dayTime ? new Object[] {micros, dayTime(start, end)} : new Object[] {months, yearMonth(start, end)};
        } catch (ArithmeticException | IllegalArgumentException e) {
            throw ExpressionErrors.badLiteral(source, position, text, "INTERVAL");
        }
    }

    private static String unit(String written) {
        String u = written.toUpperCase(Locale.ROOT);
        u = u.endsWith("S") ? u.substring(0, u.length() - 1) : u;
        return switch (u) {
            case "YEAR", "MONTH", "WEEK", "DAY", "HOUR", "MINUTE", "SECOND", "MILLISECOND", "MICROSECOND" -> u;
            default -> throw new IllegalArgumentException(written);
        };
    }

    private static int index(String[] fields, String unit) {
        for (int i = 0; i < fields.length; i++) {
            if (fields[i].equals(unit)) {
                return i;
            }
        }
        throw new IllegalArgumentException(unit);
    }

    /** {@code '1-2' YEAR TO MONTH}, {@code '1 02:03:04.5' DAY TO SECOND} and the other ANSI forms. */
    private static Object[] fromTo(String[] f) {
        String from = f[1].toUpperCase(Locale.ROOT);
        String to = f[2].toUpperCase(Locale.ROOT);
        String value = f[0].strip();
        boolean negative = value.startsWith("-");
        if (negative || value.startsWith("+")) {
            value = value.substring(1);
        }
        if (from.equals("YEAR") && to.equals("MONTH")) {
            Matcher m = Pattern.compile("(\\d+)-(\\d{1,2})").matcher(value);
            if (!m.matches() || Integer.parseInt(m.group(2)) > 11) {
                throw new IllegalArgumentException(value);
            }
            int months = Math.addExact(Math.multiplyExact(Integer.parseInt(m.group(1)), 12), Integer.parseInt(m.group(2)));
            return new Object[] {negative ? -months : months, yearMonth(0, 1)};
        }
        int start = index(DAY_TIME, from);
        int end = index(DAY_TIME, to);
        if (end <= start) {
            throw new IllegalArgumentException(to);
        }
        StringBuilder regex = new StringBuilder("(\\d+)");
        for (int i = start + 1; i <= end; i++) {
            regex.append(i == 1 ? " " : ":").append("(\\d{1,2})");
        }
        if (end == 3) {
            regex.append("(\\.\\d{1,6})?");
        }
        Matcher m = Pattern.compile(regex.toString()).matcher(value);
        if (!m.matches()) {
            throw new IllegalArgumentException(value);
        }
        long micros = Math.multiplyExact(Long.parseLong(m.group(1)), MICROS[start]);
        for (int i = start + 1; i <= end; i++) {
            long n = Long.parseLong(m.group(i - start + 1));
            if (n > LIMITS[i]) {
                throw new IllegalArgumentException(value);
            }
            micros = Math.addExact(micros, n * MICROS[i]);
        }
        if (end == 3 && m.group(end - start + 2) != null) {
            micros += new BigDecimal("0" + m.group(end - start + 2)).movePointRight(6).longValueExact();
        }
        return new Object[] {negative ? -micros : micros, dayTime(start, end)};
    }
}
