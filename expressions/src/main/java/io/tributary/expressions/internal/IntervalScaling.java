package io.tributary.expressions.internal;

import io.tributary.schema.DataType;
import io.tributary.schema.DataType.Kind;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;

/**
 * An interval multiplied or divided by a number, as Spark 4.2 does it: {@code INTERVAL 1 HOUR * 2}, {@code 2 *
 * INTERVAL 1 HOUR}, {@code INTERVAL 1 HOUR / 2}. The result is an {@code INTERVAL DAY TO SECOND} (microseconds) or an
 * {@code INTERVAL YEAR TO MONTH} (months) whatever the interval's fields; a whole number multiplies exactly, a decimal
 * or a double rounds the result half away from zero to the microsecond or the month, as does a division; a division by
 * zero fails with INTERVAL_DIVIDED_BY_ZERO, a result out of range with ARITHMETIC_OVERFLOW.
 */
final class IntervalScaling {
    private IntervalScaling() {
    }

    /** {@code l op r} with {@code op} {@code *} or {@code /} and an interval on one side at least. */
    static Bound resolve(Analyzer.Call call, String op, Bound l, Bound r, boolean li, boolean ri) {
        if (li && ri) {
            throw call.typeError("an interval " + (op.equals("*") ? "times" : "divided by") + " an interval is not defined; "
                    + (op.equals("*") ? "multiply" : "divide") + " an interval by a number");
        }
        if (ri && op.equals("/")) {
            throw call.typeError("a number divided by an interval is not defined; divide the interval by the number: INTERVAL ... / n");
        }
        Bound iv = li ? l : r;
        Bound n = li ? r : l;
        if (n.type() != null && Types.is(n.type(), Kind.STRING)) {
            n = call.castTo(n, DataType.DOUBLE);
        } else if (n.type() != null && !Types.numeric(n.type())) {
            throw call.typeError("an interval is multiplied or divided by a number, and '" + n.text() + "' is " + Types.name(n.type()));
        }
        boolean dayTime = Intervals.isDayTime(iv.type());
        DataType type = dayTime ? Intervals.dayTime(0, 3) : Intervals.yearMonth(0, 1);
        if (n.type() == null) {
            return new Bound.Literal(null, type, call.text());
        }
        Kind kind = n.type().kind();
        boolean times = op.equals("*");
        List<Bound> args = List.of(iv, n);
        if (dayTime) {
            return call.apply(args, type, (Kernel.Binary) (v, x) -> times ? timesMicros((Long) v, x, kind) : dividedMicros((Long) v, x, kind));
        }
        return call.apply(args, type, (Kernel.Binary) (v, x) -> months(times ? timesMicros((Integer) v, x, kind) : dividedMicros((Integer) v, x, kind), x));
    }

    private static int months(long months, Object x) {
        if (months != (int) months) {
            throw Failure.overflow("the interval scaled by " + x);
        }
        return (int) months;
    }

    private static long timesMicros(long v, Object x, Kind kind) {
        long r = switch (kind) {
            case BYTE, SHORT, INT, LONG -> {
                try {
                    yield Math.multiplyExact(v, ((Number) x).longValue());
                } catch (ArithmeticException e) {
                    throw Failure.overflow("the interval multiplied by " + x);
                }
            }
            case DECIMAL -> exact(BigDecimal.valueOf(v).multiply((BigDecimal) x), x);
            default -> roundHalfUp(v * ((Number) x).doubleValue(), x);
        };
        return r;
    }

    private static long dividedMicros(long v, Object x, Kind kind) {
        switch (kind) {
            case BYTE, SHORT, INT, LONG -> {
                long d = ((Number) x).longValue();
                if (d == 0) {
                    throw divideByZero();
                }
                if (v == Long.MIN_VALUE && d == -1) {
                    throw Failure.overflow("the interval divided by " + x);
                }
                return BigDecimal.valueOf(v).divide(BigDecimal.valueOf(d), 0, RoundingMode.HALF_UP).longValueExact();
            }
            case DECIMAL -> {
                BigDecimal d = (BigDecimal) x;
                if (d.signum() == 0) {
                    throw divideByZero();
                }
                return exact(BigDecimal.valueOf(v).divide(d, 0, RoundingMode.HALF_UP), x);
            }
            default -> {
                double d = ((Number) x).doubleValue();
                if (d == 0) {
                    throw divideByZero();
                }
                return roundHalfUp(v / d, x);
            }
        }
    }

    private static Failure divideByZero() {
        return Failure.of("INTERVAL_DIVIDED_BY_ZERO", "an interval divided by zero");
    }

    private static long exact(BigDecimal value, Object x) {
        try {
            return value.setScale(0, RoundingMode.HALF_UP).longValueExact();
        } catch (ArithmeticException e) {
            throw Failure.overflow("the interval scaled by " + x);
        }
    }

    /** {@code d} rounded half away from zero to a whole number, as Guava's {@code DoubleMath.roundToLong(d, HALF_UP)}. */
    private static long roundHalfUp(double d, Object x) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            throw Failure.overflow("the interval scaled by " + x);
        }
        double z = Math.rint(d);
        if (Math.abs(d - z) == 0.5) {
            z = d + Math.copySign(0.5, d);
        }
        if (!(z >= -0x1p63 && z < 0x1p63)) {
            throw Failure.overflow("the interval scaled by " + x);
        }
        return (long) z;
    }
}
