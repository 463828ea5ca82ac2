package io.tributary.expressions.internal;

import io.tributary.schema.DataType;
import io.tributary.schema.DataType.Kind;
import java.util.List;

/**
 * {@code +} and {@code -} where an interval takes part, and the differences of two timestamps or two dates, as Spark 4.2's
 * ANSI rules type them: a TIMESTAMP (TIMESTAMP_NTZ) plus an interval is a TIMESTAMP (TIMESTAMP_NTZ); a DATE plus a year-month interval or whole days
 * ({@code INTERVAL DAY}) is a DATE, plus a time a TIMESTAMP; two intervals of one kind add up; a TIMESTAMP minus a
 * TIMESTAMP is an {@code INTERVAL DAY TO SECOND}, a DATE minus a DATE an {@code INTERVAL DAY}.
 */
final class IntervalArithmetic {
    private IntervalArithmetic() {
    }

    /** The typed operation, or null when neither side is an interval and it is no difference of datetimes. */
    static Bound resolve(Analyzer.Call call, String op, Bound l, Bound r) {
        boolean li = Intervals.isInterval(l.type());
        boolean ri = Intervals.isInterval(r.type());
        boolean plus = op.equals("+");
        if (!li && !ri) {
            return op.equals("-") ? difference(call, l, r) : null;
        }
        if (op.equals("*") || op.equals("/")) {
            return IntervalScaling.resolve(call, op, l, r, li, ri);
        }
        if (!plus && !op.equals("-")) {
            throw call.typeError("the operator " + op + " does not take an interval; intervals are added to and subtracted from timestamps,"
                    + " dates and intervals, and multiplied or divided by numbers");
        }
        if (li && ri) {
            DataType type = Intervals.common(l.type(), r.type());
            if (type == null) {
                throw call.typeError("a year-month interval and a day-time interval do not add up; add each to the timestamp in turn");
            }
            Bound a = call.as(l, type);
            Bound b = call.as(r, type);
            return call.apply(List.of(a, b), type, type.kind() == Kind.LONG
                    ? (Kernel.Binary) (x, y) -> exact(() -> plus ? Math.addExact((Long) x, (Long) y) : Math.subtractExact((Long) x, (Long) y))
                    : (Kernel.Binary) (x, y) -> (int) exact(() -> plus ? Math.addExact((Integer) x, (Integer) y) : Math.subtractExact((Integer) x, (Integer) y)));
        }
        if (li) {
            if (!plus) {
                throw call.typeError("an interval minus '" + r.text() + "' is not defined; subtract the interval from the timestamp: ts - INTERVAL ...");
            }
            Bound t = l;
            l = r;
            r = t;
        }
        return shift(call, l, r, plus ? 1 : -1);
    }

    /**
     * A DATE or TIMESTAMP moved by the interval {@code iv}, forward ({@code sign} 1) or back (-1); text moved by a day-time one is
     * read as a TIMESTAMP and the result written as text, as Spark's coercion casts both ({@code '2024-01-01' + INTERVAL 3 DAY}).
     */
    private static Bound shift(Analyzer.Call call, Bound at, Bound iv, int sign) {
        if (Types.is(at.type(), Kind.STRING)) {
            if (!Intervals.isDayTime(iv.type())) {
                throw call.typeError("[DATATYPE_MISMATCH.BINARY_OP_DIFF_TYPES] text and a year-month interval do not add up; cast the text: CAST("
                        + at.text() + " AS TIMESTAMP)");
            }
            return call.castTo(shift(call, call.castTo(at, DataType.TIMESTAMP), iv, sign), DataType.STRING);
        }
        DataType t = at.type();
        if (t == null) {
            return new Bound.Literal(null, iv.type(), call.text());
        }
        boolean dayTime = Intervals.isDayTime(iv.type());
        if (Types.is(t, Kind.DATE)) {
            if (!dayTime) {
                return call.apply(List.of(at, iv), DataType.DATE, (Kernel.Binary) (d, m) -> Dates.addMonths((Integer) d, sign * (Integer) m));
            }
            if (iv.type().precision() == -1 && iv.type().scale() == 0) {
                return call.apply(List.of(at, iv), DataType.DATE, (Kernel.Binary) (d, us) -> Dates.addDays((Integer) d,
                        (int) (sign * ((Long) us / Dates.MICROS_PER_DAY))));
            }
        } else if (t != null && !Types.is(t, Kind.TIMESTAMP) && !Types.is(t, Kind.TIMESTAMP_NTZ)) {
            throw call.typeError("an interval is added to a TIMESTAMP, a TIMESTAMP_NTZ or a DATE, and '" + at.text() + "' is " + Types.name(t)
                    + (Types.is(t, Kind.STRING) ? "; cast it: CAST(" + at.text() + " AS TIMESTAMP)" : ""));
        }
        // a TIMESTAMP_NTZ moves as a TIMESTAMP in UTC and keeps its type (Spark's TimestampAddYMInterval and TimestampAddInterval)
        DataType type = Types.is(t, Kind.TIMESTAMP_NTZ) ? DataType.TIMESTAMP_NTZ : DataType.TIMESTAMP;
        Bound ts = call.as(at, type);
        if (dayTime) {
            return call.apply(List.of(ts, iv), type, (Kernel.Binary) (a, us) -> exact(() -> sign > 0
                    ? Math.addExact((Long) a, (Long) us) : Math.subtractExact((Long) a, (Long) us)));
        }
        return call.apply(List.of(ts, iv), type, (Kernel.Binary) (a, m) -> exact(() ->
                Dates.micros(Dates.dateTime((Long) a).plusMonths(sign * (long) (Integer) m))));
    }

    /** TIMESTAMP - TIMESTAMP (a DATE read as its midnight), DATE - DATE; null for any other operands. */
    private static Bound difference(Analyzer.Call call, Bound l, Bound r) {
        boolean ld = Types.is(l.type(), Kind.DATE);
        boolean rd = Types.is(r.type(), Kind.DATE);
        boolean ln = Types.is(l.type(), Kind.TIMESTAMP_NTZ);
        boolean rn = Types.is(r.type(), Kind.TIMESTAMP_NTZ);
        boolean lt = Types.is(l.type(), Kind.TIMESTAMP) || ln;
        boolean rt = Types.is(r.type(), Kind.TIMESTAMP) || rn;
        if (ld && rd) {
            return call.apply(List.of(l, r), Intervals.dayTime(0, 0), (Kernel.Binary) (a, b) ->
                    ((long) (Integer) a - (Integer) b) * Dates.MICROS_PER_DAY);
        }
        if ((lt || ld) && (rt || rd)) { // as Spark's SubtractTimestamps: both as TIMESTAMP_NTZ when neither is a TIMESTAMP
            DataType both = (ln || ld) && (rn || rd) ? DataType.TIMESTAMP_NTZ : DataType.TIMESTAMP;
            return call.apply(List.of(call.as(l, both), call.as(r, both)), Intervals.dayTime(0, 3),
                    (Kernel.Binary) (a, b) -> exact(() -> Math.subtractExact((Long) a, (Long) b)));
        }
        return null;
    }

    private interface LongOp {
        long get();
    }

    private static long exact(LongOp op) {
        try {
            return op.get();
        } catch (ArithmeticException | java.time.DateTimeException e) {
            throw Failure.overflow("the interval arithmetic");
        }
    }
}
