package io.tributary.expressions.internal;

import static io.tributary.schema.DataType.DATE;
import static io.tributary.schema.DataType.INT;
import static io.tributary.schema.DataType.LONG;
import static io.tributary.schema.DataType.STRING;
import static io.tributary.schema.DataType.TIMESTAMP;

import io.tributary.schema.DataType;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoField;
import java.time.temporal.TemporalAccessor;
import java.time.temporal.TemporalQueries;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.IntUnaryOperator;

/** Spark's date and time functions, in the session time zone UTC; text reads as a date or timestamp as a cast does. */
final class DateFunctions {
    private static final String DEFAULT_FORMAT = "yyyy-MM-dd HH:mm:ss";

    private DateFunctions() {
    }

    /**
     * Spark 4.2 refuses to_timestamp of a number with a pattern as it analyses the query, with INTERNAL_ERROR (its replacement,
     * {@code gettimestamp}, takes no number and stays unresolved); so does Tributary, at start.
     */
    private static List<Bound> numberNotParsed(Analyzer.Call call, List<Bound> args) {
        Bound x = args.get(0);
        if (x.type() != null && Types.numeric(x.type())) {
            throw call.typeError("[INTERNAL_ERROR] " + call.name() + " of a number with a pattern is refused, as Spark 4.2 refuses it ('"
                    + x.text() + "' is " + Types.name(x.type()) + "); read it as text: " + call.name() + "(CAST(" + x.text() + " AS STRING), ...)");
        }
        return args;
    }

    private static FunctionDef datePart(String name, String doc, IntUnaryOperator part) {
        return Fn.unary(name, doc, DATE, INT, v -> part.applyAsInt((Integer) v));
    }

    private static FunctionDef timePart(String name, String doc, ChronoField field) {
        return Fn.unary(name, doc, TIMESTAMP, INT, v -> Dates.dateTime((Long) v).get(field));
    }

    static void register(Consumer<FunctionDef> add) {
        add.accept(datePart("year", "the year", d -> Dates.date(d).getYear()));
        add.accept(datePart("quarter", "the quarter of the year, 1 to 4", d -> (Dates.date(d).getMonthValue() + 2) / 3));
        add.accept(datePart("month", "the month, 1 to 12", d -> Dates.date(d).getMonthValue()));
        FunctionDef day = datePart("day", "the day of the month", d -> Dates.date(d).getDayOfMonth());
        add.accept(day);
        add.accept(Fn.alias("dayofmonth", day));
        add.accept(datePart("dayofweek", "the day of the week, 1 (Sunday) to 7 (Saturday)", Dates::dayOfWeek));
        add.accept(datePart("weekday", "the day of the week, 0 (Monday) to 6 (Sunday)", Dates::weekday));
        add.accept(datePart("dayofyear", "the day of the year, 1 to 366", d -> Dates.date(d).getDayOfYear()));
        add.accept(timePart("hour", "the hour, 0 to 23", ChronoField.HOUR_OF_DAY));
        add.accept(timePart("minute", "the minute, 0 to 59", ChronoField.MINUTE_OF_HOUR));
        add.accept(timePart("second", "the second, 0 to 59", ChronoField.SECOND_OF_MINUTE));
        add.accept(Fn.custom("to_date", 1, 2, "to_date(x[, fmt STRING]) → DATE", FunctionDef.NULL_IN_NULL_OUT,
                "x as a date: a cast (a number or a boolean as its text), or text read with the datetime pattern fmt",
                (call, args) -> args.size() == 1 ? call.as(asText(call, args.get(0)), DATE) : parsed(call, args, DATE)));
        add.accept(Fn.custom("to_timestamp", 1, 2, "to_timestamp(x[, fmt STRING]) → TIMESTAMP", FunctionDef.NULL_IN_NULL_OUT,
                "x as a timestamp: a cast (a number as seconds since the epoch), or text read with the datetime pattern fmt;"
                        + " a number with fmt is refused at start, as Spark 4.2 refuses it (INTERNAL_ERROR)",
                (call, args) -> args.size() == 1 ? Types.numeric(args.get(0).type()) ? call.castTo(args.get(0), TIMESTAMP)
                        : call.as(args.get(0), TIMESTAMP) : parsed(call, numberNotParsed(call, args), TIMESTAMP)));
        add.accept(smallDays(Fn.binary("date_add", "the date days later", DATE, INT, DATE, (d, n) -> Dates.addDays((Integer) d, (Integer) n))));
        add.accept(smallDays(Fn.binary("date_sub", "the date days earlier", DATE, INT, DATE, (d, n) -> Dates.addDays((Integer) d, -(Integer) n))));
        add.accept(Fn.binary("datediff", "the days from start to end", DATE, DATE, INT, (end, start) -> (Integer) end - (Integer) start));
        add.accept(Fn.binary("add_months", "the date months later (the day cut to the month's end)", DATE, INT, DATE,
                (d, n) -> Dates.addMonths((Integer) d, (Integer) n)));
        add.accept(Fn.unary("last_day", "the last day of the date's month", DATE, DATE, d -> Dates.lastDay((Integer) d)));
        add.accept(Fn.fixed("make_date", "the date of year, month and day; DATETIME_FIELD_OUT_OF_BOUNDS for one that does not exist", DATE,
                List.of(INT, INT, INT), a -> Dates.makeDate((Integer) a[0], (Integer) a[1], (Integer) a[2])));
        add.accept(unitFirst(Fn.binary("date_trunc", "the timestamp truncated to unit (year, quarter, month, week, day, hour, minute, second, "
                + "millisecond, microsecond); null for another unit", STRING, TIMESTAMP, TIMESTAMP,
                (u, t) -> Dates.truncate((String) u, (Long) t)), 0, u -> Dates.truncate(u, 0L) != null));
        add.accept(unitFirst(Fn.binary("trunc", "the date truncated to unit (year, quarter, month, week); null for another unit", DATE, STRING, DATE,
                (d, u) -> Dates.truncateDate((String) u, (Integer) d)), 1, u -> Dates.truncateDate(u, 0) != null));
        add.accept(Fn.custom("unix_timestamp", 1, 2, "unix_timestamp(x[, fmt STRING]) → BIGINT", FunctionDef.NULL_IN_NULL_OUT,
                "the seconds since 1970-01-01T00:00Z of x (text read with fmt, yyyy-MM-dd HH:mm:ss by default)", DateFunctions::unixTimestamp));
        add.accept(Fn.fixed("from_unixtime", "the seconds since the epoch as text in fmt (yyyy-MM-dd HH:mm:ss by default)", STRING, 1,
                List.of(LONG, STRING), List.of(DEFAULT_FORMAT), a -> format((String) a[1], (Long) a[0] * Dates.MICROS_PER_SECOND)));
        add.accept(Fn.binary("date_format", "the timestamp as text in the datetime pattern fmt", TIMESTAMP, STRING, STRING,
                (t, f) -> format((String) f, (Long) t)));
        FunctionDef unixDate = Fn.unary("unix_date", "the days since 1970-01-01", DATE, INT, d -> d);
        add.accept(Fn.custom("unix_date", 1, 1, unixDate.signature(), unixDate.nulls(), unixDate.doc(), (call, args) -> {
            DataType t = args.get(0).type();
            if (t != null && !Types.is(t, DataType.Kind.DATE)) { // Spark's UnixDate expects a DATE and casts nothing to it
                throw call.typeError("[DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE] unix_date needs a DATE, and '" + args.get(0).text() + "' is "
                        + Types.name(t) + "; cast it: CAST(" + args.get(0).text() + " AS DATE)");
            }
            return unixDate.resolver().resolve(call, args);
        }));
        add.accept(timestampOnly(Fn.unary("unix_seconds", "the whole seconds since the epoch", TIMESTAMP, LONG,
                t -> Math.floorDiv((Long) t, Dates.MICROS_PER_SECOND))));
        add.accept(timestampOnly(Fn.unary("unix_micros", "the microseconds since the epoch", TIMESTAMP, LONG, t -> t)));
        add.accept(Fn.custom("timestamp_seconds", 1, 1, "timestamp_seconds(n NUMERIC) → TIMESTAMP", FunctionDef.NULL_IN_NULL_OUT,
                "the timestamp that many seconds after the epoch (a fraction's microseconds cut toward zero; null for NaN and infinity)",
                DateFunctions::timestampSeconds));
        add.accept(Fn.unary("date_from_unix_date", "the date that many days after 1970-01-01", INT, DATE, d -> d));
    }

    /** A timestamp as text in a datetime pattern, at the session's zone UTC (an offset as Z, +00, a zone as UTC). */
    private static String format(String pattern, long micros) {
        checkPattern(pattern, false);
        return formatter(pattern).format(Dates.dateTime(micros).atZone(UTC));
    }

    /**
     * Spark's refusals of a datetime pattern as it evaluates (its DateTimeFormatterHelper): a week-based letter (Y W w u e c)
     * outside quotes, a letter it does not support (A n N p), and, when reading text, a day of week or quarter (E F q Q).
     */
    static void checkPattern(String pattern, boolean parsing) {
        String[] parts = (pattern + " ").split("'", -1);
        for (int i = 0; i < parts.length; i += 2) {
            for (char c : parts[i].toCharArray()) {
                if ("YWwuec".indexOf(c) >= 0) {
                    throw Failure.of("INCONSISTENT_BEHAVIOR_CROSS_VERSION.DATETIME_WEEK_BASED_PATTERN",
                            "week-based pattern letters are not supported, and '" + pattern + "' has " + c + ": use EXTRACT");
                }
            }
            for (char c : parts[i].toCharArray()) {
                if ("AnNp".indexOf(c) >= 0 || parsing && "EFqQ".indexOf(c) >= 0) {
                    throw Failure.of("INVALID_DATETIME_PATTERN.ILLEGAL_CHARACTER", "'" + pattern + "' has the illegal pattern character " + c);
                }
            }
        }
    }

    private static final ZoneId UTC = ZoneId.of("UTC");

    static DateTimeFormatter formatter(String pattern) {
        return formatter(pattern, Locale.US);
    }

    /** A pattern's formatter that reads names in any case ({@code JANV.}), as Spark's formatters of the readers' options do. */
    private static DateTimeFormatter caseInsensitive(String pattern, Locale locale) {
        try {
            return new java.time.format.DateTimeFormatterBuilder().parseCaseInsensitive().appendPattern(proleptic(pattern)).toFormatter(locale);
        } catch (IllegalArgumentException e) {
            throw Failure.of("INVALID_DATETIME_PATTERN", "'" + pattern + "' is not a datetime pattern: " + e.getMessage());
        }
    }

    /** A datetime pattern's formatter, its month and day names in {@code locale}. */
    static DateTimeFormatter formatter(String pattern, Locale locale) {
        try {
            return DateTimeFormatter.ofPattern(proleptic(pattern), locale);
        } catch (IllegalArgumentException e) {
            throw Failure.of("INVALID_DATETIME_PATTERN", "'" + pattern + "' is not a datetime pattern: " + e.getMessage());
        }
    }

    /** A pattern without an era (G) reads and writes y as the proleptic year (-0001, not 0002 BC), as Spark's formatters. */
    private static String proleptic(String pattern) {
        if (pattern.indexOf('G') >= 0 || pattern.indexOf('y') < 0) {
            return pattern;
        }
        StringBuilder sb = new StringBuilder(pattern.length());
        boolean quoted = false;
        for (char c : pattern.toCharArray()) {
            quoted ^= c == '\'';
            sb.append(!quoted && c == 'y' ? 'u' : c);
        }
        return sb.toString();
    }

    static Object parse(String text, String pattern, DataType to) {
        return parse(text, pattern, to, null, Locale.US);
    }

    /**
     * Text read by a datetime pattern in {@code locale} (month and day names); with a {@code zone} names in any case and a
     * TIMESTAMP at the offset or zone the text gives, else in {@code zone}, as Spark's formatters read it (a time in a gap
     * moves forward by the gap); with no zone (null) a TIMESTAMP is the wall-clock time at UTC, the text's offset not read.
     */
    static Object parse(String text, String pattern, DataType to, ZoneId zone, Locale locale) {
        try {
            TemporalAccessor t = (zone == null ? formatter(pattern, locale) : caseInsensitive(pattern, locale)).parse(text);
            int year = t.isSupported(ChronoField.YEAR) ? t.get(ChronoField.YEAR) : t.isSupported(ChronoField.YEAR_OF_ERA)
                    ? t.get(ChronoField.YEAR_OF_ERA) : 1970;
            LocalDate date = !t.isSupported(ChronoField.MONTH_OF_YEAR) && t.isSupported(ChronoField.DAY_OF_YEAR)
                    ? LocalDate.ofYearDay(year, t.get(ChronoField.DAY_OF_YEAR)) // a day of the year (D) alone, as Spark reads it
                    : LocalDate.of(year, t.isSupported(ChronoField.MONTH_OF_YEAR) ? t.get(ChronoField.MONTH_OF_YEAR) : 1,
                    t.isSupported(ChronoField.DAY_OF_MONTH) ? t.get(ChronoField.DAY_OF_MONTH) : 1);
            if (to.kind() == DataType.Kind.DATE) {
                return (int) date.toEpochDay();
            }
            LocalDateTime dt = date.atTime(t.isSupported(ChronoField.HOUR_OF_DAY) ? t.get(ChronoField.HOUR_OF_DAY) : 0,
                    t.isSupported(ChronoField.MINUTE_OF_HOUR) ? t.get(ChronoField.MINUTE_OF_HOUR) : 0,
                    t.isSupported(ChronoField.SECOND_OF_MINUTE) ? t.get(ChronoField.SECOND_OF_MINUTE) : 0,
                    t.isSupported(ChronoField.NANO_OF_SECOND) ? t.get(ChronoField.NANO_OF_SECOND) : 0);
            if (zone == null || to.kind() != DataType.Kind.TIMESTAMP) {
                return Dates.micros(dt);
            }
            ZoneId given = t.query(TemporalQueries.zone());
            Instant instant = ZonedDateTime.of(dt, given != null ? given : zone).toInstant();
            return Math.addExact(Math.multiplyExact(instant.getEpochSecond(), Dates.MICROS_PER_SECOND), instant.getNano() / 1000);
        } catch (java.time.DateTimeException e) {
            throw Failure.of("CANNOT_PARSE_TIMESTAMP", "'" + text + "' does not match the pattern '" + pattern + "'");
        }
    }

    /** {@code def}, its argument a TIMESTAMP and nothing cast to one, as Spark's UnixSeconds and UnixMicros expect it. */
    /**
     * Spark's {@code TypeCollection(INT, SMALLINT, TINYINT)} of the days: a number of another type is refused
     * ({@code date_add(dt, 2L)}, {@code date_add(dt, 1.5)}), where a function that expects an INT casts any number to it.
     */
    private static FunctionDef smallDays(FunctionDef def) {
        return Fn.custom(def.name(), def.minArgs(), def.maxArgs(), def.signature(), def.nulls(), def.doc(), (call, args) -> {
            DataType n = args.get(1).type();
            if (Types.numeric(n) && !Types.is(n, DataType.Kind.INT) && !Types.is(n, DataType.Kind.SHORT) && !Types.is(n, DataType.Kind.BYTE)) {
                String x = args.get(1).text();
                throw call.typeError("'" + x + "' is " + Types.name(n) + " where INT is expected (" + def.name() + " takes an INT, SMALLINT or TINYINT);"
                        + " cast it: CAST(" + x + " AS INT)");
            }
            return def.resolver().resolve(call, args);
        });
    }

    /**
     * A number or a boolean as its text: Spark's {@code to_date} takes STRING, DATE, TIMESTAMP or TIMESTAMP_NTZ, and its ANSI
     * coercion casts another atomic value to the first of them ({@code to_date(12.34)} reads '12.34').
     */
    private static Bound asText(Analyzer.Call call, Bound x) {
        return Types.numeric(x.type()) || Types.is(x.type(), DataType.Kind.BOOLEAN) ? call.as(x, STRING) : x;
    }

    private static FunctionDef timestampOnly(FunctionDef def) {
        return Fn.custom(def.name(), def.minArgs(), def.maxArgs(), def.signature(), def.nulls(), def.doc(), (call, args) -> {
            Bound t = args.get(0);
            if (t.type() != null && !Types.is(t.type(), DataType.Kind.TIMESTAMP)) {
                throw call.typeError("'" + t.text() + "' is " + Types.name(t.type()) + ", and " + def.name() + " needs a TIMESTAMP");
            }
            return def.resolver().resolve(call, args);
        });
    }

    /**
     * {@code def}, except that a constant unit it does not know gives null without the other argument evaluated, as Spark's
     * TruncInstant reads its unit first (a failing timestamp does not fail the row).
     */
    private static FunctionDef unitFirst(FunctionDef def, int unit, java.util.function.Predicate<String> known) {
        return Fn.custom(def.name(), def.minArgs(), def.maxArgs(), def.signature(), def.nulls(), def.doc(), (call, args) -> {
            Bound resolved = def.resolver().resolve(call, args);
            if (args.get(unit) instanceof Bound.Literal lit && lit.value() instanceof String u && !known.test(u)) {
                return call.apply(List.of(args.get(unit)), resolved.type(), (Kernel.Unary) v -> null);
            }
            return resolved;
        });
    }

    /** Spark's SecondsToTimestamp: whole seconds exactly, a DECIMAL's microseconds exactly, a DOUBLE's cut toward zero and held to the BIGINT range. */
    private static Bound timestampSeconds(Analyzer.Call call, List<Bound> args) {
        Bound x = args.get(0);
        DataType t = x.type();
        if (t != null && Types.isDecimal(t)) {
            return call.apply(List.of(x), TIMESTAMP, (Kernel.Unary) v -> {
                try {
                    return ((java.math.BigDecimal) v).movePointRight(6).longValueExact();
                } catch (ArithmeticException e) {
                    throw Failure.bareArithmetic("Overflow");
                }
            });
        }
        if (t != null && (t.kind() == DataType.Kind.DOUBLE || t.kind() == DataType.Kind.FLOAT)) {
            return call.apply(List.of(x), TIMESTAMP, (Kernel.Unary) v -> {
                double d = ((Number) v).doubleValue();
                if (Double.isNaN(d) || Double.isInfinite(d)) {
                    return null;
                }
                return (long) (d * Dates.MICROS_PER_SECOND); // saturating at the BIGINT range, as Spark's toLong
            });
        }
        return call.apply(List.of(call.as(x, LONG)), TIMESTAMP, (Kernel.Unary) s -> {
            try {
                return Math.multiplyExact((Long) s, Dates.MICROS_PER_SECOND);
            } catch (ArithmeticException e) {
                throw Failure.bareArithmetic("long overflow");
            }
        });
    }

    static Bound parsed(Analyzer.Call call, List<Bound> args, DataType to) {
        DataType from = args.get(0).type();
        if (from != null && (from.kind() == DataType.Kind.DATE || from.kind() == DataType.Kind.TIMESTAMP || from.kind() == DataType.Kind.TIMESTAMP_NTZ)) {
            call.as(args.get(1), STRING);
            return call.as(args.get(0), to); // Spark's GetTimestamp takes a date or timestamp as it is, the pattern unread
        }
        List<Bound> cast = List.of(call.as(args.get(0), STRING), call.as(args.get(1), STRING));
        return call.apply(cast, to, (Kernel.Binary) (s, f) -> {
            checkPattern((String) f, true);
            return parse((String) s, (String) f, to);
        });
    }

    private static Bound unixTimestamp(Analyzer.Call call, List<Bound> args) {
        Bound x = args.get(0);
        Bound time;
        if (args.size() == 1 && !Types.is(x.type(), DataType.Kind.STRING)) {
            time = call.as(x, TIMESTAMP);
        } else {
            Bound fmt = args.size() > 1 ? args.get(1) : new Bound.Literal(DEFAULT_FORMAT, STRING, "'" + DEFAULT_FORMAT + "'");
            time = Types.is(x.type(), DataType.Kind.STRING) || x.type() == null ? parsed(call, List.of(x, fmt), TIMESTAMP) : call.as(x, TIMESTAMP);
        }
        return call.apply(List.of(time), LONG, (Kernel.Unary) t -> (Long) t / Dates.MICROS_PER_SECOND); // toward zero, as Spark
    }
}
