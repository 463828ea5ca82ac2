package io.tributary.ingest.internal.format;

import io.tributary.schema.TimeTexts;
import io.tributary.schema.Timestamps;
import io.tributary.schema.TributaryException;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.ResolverStyle;
import java.time.temporal.ChronoUnit;
import java.time.temporal.TemporalAccessor;
import java.time.temporal.TemporalQueries;
import java.util.Locale;

/**
 * How an input file's text turns into TIMESTAMP, TIMESTAMP_NTZ and DATE values, as Spark's JSON and
 * CSV readers do: by default the lenient forms of {@link Timestamps} ({@link TimeTexts#of}); with Spark's
 * {@code timestampFormat}, {@code timestampNTZFormat} or {@code dateFormat} option, that pattern
 * only (Spark's datetime patterns: {@code yyyy-MM-dd HH:mm:ss}, {@code dd/MM/yyyy}, ...). A
 * pattern without a zone reads a wall-clock time of the session zone; one without a time reads
 * midnight.
 */
public final class TimeFormats implements TimeTexts {
    private final ZoneId zone;
    private final DateTimeFormatter timestamp;
    private final DateTimeFormatter timestampNtz;
    private final DateTimeFormatter date;
    private final String timestampPattern;
    private final String timestampNtzPattern;
    private final String datePattern;

    private TimeFormats(ZoneId zone, String timestampPattern, String timestampNtzPattern, String datePattern) {
        this.zone = zone;
        this.timestampPattern = timestampPattern;
        this.timestampNtzPattern = timestampNtzPattern;
        this.datePattern = datePattern;
        this.timestamp = formatter(timestampPattern, "timestampFormat");
        this.timestampNtz = formatter(timestampNtzPattern, "timestampNTZFormat");
        this.date = formatter(datePattern, "dateFormat");
    }

    /**
     * Readers of the given Spark patterns (null for the default of each).
     *
     * @throws TributaryException naming the option when a pattern is not one Java's formatter reads
     */
    public static TimeFormats of(ZoneId sessionZone, String timestampFormat, String timestampNtzFormat, String dateFormat) {
        return new TimeFormats(sessionZone, timestampFormat, timestampNtzFormat, dateFormat);
    }

    public ZoneId zone() {
        return zone;
    }

    /** True when every reader is the default one. */
    public boolean isDefault() {
        return timestamp == null && timestampNtz == null && date == null;
    }

    /** Microseconds since the epoch of a TIMESTAMP ({@code withZone}) or TIMESTAMP_NTZ, or null if the text is not one. */
    @Override
    public Long micros(String text, boolean withZone) {
        DateTimeFormatter f = withZone ? timestamp : timestampNtz;
        if (f == null) {
            return Timestamps.parseMicros(text, withZone, zone);
        }
        try {
            TemporalAccessor t = f.parse(text);
            LocalDate d = t.query(TemporalQueries.localDate());
            LocalTime time = t.query(TemporalQueries.localTime());
            LocalDateTime local = LocalDateTime.of(d == null ? LocalDate.EPOCH : d, time == null ? LocalTime.MIDNIGHT : time);
            if (!withZone) {
                return ChronoUnit.MICROS.between(LocalDateTime.of(1970, 1, 1, 0, 0), local);
            }
            ZoneId z = t.query(TemporalQueries.zone());
            Instant i = ZonedDateTime.of(local, z == null ? zone : z).toInstant();
            return Math.addExact(Math.multiplyExact(i.getEpochSecond(), 1_000_000L), i.getNano() / 1000L);
        } catch (DateTimeException | ArithmeticException e) {
            return null;
        }
    }

    /** Days since the epoch of a DATE, or null if the text is not one. */
    @Override
    public Integer days(String text) {
        if (date == null) {
            return Timestamps.parseDays(text);
        }
        try {
            LocalDate d = date.parse(text).query(TemporalQueries.localDate());
            return d == null ? null : Math.toIntExact(d.toEpochDay());
        } catch (DateTimeException | ArithmeticException e) {
            return null;
        }
    }

    /** What a TIMESTAMP (or TIMESTAMP_NTZ) text should look like, for an error message. */
    @Override
    public String expectedTimestamp(boolean withZone) {
        String p = withZone ? timestampPattern : timestampNtzPattern;
        return p == null ? "e.g. 2026-01-01T10:00:00Z or 2026-01-01 10:00:00" : (withZone ? "timestampFormat '" : "timestampNTZFormat '") + p + "'";
    }

    /** What a DATE text should look like, for an error message. */
    @Override
    public String expectedDate() {
        return datePattern == null ? "yyyy-MM-dd" : "dateFormat '" + datePattern + "'";
    }

    /**
     * A formatter of a Spark datetime pattern: case-insensitive, strict, {@code y} read as the
     * proleptic year as Spark reads it; null for no pattern.
     */
    private static DateTimeFormatter formatter(String pattern, String option) {
        if (pattern == null) {
            return null;
        }
        try {
            return new DateTimeFormatterBuilder().parseCaseInsensitive().appendPattern(yearAsProleptic(pattern))
                    .toFormatter(Locale.US).withResolverStyle(ResolverStyle.STRICT).withChronology(java.time.chrono.IsoChronology.INSTANCE);
        } catch (IllegalArgumentException e) {
            throw FormatErrors.badDatetimePattern(option, pattern, e.getMessage());
        }
    }

    /** {@code y} (year of era) as {@code u} (proleptic year) outside quoted text, as Spark's formatter does. */
    private static String yearAsProleptic(String pattern) {
        StringBuilder b = new StringBuilder(pattern.length());
        boolean quoted = false;
        for (char c : pattern.toCharArray()) {
            if (c == '\'') {
                quoted = !quoted;
            }
            b.append(!quoted && c == 'y' ? 'u' : c);
        }
        return b.toString();
    }

    @Override
    public String toString() {
        return "TimeFormats[" + zone + (timestampPattern == null ? "" : ", timestampFormat " + timestampPattern)
                + (datePattern == null ? "" : ", dateFormat " + datePattern) + "]";
    }
}
