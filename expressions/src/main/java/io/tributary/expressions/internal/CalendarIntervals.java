package io.tributary.expressions.internal;

import io.tributary.schema.DataType;
import io.tributary.schema.DataType.Kind;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * Spark's legacy {@code CALENDAR INTERVAL} (SQL type {@code INTERVAL}) as far as expressions use it: made by
 * {@code make_interval} and {@code try_make_interval} or cast from text, a {@link CalendarInterval} of months, days and
 * microseconds. Like the ANSI intervals it lives inside an expression: a table cannot hold one, so a select item of this type
 * is refused. The type is marked in {@link DataType}'s record by a BINARY of precision -3, which no column has.
 */
public final class CalendarIntervals {
    /** The CALENDAR INTERVAL type. */
    public static final DataType TYPE = new DataType(Kind.BINARY, -3, 0, null, null);
    private static final DataType SECONDS = DataType.decimal(18, 6);
    private static final DataType PART_SECONDS = DataType.decimal(8, 6);

    private CalendarIntervals() {
    }

    public static boolean isCalendar(DataType t) {
        return TYPE.equals(t);
    }

    /** Whether {@code t} is a CALENDAR INTERVAL or holds one (an array, map or struct of them). */
    public static boolean holdsCalendar(DataType t) {
        return Types.holds(t, CalendarIntervals::isCalendar);
    }

    static void register(Consumer<FunctionDef> add) {
        String params = "years INT[, months INT[, weeks INT[, days INT[, hours INT[, mins INT[, secs DECIMAL(18,6)]]]]]]";
        add.accept(Fn.custom("make_interval", 0, 7, "make_interval([" + params + "]) → INTERVAL", FunctionDef.NULL_IN_NULL_OUT,
                "Spark's CALENDAR INTERVAL of months (years and months), days (weeks and days) and microseconds (hours, minutes and"
                        + " seconds), 0 for those left out; ARITHMETIC_OVERFLOW past a field's range",
                (call, args) -> make(call, args, true)));
        add.accept(Fn.custom("try_make_interval", 1, 7, "try_make_interval(" + params + ") → INTERVAL", "null if any argument is null or a field overflows",
                "make_interval, or null where it overflows", (call, args) -> make(call, args, false)));
    }

    private static Bound make(Analyzer.Call call, List<Bound> args, boolean fail) {
        List<Bound> cast = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            DataType t = i == 6 ? SECONDS : DataType.INT;
            Bound b = i < args.size() ? args.get(i) : new Bound.Literal(i == 6 ? BigDecimal.ZERO.setScale(6) : (Object) 0, t, "0");
            cast.add(Types.numeric(b.type()) ? call.castTo(b, t) : call.as(b, t));
        }
        return call.apply(cast, TYPE, (Kernel) a -> {
            try {
                int months = Math.addExact((Integer) a[1], Math.multiplyExact((Integer) a[0], 12));
                int days = Math.addExact((Integer) a[3], Math.multiplyExact((Integer) a[2], 7));
                long micros = ((BigDecimal) a[6]).unscaledValue().longValueExact();
                micros = Math.addExact(micros, Math.multiplyExact((long) (Integer) a[4], CalendarInterval.MICROS_PER_HOUR));
                micros = Math.addExact(micros, Math.multiplyExact((long) (Integer) a[5], CalendarInterval.MICROS_PER_MINUTE));
                return new CalendarInterval(months, days, micros);
            } catch (ArithmeticException e) {
                if (!fail) {
                    return null;
                }
                throw Failure.overflow("make_interval");
            }
        });
    }

    /**
     * The literal {@code INTERVAL 'text'}: the text read as Spark reads a CALENDAR INTERVAL, typed as Spark 4.2 types it by the
     * units it writes: years and months an {@code INTERVAL YEAR [TO MONTH]}, weeks, days and times an {@code INTERVAL DAY [TO
     * SECOND]}, both together refused.
     */
    static Node.Literal literal(String value, String source, String text, int position) {
        CalendarInterval v;
        try {
            v = CalendarIntervalText.parse(value);
        } catch (IllegalArgumentException e) {
            throw io.tributary.expressions.ExpressionErrors.badLiteral(source, position, text, "INTERVAL");
        }
        int ymStart = 2;
        int ymEnd = -1;
        int dtStart = 4;
        int dtEnd = -1;
        for (String word : value.strip().split("\\s+")) {
            String unit = word.toLowerCase(Locale.ROOT);
            unit = unit.endsWith("s") ? unit.substring(0, unit.length() - 1) : unit;
            int ym = List.of("year", "month").indexOf(unit);
            int dt = List.of("day", "hour", "minute", "second").indexOf(switch (unit) {
                case "week" -> "day";
                case "millisecond", "microsecond" -> "second";
                default -> unit;
            });
            if (ym >= 0) {
                ymStart = Math.min(ymStart, ym);
                ymEnd = Math.max(ymEnd, ym);
            } else if (dt >= 0) {
                dtStart = Math.min(dtStart, dt);
                dtEnd = Math.max(dtEnd, dt);
            }
        }
        if (ymEnd >= 0 && dtEnd >= 0) {
            throw io.tributary.expressions.ExpressionErrors.typeMismatch(source, position, text, "an interval of years or months and days or"
                    + " times together is Spark's legacy CALENDAR INTERVAL, which Spark 4.2 refuses as a literal; use make_interval(years,"
                    + " months, weeks, days, hours, mins, secs) or add two intervals to the timestamp in turn");
        }
        if (ymEnd >= 0) {
            return new Node.Literal(v.months(), Intervals.yearMonth(ymStart, ymEnd), text, position);
        }
        try {
            long micros = Math.addExact(Math.multiplyExact((long) v.days(), Dates.MICROS_PER_DAY), v.micros());
            return new Node.Literal(micros, Intervals.dayTime(dtStart, dtEnd), text, position);
        } catch (ArithmeticException e) {
            throw io.tributary.expressions.ExpressionErrors.badLiteral(source, position, text, "INTERVAL");
        }
    }

    /** The field {@code written} of a CALENDAR INTERVAL, as Spark's ExtractInterval*: years, months, days, hours, minutes, seconds. */
    static Bound extract(Analyzer.Call call, String written, Bound source) {
        String name = written.toUpperCase(Locale.ROOT);
        if (in(name, "YEAR", "Y", "YEARS", "YR", "YRS")) {
            return call.apply(List.of(source), DataType.INT, (Kernel.Unary) v -> ((CalendarInterval) v).months() / 12);
        }
        if (in(name, "MONTH", "MON", "MONS", "MONTHS")) {
            return call.apply(List.of(source), DataType.BYTE, (Kernel.Unary) v -> (byte) (((CalendarInterval) v).months() % 12));
        }
        if (in(name, "DAY", "D", "DAYS")) {
            return call.apply(List.of(source), DataType.INT, (Kernel.Unary) v -> {
                CalendarInterval c = (CalendarInterval) v;
                try {
                    return Math.addExact(c.days(), (int) (c.micros() / Dates.MICROS_PER_DAY));
                } catch (ArithmeticException e) {
                    throw Failure.overflow("the days of " + c);
                }
            });
        }
        if (in(name, "HOUR", "H", "HOURS", "HR", "HRS")) {
            return call.apply(List.of(source), DataType.BYTE, (Kernel.Unary) v ->
                    (byte) (((CalendarInterval) v).micros() % Dates.MICROS_PER_DAY / CalendarInterval.MICROS_PER_HOUR));
        }
        if (in(name, "MINUTE", "M", "MIN", "MINS", "MINUTES")) {
            return call.apply(List.of(source), DataType.BYTE, (Kernel.Unary) v ->
                    (byte) (((CalendarInterval) v).micros() % CalendarInterval.MICROS_PER_HOUR / CalendarInterval.MICROS_PER_MINUTE));
        }
        if (in(name, "SECOND", "S", "SEC", "SECONDS", "SECS")) {
            return call.apply(List.of(source), PART_SECONDS, (Kernel.Unary) v ->
                    BigDecimal.valueOf(((CalendarInterval) v).micros() % CalendarInterval.MICROS_PER_MINUTE, 6));
        }
        throw call.typeError("[INVALID_EXTRACT_FIELD] '" + written + "' is not a field of an INTERVAL that " + call.name()
                + " takes: YEAR, MONTH, DAY, HOUR, MINUTE or SECOND");
    }

    private static boolean in(String name, String... names) {
        return List.of(names).contains(name);
    }
}
