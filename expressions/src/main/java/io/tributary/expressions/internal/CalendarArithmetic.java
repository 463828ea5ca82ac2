package io.tributary.expressions.internal;

import io.tributary.schema.DataType;
import io.tributary.schema.DataType.Kind;
import java.util.List;

/**
 * The operators where a CALENDAR INTERVAL takes part, as Spark 4.2's ANSI mode types them: a TIMESTAMP (or TIMESTAMP_NTZ)
 * plus or minus one moves by its months, then its days, then its microseconds and keeps its type; a DATE plus or minus one
 * is a DATE, failing the row when the interval holds a time; two of them add up field by field; one times or divided by a
 * number scales each field (a month's fraction is dropped, a day's goes to the microseconds); unary minus negates each
 * field. Every field that overflows fails the row with ARITHMETIC_OVERFLOW.
 */
final class CalendarArithmetic {
    private CalendarArithmetic() {
    }

    /** {@code l op r} when one side is a CALENDAR INTERVAL, else null. */
    static Bound resolve(Analyzer.Call call, String op, Bound l, Bound r) {
        boolean lc = CalendarIntervals.isCalendar(l.type());
        boolean rc = CalendarIntervals.isCalendar(r.type());
        if (!lc && !rc) {
            return null;
        }
        return switch (op) {
            case "+", "-" -> plusMinus(call, op.equals("+"), l, r, lc, rc);
            case "*", "/" -> scale(call, op.equals("*"), l, r, lc, rc);
            default -> throw call.typeError("the operator " + op + " does not take an INTERVAL; intervals are added to and subtracted from"
                    + " timestamps, dates and intervals, and multiplied or divided by numbers");
        };
    }

    private static Bound plusMinus(Analyzer.Call call, boolean plus, Bound l, Bound r, boolean lc, boolean rc) {
        if (lc && rc) {
            return call.apply(List.of(l, r), CalendarIntervals.TYPE, (Kernel.Binary) (a, b) -> plus
                    ? add((CalendarInterval) a, (CalendarInterval) b) : add((CalendarInterval) a, negate((CalendarInterval) b)));
        }
        if (lc && !plus) {
            throw call.typeError("an INTERVAL minus '" + r.text() + "' is not defined; subtract the interval from the timestamp: ts - make_interval(...)");
        }
        Bound at = lc ? r : l;
        Bound iv = lc ? l : r;
        DataType t = at.type();
        if (t == null) {
            return new Bound.Literal(null, DataType.TIMESTAMP, call.text());
        }
        int sign = plus ? 1 : -1;
        if (Types.is(t, Kind.DATE)) {
            return call.apply(List.of(at, iv), DataType.DATE, (Kernel.Binary) (d, v) -> addToDate((Integer) d, (CalendarInterval) v, sign));
        }
        if (Types.is(t, Kind.STRING)) { // as Spark: the text read as a TIMESTAMP, moved, and written as text again
            Bound moved = call.apply(List.of(call.as(at, DataType.TIMESTAMP), iv), DataType.TIMESTAMP,
                    (Kernel.Binary) (ts, v) -> addToTimestamp((Long) ts, (CalendarInterval) v, sign));
            return call.apply(List.of(moved), DataType.STRING, Casts.kernel(DataType.TIMESTAMP, DataType.STRING));
        }
        if (!Types.is(t, Kind.TIMESTAMP) && !Types.is(t, Kind.TIMESTAMP_NTZ)) {
            throw call.typeError("an INTERVAL is added to a TIMESTAMP or a DATE, and '" + at.text() + "' is " + Types.name(t)
                    + (Types.is(t, Kind.STRING) ? "; cast it: CAST(" + at.text() + " AS TIMESTAMP)" : ""));
        }
        return call.apply(List.of(at, iv), t, (Kernel.Binary) (ts, v) -> addToTimestamp((Long) ts, (CalendarInterval) v, sign));
    }

    private static Bound scale(Analyzer.Call call, boolean times, Bound l, Bound r, boolean lc, boolean rc) {
        if (lc && rc) {
            throw call.typeError("an INTERVAL " + (times ? "times" : "divided by") + " an INTERVAL is not defined; "
                    + (times ? "multiply" : "divide") + " an interval by a number");
        }
        if (rc && !times) {
            throw call.typeError("a number divided by an INTERVAL is not defined; divide the interval by the number: make_interval(...) / n");
        }
        Bound iv = lc ? l : r;
        Bound n = lc ? r : l;
        if (n.type() != null && !Types.numeric(n.type()) && !Types.is(n.type(), Kind.STRING)) {
            throw call.typeError("an INTERVAL is multiplied or divided by a number, and '" + n.text() + "' is " + Types.name(n.type()));
        }
        if (n.type() == null) {
            return new Bound.Literal(null, CalendarIntervals.TYPE, call.text());
        }
        Bound d = Types.numeric(n.type()) ? call.castTo(n, DataType.DOUBLE) : call.as(n, DataType.DOUBLE);
        return call.apply(List.of(iv, d), CalendarIntervals.TYPE, (Kernel.Binary) (v, x) -> times
                ? multiply((CalendarInterval) v, (Double) x) : divide((CalendarInterval) v, (Double) x));
    }

    static Bound negate(Analyzer.Call call, Bound x) {
        return call.apply(List.of(x), CalendarIntervals.TYPE, (Kernel.Unary) v -> negate((CalendarInterval) v));
    }

    static CalendarInterval negate(CalendarInterval v) {
        try {
            return new CalendarInterval(Math.negateExact(v.months()), Math.negateExact(v.days()), Math.negateExact(v.micros()));
        } catch (ArithmeticException e) {
            throw Failure.overflow("the negated interval " + v);
        }
    }

    static CalendarInterval add(CalendarInterval a, CalendarInterval b) {
        try {
            return new CalendarInterval(Math.addExact(a.months(), b.months()), Math.addExact(a.days(), b.days()), Math.addExact(a.micros(), b.micros()));
        } catch (ArithmeticException e) {
            throw Failure.overflow("the sum of the intervals " + a + " and " + b);
        }
    }

    /** A TIMESTAMP moved by the interval's months, then days (on the calendar, time zone UTC), then microseconds. */
    static long addToTimestamp(long ts, CalendarInterval v, int sign) {
        CalendarInterval by = sign > 0 ? v : negate(v);
        try {
            long at = ts;
            if (by.months() != 0 || by.days() != 0) {
                at = Dates.micros(Dates.dateTime(ts).plusMonths(by.months()).plusDays(by.days()));
            }
            return Math.addExact(at, by.micros());
        } catch (ArithmeticException | java.time.DateTimeException e) {
            throw Failure.overflow("the timestamp plus " + by);
        }
    }

    /** A DATE moved by the interval's months, then days; an interval with a time fails the row, as in Spark's ANSI mode. */
    static int addToDate(int date, CalendarInterval v, int sign) {
        CalendarInterval by = sign > 0 ? v : negate(v);
        if (by.micros() != 0) {
            throw Failure.of("INVALID_INTERVAL_WITH_MICROSECONDS_ADDITION", "cannot add hours, minutes or seconds, milliseconds,"
                    + " microseconds to a date: " + by);
        }
        try {
            return Math.toIntExact(Dates.date(date).plusMonths(by.months()).plusDays(by.days()).toEpochDay());
        } catch (ArithmeticException | java.time.DateTimeException e) {
            throw Failure.overflow("the date plus " + by);
        }
    }

    private static CalendarInterval multiply(CalendarInterval v, double x) {
        return fromDoubles(x * v.months(), x * v.days(), x * v.micros(), v, x);
    }

    private static CalendarInterval divide(CalendarInterval v, double x) {
        if (x == 0) {
            throw Failure.of("INTERVAL_DIVIDED_BY_ZERO", "an interval divided by zero");
        }
        return fromDoubles(v.months() / x, v.days() / x, v.micros() / x, v, x);
    }

    /** Months and days truncated toward zero (a month's fraction dropped, a day's added to the microseconds), microseconds rounded. */
    private static CalendarInterval fromDoubles(double months, double days, double micros, CalendarInterval v, double x) {
        try {
            int m = Math.toIntExact((long) months);
            int d = Math.toIntExact((long) days);
            double us = micros + Dates.MICROS_PER_DAY * (days - d);
            return new CalendarInterval(m, d, Math.round(us));
        } catch (ArithmeticException e) {
            throw Failure.overflow("the interval " + v + " scaled by " + x);
        }
    }
}
