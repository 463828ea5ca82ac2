package io.tributary.schema;

import java.nio.charset.StandardCharsets;
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
 * A missing zone means the session zone (Spark's {@code spark.sql.session.timeZone}; Tributary's
 * {@code source.files.timeZone}, UTC unless set): a wall-clock time there, resolved as Spark's
 * {@code ZonedDateTime.of} does (a time in a spring-forward gap moves forward by the gap's length, a
 * time in a fall-back overlap takes the earlier offset). A TIMESTAMP_NTZ takes no zone, and a
 * DATE none either. Fraction digits beyond microseconds are truncated.
 */
public final class Timestamps {
    private static final Pattern TS = Pattern.compile(
            "\\s*([+-]?\\d{4,6})(?:-(\\d{1,2})(?:-(\\d{1,2})(?:[T ](\\d{1,2}):(\\d{1,2})(?::(\\d{1,2})(?:\\.(\\d*))?)?)?)?)?\\s*(\\S.*?)?\\s*");
    private static final DateTimeFormatter ISO_MICROS = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSS'Z'");
    private static final DateTimeFormatter ISO_SECONDS = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss'Z'");
    private static final Pattern ONE_DIGIT_HOUR = Pattern.compile("^([+-])(\\d):");
    private static final Pattern ONE_DIGIT_MINUTE = Pattern.compile("^([+-])(\\d\\d):(\\d)$");
    private static final Long NOT_FAST = Long.MIN_VALUE; // a sentinel no timestamp reaches (see parseFast)

    private Timestamps() {
    }

    /** Microseconds since the epoch, or null if the text is not a timestamp; a timestamp without a zone is UTC's. */
    public static Long parseMicros(String text, boolean withZone) {
        return parseMicros(text, withZone, ZoneOffset.UTC);
    }

    /**
     * Microseconds since the epoch, or null if the text is not a timestamp; a TIMESTAMP
     * ({@code withZone}) written without a zone is a wall-clock time of {@code sessionZone}.
     */
    public static Long parseMicros(String text, boolean withZone, ZoneId sessionZone) {
        Long fast = parseFast(text, withZone, sessionZone);
        if (fast != NOT_FAST) {
            return fast;
        }
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
            ZoneId zoneId = zone != null ? zone(zone) : withZone ? sessionZone : ZoneOffset.UTC;
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
     * The common form {@code yyyy-MM-dd[T ]HH:mm:ss[.fraction][Z]} read without the regex (the
     * same result as the general path); {@link #NOT_FAST} for any other text.
     */
    private static Long parseFast(String s, boolean withZone, ZoneId sessionZone) {
        int n = s.length();
        if (n < 19 || s.charAt(4) != '-' || s.charAt(7) != '-' || (s.charAt(10) != 'T' && s.charAt(10) != ' ')
                || s.charAt(13) != ':' || s.charAt(16) != ':') {
            return NOT_FAST;
        }
        int year = digits(s, 0, 4);
        int month = digits(s, 5, 2);
        int day = digits(s, 8, 2);
        int hour = digits(s, 11, 2);
        int minute = digits(s, 14, 2);
        int second = digits(s, 17, 2);
        if ((year | month | day | hour | minute | second) < 0) {
            return NOT_FAST;
        }
        int i = 19;
        long micros = 0;
        if (i < n && s.charAt(i) == '.') {
            i++;
            long scale = 100_000;
            while (i < n && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
                micros += (s.charAt(i) - '0') * scale;
                scale /= 10;
                i++;
            }
        }
        boolean utc = i == n - 1 && s.charAt(i) == 'Z';
        if (i != n && !utc) {
            return NOT_FAST;
        }
        if (utc && !withZone) {
            return null; // TIMESTAMP_NTZ takes no zone
        }
        if (month < 1 || month > 12 || day < 1 || day > monthLength(year, month) || hour > 23 || minute > 59 || second > 59) {
            return null; // what LocalDateTime.of refuses
        }
        long seconds = epochDay(year, month, day) * 86_400L + hour * 3_600L + minute * 60L + second;
        if (!utc && withZone && sessionZone != ZoneOffset.UTC) {
            seconds = sessionZone instanceof ZoneOffset o ? seconds - o.getTotalSeconds()
                    : LocalDateTime.ofEpochSecond(seconds, 0, ZoneOffset.UTC).atZone(sessionZone).toEpochSecond();
        }
        return seconds * 1_000_000L + micros;
    }

    private static boolean leap(int year) {
        return (year & 3) == 0 && (year % 100 != 0 || year % 400 == 0);
    }

    private static int monthLength(int year, int month) {
        return switch (month) {
            case 2 -> leap(year) ? 29 : 28;
            case 4, 6, 9, 11 -> 30;
            default -> 31;
        };
    }

    /** {@link LocalDate#toEpochDay()} for a valid date of a year 0 to 9999, without the object. */
    private static long epochDay(int year, int month, int day) {
        long y = year;
        long total = 365 * y + (y + 3) / 4 - (y + 99) / 100 + (y + 399) / 400 + (367 * month - 362) / 12 + day - 1;
        if (month > 2) {
            total -= leap(year) ? 1 : 2;
        }
        return total - 719_528; // days from 0000-01-01 to 1970-01-01
    }

    /** The value of {@code count} ASCII digits at {@code from}, or -1 if one is not a digit. */
    private static int digits(String s, int from, int count) {
        int v = 0;
        for (int i = from; i < from + count; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }

    /**
     * A zone as Spark's {@code getZoneId} reads it: {@link ZoneId#of} with the short ids
     * ({@code EST}, {@code PST}, ...), plus the {@code +h:mm} and {@code +hh:m} forms.
     */
    private static ZoneId zone(String z) {
        if (z.equals("Z")) {
            return ZoneOffset.UTC;
        }
        String s = ONE_DIGIT_HOUR.matcher(z.strip()).replaceFirst("$10$2:");
        s = ONE_DIGIT_MINUTE.matcher(s).replaceFirst("$1$2:0$3");
        return ZoneId.of(s, ZoneId.SHORT_IDS);
    }

    /**
     * The zone {@code id} names, as Spark reads {@code spark.sql.session.timeZone}: a region
     * ({@code America/New_York}), an offset ({@code +01:00}, {@code -08}, {@code +1:00}), {@code UTC}
     * or {@code Z}; a fixed zone becomes its {@link ZoneOffset} ({@code UTC} is {@link ZoneOffset#UTC}).
     *
     * @param setting the setting it comes from, for the message when it names no zone
     */
    public static ZoneId sessionZone(String id, String setting) {
        try {
            return zone(id.strip()).normalized();
        } catch (DateTimeException | NullPointerException e) {
            throw SchemaErrors.badTimeZone(setting, id);
        }
    }

    /** Days since the epoch, or null if the text is not a date ({@code yyyy[-m[m][-d[d]]]}, time part ignored as Spark does). */
    public static Integer parseDays(String text) {
        if (text.length() == 10 && text.charAt(4) == '-' && text.charAt(7) == '-') { // yyyy-MM-dd, without the regex
            int year = digits(text, 0, 4);
            int month = digits(text, 5, 2);
            int day = digits(text, 8, 2);
            if ((year | month | day) >= 0) {
                return month < 1 || month > 12 || day < 1 || day > monthLength(year, month) ? null : (int) epochDay(year, month, day);
            }
        }
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
        return format(micros, true);
    }

    /** As {@link #formatMicros} without the zone designator, for TIMESTAMP_NTZ. */
    public static String formatMicrosNtz(long micros) {
        return format(micros, false);
    }

    private static String format(long micros, boolean zone) {
        byte[] b = new byte[MAX_WRITTEN];
        int end = write(micros, zone, b, 0);
        if (end >= 0) {
            return new String(b, 0, end, StandardCharsets.ISO_8859_1);
        }
        long seconds = Math.floorDiv(micros, 1_000_000L);
        int micro = (int) Math.floorMod(micros, 1_000_000L);
        LocalDateTime t = LocalDateTime.ofEpochSecond(seconds, micro * 1000, ZoneOffset.UTC);
        String s = micro == 0 ? ISO_SECONDS.format(t) : ISO_MICROS.format(t); // a sign or a fifth digit
        return zone ? s : s.substring(0, s.length() - 1);
    }

    /** The most bytes {@link #write} writes. */
    static final int MAX_WRITTEN = 27;

    /**
     * Writes {@link #formatMicros} (or {@link #formatMicrosNtz} when {@code !zone}) as ASCII into
     * {@code b} at {@code at}, with room for {@link #MAX_WRITTEN} bytes; the index after it, or -1
     * (nothing written) for a year outside 0 to 9999. The date is {@link LocalDate#ofEpochDay}'s
     * arithmetic, without the objects.
     */
    static int write(long micros, boolean zone, byte[] b, int at) {
        long seconds = Math.floorDiv(micros, 1_000_000L);
        int micro = (int) Math.floorMod(micros, 1_000_000L);
        int secondOfDay = (int) Math.floorMod(seconds, 86_400L);
        if (writeDate(Math.floorDiv(seconds, 86_400L), b, at) < 0) {
            return -1;
        }
        b[at + 10] = 'T';
        put(b, at + 11, secondOfDay / 3600, 2);
        b[at + 13] = ':';
        put(b, at + 14, secondOfDay / 60 % 60, 2);
        b[at + 16] = ':';
        put(b, at + 17, secondOfDay % 60, 2);
        int end = at + 19;
        if (micro != 0) {
            b[end] = '.';
            put(b, end + 1, micro, 6);
            end += 7;
        }
        if (zone) {
            b[end++] = 'Z';
        }
        return end;
    }

    /**
     * Writes the date of {@code epochDay} as {@link LocalDate#toString} does, {@code yyyy-MM-dd}, into
     * {@code b} at {@code at}; the index after it, or -1 (nothing written) for a year outside 0 to 9999.
     */
    static int writeDate(long epochDay, byte[] b, int at) {
        long zeroDay = epochDay + 719_528 - 60; // from 0000-03-01, so that a leap day ends a four-year cycle
        if (zeroDay < 0) {
            return -1; // before 0000-03-01: the slow path decides (years below 0 have a sign)
        }
        long year = (400 * zeroDay + 591) / 146_097;
        long dayOfYear = zeroDay - (365 * year + year / 4 - year / 100 + year / 400);
        if (dayOfYear < 0) {
            year--;
            dayOfYear = zeroDay - (365 * year + year / 4 - year / 100 + year / 400);
        }
        int marchMonth0 = ((int) dayOfYear * 5 + 2) / 153;
        int month = (marchMonth0 + 2) % 12 + 1;
        int day = (int) dayOfYear - (marchMonth0 * 306 + 5) / 10 + 1;
        year += marchMonth0 / 10;
        if (year > 9999) {
            return -1;
        }
        put(b, at, (int) year, 4);
        b[at + 4] = '-';
        put(b, at + 5, month, 2);
        b[at + 7] = '-';
        put(b, at + 8, day, 2);
        return at + 10;
    }

    private static void put(byte[] b, int at, int value, int width) {
        for (int i = at + width - 1; i >= at; i--) {
            b[i] = (byte) ('0' + value % 10);
            value /= 10;
        }
    }

    /** {@link LocalDate#toString} of the day {@code days} after 1970-01-01. */
    public static String formatDays(int days) {
        byte[] b = new byte[10];
        return writeDate(days, b, 0) < 0 ? LocalDate.ofEpochDay(days).toString() : new String(b, StandardCharsets.ISO_8859_1);
    }
}
