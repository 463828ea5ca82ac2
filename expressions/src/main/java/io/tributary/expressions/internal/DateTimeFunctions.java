package io.tributary.expressions.internal;

import static io.tributary.schema.DataType.BOOLEAN;
import static io.tributary.schema.DataType.DATE;
import static io.tributary.schema.DataType.DOUBLE;
import static io.tributary.schema.DataType.INT;
import static io.tributary.schema.DataType.LONG;
import static io.tributary.schema.DataType.STRING;
import static io.tributary.schema.DataType.TIMESTAMP;

import io.tributary.schema.DataType;
import java.math.BigDecimal;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.TextStyle;
import java.time.temporal.IsoFields;
import java.time.temporal.TemporalAdjusters;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * Spark's date and time functions beyond {@link DateFunctions}: months_between, next_day, names of days and months, ISO
 * weeks, date_part and EXTRACT, and the epoch conversions in milliseconds; in the session time zone UTC.
 */
final class DateTimeFunctions {
    private static final DataType SECOND_WITH_FRACTION = DataType.decimal(8, 6);

    private DateTimeFunctions() {
    }

    static void register(Consumer<FunctionDef> add) {
        add.accept(Fn.fixed("months_between", "the months from t2 to t1: whole when the days of month are equal or both last days,"
                        + " else with the difference of the times over months of 31 days; rounded to 8 digits unless roundOff is false",
                DOUBLE, 2, List.of(TIMESTAMP, TIMESTAMP, BOOLEAN), List.of(true),
                a -> monthsBetween((Long) a[0], (Long) a[1], (Boolean) a[2])));
        add.accept(Fn.binary("next_day", "the first date after the date that falls on the day of the week (MO, MON, MONDAY ..., any case);"
                + " ILLEGAL_DAY_OF_WEEK for another text", DATE, STRING, DATE, (d, w) -> nextDay((Integer) d, (String) w)));
        add.accept(ofDate("dayname", "the day of the week's three-letter English name (Mon ... Sun)", STRING,
                d -> d.getDayOfWeek().getDisplayName(TextStyle.SHORT, Locale.US)));
        add.accept(ofDate("monthname", "the month's three-letter English name (Jan ... Dec)", STRING,
                d -> d.getMonth().getDisplayName(TextStyle.SHORT, Locale.US)));
        add.accept(ofDate("weekofyear", "the ISO 8601 week of the year, 1 to 53 (weeks start on Monday; week 1 holds the first Thursday)",
                INT, d -> d.get(IsoFields.WEEK_OF_WEEK_BASED_YEAR)));
        FunctionDef datePart = Fn.custom("date_part", 2, 2, "date_part(field STRING, source) → INT, TINYINT or DECIMAL(8,6)",
                FunctionDef.NULL_IN_NULL_OUT, "the field of a date or timestamp (also EXTRACT(field FROM source)): YEAR, YEAROFWEEK,"
                        + " QUARTER, MONTH, WEEK, DAY, DAYOFWEEK (DOW), DAYOFWEEK_ISO, DOY, HOUR, MINUTE (INT), SECOND with its fraction"
                        + " (DECIMAL(8,6)), and Spark's abbreviations; of an interval: YEAR (INT), MONTH (TINYINT) of a year-month one,"
                        + " DAY (INT), HOUR, MINUTE (TINYINT), SECOND (DECIMAL(8,6)) of a day-time one whose type holds the field;"
                        + " field is a text literal, INVALID_EXTRACT_FIELD for another",
                DateTimeFunctions::datePart);
        add.accept(datePart);
        add.accept(Fn.alias("datepart", datePart));
        add.accept(Fn.alias("dateadd", FunctionRegistry.get("date_add")));
        add.accept(Fn.alias("date_diff", FunctionRegistry.get("datediff")));
        add.accept(Fn.alias("to_unix_timestamp", FunctionRegistry.get("unix_timestamp")));
        add.accept(Fn.custom("timestamp_millis", 1, 1, "timestamp_millis(BIGINT) → TIMESTAMP", FunctionDef.NULL_IN_NULL_OUT,
                "the timestamp that many milliseconds after the epoch; Spark's bare ArithmeticException past the type's range",
                (call, args) -> call.apply(List.of(integral(call, args.get(0))), TIMESTAMP, (Kernel.Unary) ms -> {
                    try {
                        return Math.multiplyExact((Long) ms, 1000L);
                    } catch (ArithmeticException e) {
                        throw Failure.bareArithmetic("long overflow");
                    }
                })));
        add.accept(Fn.custom("timestamp_micros", 1, 1, "timestamp_micros(BIGINT) → TIMESTAMP", FunctionDef.NULL_IN_NULL_OUT,
                "the timestamp that many microseconds after the epoch",
                (call, args) -> call.apply(List.of(integral(call, args.get(0))), TIMESTAMP, (Kernel.Unary) us -> us)));
        add.accept(Fn.custom("unix_millis", 1, 1, "unix_millis(TIMESTAMP) → BIGINT", FunctionDef.NULL_IN_NULL_OUT,
                "the whole milliseconds since the epoch (rounded down)", (call, args) -> {
                    Bound t = args.get(0);
                    if (t.type() != null && !Types.is(t.type(), DataType.Kind.TIMESTAMP)) {
                        throw call.typeError("'" + t.text() + "' is " + Types.name(t.type()) + ", and unix_millis needs a TIMESTAMP");
                    }
                    return call.apply(List.of(call.as(t, TIMESTAMP)), LONG, (Kernel.Unary) us -> Math.floorDiv((Long) us, 1000L));
                }));
    }

    /** A whole number as BIGINT; a type error naming the function for another type, as Spark refuses text and fractions. */
    private static Bound integral(Analyzer.Call call, Bound x) {
        if (x.type() != null && !Types.integral(x.type())) {
            throw call.typeError("'" + x.text() + "' is " + Types.name(x.type()) + ", and " + call.name() + " needs a whole number");
        }
        return call.as(x, LONG);
    }

    /** Spark's {@code DateTimeUtils.monthsBetween} in UTC. */
    static double monthsBetween(long micros1, long micros2, boolean roundOff) {
        LocalDateTime t1 = Dates.dateTime(micros1);
        LocalDateTime t2 = Dates.dateTime(micros2);
        LocalDate d1 = t1.toLocalDate();
        LocalDate d2 = t2.toLocalDate();
        double monthDiff = (d1.getYear() * 12L + d1.getMonthValue()) - (d2.getYear() * 12L + d2.getMonthValue());
        boolean bothLast = d1.getDayOfMonth() == d1.lengthOfMonth() && d2.getDayOfMonth() == d2.lengthOfMonth();
        if (d1.getDayOfMonth() == d2.getDayOfMonth() || bothLast) {
            return monthDiff;
        }
        try { // Spark reads the times of day from each day's start in microseconds, which fails past the range (Long.MIN_VALUE's day)
            Math.multiplyExact(d1.toEpochDay(), Dates.MICROS_PER_DAY);
            Math.multiplyExact(d2.toEpochDay(), Dates.MICROS_PER_DAY);
        } catch (ArithmeticException e) {
            throw Failure.bareArithmetic("long overflow");
        }
        long seconds1 = t1.toLocalTime().toSecondOfDay();
        long seconds2 = t2.toLocalTime().toSecondOfDay();
        long secondsDiff = (d1.getDayOfMonth() - d2.getDayOfMonth()) * 86_400L + seconds1 - seconds2;
        double diff = monthDiff + secondsDiff / (31 * 86_400.0);
        return roundOff ? Math.round(diff * 1e8) / 1e8 : diff;
    }

    static int nextDay(int days, String dayOfWeek) {
        DayOfWeek dow = switch (dayOfWeek.toUpperCase(Locale.ROOT)) {
            case "MO", "MON", "MONDAY" -> DayOfWeek.MONDAY;
            case "TU", "TUE", "TUESDAY" -> DayOfWeek.TUESDAY;
            case "WE", "WED", "WEDNESDAY" -> DayOfWeek.WEDNESDAY;
            case "TH", "THU", "THURSDAY" -> DayOfWeek.THURSDAY;
            case "FR", "FRI", "FRIDAY" -> DayOfWeek.FRIDAY;
            case "SA", "SAT", "SATURDAY" -> DayOfWeek.SATURDAY;
            case "SU", "SUN", "SUNDAY" -> DayOfWeek.SUNDAY;
            default -> throw Failure.of("ILLEGAL_DAY_OF_WEEK", "'" + dayOfWeek + "' is not a day of the week (MO, MON, MONDAY ...)");
        };
        return (int) Dates.date(days).with(TemporalAdjusters.next(dow)).toEpochDay();
    }

    private static Bound datePart(Analyzer.Call call, List<Bound> args) {
        if (!(args.get(0) instanceof Bound.Literal field)) {
            throw call.typeError("the field of " + call.name() + " must be a text literal such as 'YEAR', and '" + args.get(0).text() + "' is not");
        }
        Bound source = args.get(1);
        if (field.value() == null) {
            return new Bound.Literal(null, DOUBLE, call.text());
        }
        if (Intervals.isInterval(source.type())) {
            return IntervalParts.extract(call, field.value().toString(), source);
        }
        if (CalendarIntervals.isCalendar(source.type())) {
            return CalendarIntervals.extract(call, field.value().toString(), source);
        }
        String name = field.value().toString().toUpperCase(Locale.ROOT);
        return switch (name) {
            case "YEAR", "Y", "YEARS", "YR", "YRS" -> onDate(call, source, d -> d.getYear());
            case "YEAROFWEEK" -> onDate(call, source, d -> d.get(IsoFields.WEEK_BASED_YEAR));
            case "QUARTER", "QTR" -> onDate(call, source, d -> (d.getMonthValue() + 2) / 3);
            case "MONTH", "MON", "MONS", "MONTHS" -> onDate(call, source, LocalDate::getMonthValue);
            case "WEEK", "W", "WEEKS" -> onDate(call, source, d -> d.get(IsoFields.WEEK_OF_WEEK_BASED_YEAR));
            case "DAY", "D", "DAYS" -> onDate(call, source, LocalDate::getDayOfMonth);
            case "DAYOFWEEK", "DOW" -> onDate(call, source, d -> d.getDayOfWeek().getValue() % 7 + 1);
            case "DAYOFWEEK_ISO", "DOW_ISO" -> onDate(call, source, d -> d.getDayOfWeek().getValue());
            case "DOY" -> onDate(call, source, LocalDate::getDayOfYear);
            case "HOUR", "H", "HOURS", "HR", "HRS" -> onTime(call, source, LocalDateTime::getHour);
            case "MINUTE", "M", "MIN", "MINS", "MINUTES" -> onTime(call, source, LocalDateTime::getMinute);
            case "SECOND", "S", "SEC", "SECONDS", "SECS" -> call.apply(List.of(as(call, source, TIMESTAMP)), SECOND_WITH_FRACTION,
                    (Kernel.Unary) t -> secondWithFraction((Long) t));
            default -> throw call.typeError("INVALID_EXTRACT_FIELD: '" + field.value() + "' is not a field " + call.name()
                    + " takes (YEAR, QUARTER, MONTH, WEEK, DAY, DAYOFWEEK, DOY, HOUR, MINUTE, SECOND ...)");
        };
    }

    private interface DatePart {
        Object of(LocalDate d);
    }

    private interface TimePart {
        int of(LocalDateTime t);
    }

    /** A function of a date (a timestamp's date, text read as one), null in, null out. */
    private static FunctionDef ofDate(String name, String doc, DataType result, DatePart part) {
        return Fn.custom(name, 1, 1, name + "(DATE) → " + result.ddl(), FunctionDef.NULL_IN_NULL_OUT, doc,
                (call, args) -> onDate(call, args.get(0), result, part));
    }

    private static Bound onDate(Analyzer.Call call, Bound source, DataType result, DatePart part) {
        return call.apply(List.of(as(call, source, DATE)), result, (Kernel.Unary) d -> part.of(Dates.date((Integer) d)));
    }

    private static Bound onDate(Analyzer.Call call, Bound source, DatePart part) {
        return onDate(call, source, INT, part);
    }

    private static Bound onTime(Analyzer.Call call, Bound source, TimePart part) {
        return call.apply(List.of(as(call, source, TIMESTAMP)), INT, (Kernel.Unary) t -> part.of(Dates.dateTime((Long) t)));
    }

    /** {@code x} as {@code type}; a TIMESTAMP_NTZ by its wall-clock time, as Spark reads one in these functions. */
    private static Bound as(Analyzer.Call call, Bound x, DataType type) {
        return Types.is(x.type(), DataType.Kind.TIMESTAMP_NTZ) ? call.castTo(x, type) : call.as(x, type);
    }

    private static BigDecimal secondWithFraction(long micros) {
        LocalDateTime t = Dates.dateTime(micros);
        return BigDecimal.valueOf(t.getSecond() * Dates.MICROS_PER_SECOND + t.getNano() / 1000, 6);
    }
}
