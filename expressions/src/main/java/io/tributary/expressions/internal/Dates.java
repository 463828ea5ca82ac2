package io.tributary.expressions.internal;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoField;
import java.time.temporal.TemporalAdjusters;
import java.util.Locale;

/** Dates (days since 1970-01-01) and timestamps (microseconds since 1970-01-01T00:00Z) in the session time zone, UTC. */
final class Dates {
    static final long MICROS_PER_SECOND = 1_000_000L;
    static final long MICROS_PER_DAY = 86_400_000_000L;
    private static final DateTimeFormatter SECONDS = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss", Locale.US);

    private Dates() {
    }

    static LocalDate date(int days) {
        return LocalDate.ofEpochDay(days);
    }

    static LocalDateTime dateTime(long micros) {
        long seconds = Math.floorDiv(micros, MICROS_PER_SECOND);
        int nanos = (int) Math.floorMod(micros, MICROS_PER_SECOND) * 1000;
        return LocalDateTime.ofEpochSecond(seconds, nanos, ZoneOffset.UTC);
    }

    static long micros(LocalDateTime t) {
        return Math.addExact(Math.multiplyExact(t.toEpochSecond(ZoneOffset.UTC), MICROS_PER_SECOND), t.getNano() / 1000);
    }

    static String format(int days) {
        return date(days).toString();
    }

    /** {@code yyyy-MM-dd HH:mm:ss} and the fraction without trailing zeros, as Spark casts a timestamp to text. */
    static String formatTimestamp(long micros) {
        LocalDateTime t = dateTime(micros);
        String s = SECONDS.format(t);
        int fraction = t.getNano() / 1000;
        if (fraction == 0) {
            return s;
        }
        String f = String.format("%06d", fraction);
        int end = f.length();
        while (f.charAt(end - 1) == '0') {
            end--;
        }
        return s + "." + f.substring(0, end);
    }

    /** Days plus n, wrapping as Spark's int arithmetic on dates does. */
    static int addDays(int days, int n) {
        return days + n;
    }

    static int dayOfWeek(int days) {
        return date(days).getDayOfWeek().getValue() % 7 + 1; // Sunday 1 ... Saturday 7
    }

    static int weekday(int days) {
        return date(days).getDayOfWeek().getValue() - 1; // Monday 0 ... Sunday 6
    }

    static int addMonths(int days, int months) {
        long result = date(days).plusMonths(months).toEpochDay();
        if (result != (int) result) {
            throw Failure.overflow("add_months"); // Spark's MathUtils.toIntExact of the day
        }
        return (int) result;
    }

    static int lastDay(int days) {
        return (int) date(days).with(TemporalAdjusters.lastDayOfMonth()).toEpochDay();
    }

    static Integer makeDate(int year, int month, int day) {
        try {
            return (int) LocalDate.of(year, month, day).toEpochDay();
        } catch (java.time.DateTimeException e) {
            throw Failure.of("DATETIME_FIELD_OUT_OF_BOUNDS.WITH_SUGGESTION", e.getMessage());
        }
    }

    /** A timestamp truncated to {@code unit} (Spark's date_trunc units), or null for a unit Spark does not know. */
    static Long truncate(String unit, long micros) {
        LocalDateTime t = dateTime(micros);
        LocalDateTime r = switch (unit.toUpperCase(Locale.ROOT)) {
            case "YEAR", "YYYY", "YY" -> t.toLocalDate().withDayOfYear(1).atStartOfDay();
            case "QUARTER" -> t.toLocalDate().withDayOfMonth(1).withMonth((t.getMonthValue() - 1) / 3 * 3 + 1).atStartOfDay();
            case "MONTH", "MM", "MON" -> t.toLocalDate().withDayOfMonth(1).atStartOfDay();
            case "WEEK" -> t.toLocalDate().with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY)).atStartOfDay();
            case "DAY", "DD" -> t.toLocalDate().atStartOfDay();
            case "HOUR" -> t.withMinute(0).withSecond(0).withNano(0);
            case "MINUTE" -> t.withSecond(0).withNano(0);
            case "SECOND" -> t.withNano(0);
            case "MILLISECOND" -> t.with(ChronoField.MICRO_OF_SECOND, t.get(ChronoField.MILLI_OF_SECOND) * 1000L);
            case "MICROSECOND" -> t;
            default -> null;
        };
        return r == null ? null : micros(r);
    }

    /** A date truncated to {@code unit} (Spark's trunc units), or null for a unit trunc does not know. */
    static Integer truncateDate(String unit, int days) {
        LocalDate d = date(days);
        LocalDate r = switch (unit.toUpperCase(Locale.ROOT)) {
            case "YEAR", "YYYY", "YY" -> d.withDayOfYear(1);
            case "QUARTER" -> d.withDayOfMonth(1).withMonth((d.getMonthValue() - 1) / 3 * 3 + 1);
            case "MONTH", "MM", "MON" -> d.withDayOfMonth(1);
            case "WEEK" -> d.with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY));
            default -> null;
        };
        return r == null ? null : (int) r.toEpochDay();
    }

    static Instant instant(long micros) {
        return Instant.ofEpochSecond(Math.floorDiv(micros, MICROS_PER_SECOND), Math.floorMod(micros, MICROS_PER_SECOND) * 1000);
    }
}
