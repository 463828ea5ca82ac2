package io.tributary.schema;

import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Timestamps and dates in the text forms Spark's JSON reader accepts by default (its lenient
 * {@code stringToTimestamp} fallback): {@code yyyy[-m[m][-d[d]]]}, then {@code T} or a space and
 * {@code h[h]:m[m][:s[s][.fraction]]}, then an optional zone: {@code Z}, {@code +hh[:mm]},
 * {@code +hhmm}, {@code UTC+hh:mm}, {@code GMT}, or a region such as {@code Europe/Paris}.
 * A missing zone means the session zone, UTC. Fraction digits beyond microseconds are truncated.
 */
public final class Timestamps {
    private static final Pattern TS = Pattern.compile(
            "\\s*([+-]?\\d{4,6})(?:-(\\d{1,2})(?:-(\\d{1,2})(?:[T ](\\d{1,2}):(\\d{1,2})(?::(\\d{1,2})(?:\\.(\\d*))?)?)?)?)?\\s*(\\S.*?)?\\s*");
    private static final DateTimeFormatter ISO_MICROS = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSS'Z'");
    private static final DateTimeFormatter ISO_SECONDS = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss'Z'");

    private Timestamps() {
    }

    /** Microseconds since the epoch, or null if the text is not a timestamp. */
    public static Long parseMicros(String text, boolean withZone) {
        Matcher m = TS.matcher(text);
        if (!m.matches()) {
            return null;
        }
        try {
            int year = Integer.parseInt(m.group(1));
            int month = m.group(2) == null ? 1 : Integer.parseInt(m.group(2));
            int day = m.group(3) == null ? 1 : Integer.parseInt(m.group(3));
            int hour = m.group(4) == null ? 0 : Integer.parseInt(m.group(4));
            int minute = m.group(5) == null ? 0 : Integer.parseInt(m.group(5));
            int second = m.group(6) == null ? 0 : Integer.parseInt(m.group(6));
            String frac = m.group(7) == null ? "" : m.group(7);
            long micros = frac.isEmpty() ? 0 : Long.parseLong((frac + "000000").substring(0, 6));
            LocalDateTime local = LocalDateTime.of(year, month, day, hour, minute, second);
            String zone = m.group(8);
            if (zone != null && m.group(4) == null) {
                return null; // a zone after a bare date is not a timestamp Spark reads
            }
            ZoneId zoneId = zone == null || !withZone ? ZoneOffset.UTC : zone(zone);
            if (zone != null && !withZone) {
                return null; // TIMESTAMP_NTZ takes no zone
            }
            long seconds = local.atZone(zoneId).toEpochSecond();
            return Math.addExact(Math.multiplyExact(seconds, 1_000_000L), micros);
        } catch (DateTimeException | ArithmeticException | NumberFormatException e) {
            return null;
        }
    }

    /**
     * A zone as Spark's {@code getZoneId} reads it: {@link ZoneId#of} with the short ids
     * ({@code EST}, {@code PST}, ...), plus the {@code +h:mm} and {@code +hh:m} forms.
     */
    private static ZoneId zone(String z) {
        String s = z.strip()
                .replaceFirst("^([+-])(\\d):", "$10$2:")
                .replaceFirst("^([+-])(\\d\\d):(\\d)$", "$1$2:0$3");
        return ZoneId.of(s, ZoneId.SHORT_IDS);
    }

    /** Days since the epoch, or null if the text is not a date ({@code yyyy[-m[m][-d[d]]]}, time part ignored as Spark does). */
    public static Integer parseDays(String text) {
        Matcher m = TS.matcher(text);
        if (!m.matches() || (m.group(8) != null && m.group(4) == null)) {
            return null;
        }
        try {
            int month = m.group(2) == null ? 1 : Integer.parseInt(m.group(2));
            int day = m.group(3) == null ? 1 : Integer.parseInt(m.group(3));
            return Math.toIntExact(LocalDate.of(Integer.parseInt(m.group(1)), month, day).toEpochDay());
        } catch (DateTimeException | ArithmeticException | NumberFormatException e) {
            return null;
        }
    }

    /** ISO-8601 in UTC: {@code 2026-01-01T10:00:00Z}, with six fraction digits when there is a fraction. */
    public static String formatMicros(long micros) {
        long seconds = Math.floorDiv(micros, 1_000_000L);
        int micro = (int) Math.floorMod(micros, 1_000_000L);
        LocalDateTime t = LocalDateTime.ofEpochSecond(seconds, micro * 1000, ZoneOffset.UTC);
        return micro == 0 ? ISO_SECONDS.format(t) : ISO_MICROS.format(t);
    }

    /** As {@link #formatMicros} without the zone designator, for TIMESTAMP_NTZ. */
    public static String formatMicrosNtz(long micros) {
        String s = formatMicros(micros);
        return s.substring(0, s.length() - 1);
    }

    public static String formatDays(int days) {
        return LocalDate.ofEpochDay(days).toString();
    }
}
