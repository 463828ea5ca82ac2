package io.tributary.expressions.internal;

import io.tributary.schema.DataType;
import io.tributary.schema.DataType.Kind;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;

/**
 * The arithmetic operators {@code + - * / % div} and unary minus with Spark 4.2's ANSI typing:
 * whole numbers keep their width and fail with ARITHMETIC_OVERFLOW, {@code /} gives DOUBLE or a
 * DECIMAL, decimals take {@code DecimalPrecision}'s precision and scale (an integer literal counts
 * with its own digits), text meets a number as BIGINT or DOUBLE.
 */
final class Arithmetic {
    private Arithmetic() {
    }

    static Bound resolve(Analyzer.Call call, List<Bound> args) {
        return resolve(call, call.name(), args);
    }

    static Bound resolve(Analyzer.Call call, String op, List<Bound> args) {
        Bound l = args.get(0);
        Bound r = args.get(1);
        Bound calendar = CalendarArithmetic.resolve(call, op, l, r);
        if (calendar != null) {
            return calendar;
        }
        Bound interval = IntervalArithmetic.resolve(call, op, l, r);
        if (interval != null) {
            return interval;
        }
        if (op.equals("+") && Types.is(r.type(), Kind.DATE) && Types.integral(l.type())) { // days + a DATE, as Spark's DateAdd(r, l)
            Bound t = l;
            l = r;
            r = t;
        }
        if ((op.equals("+") || op.equals("-")) && Types.is(l.type(), Kind.DATE) && (Types.integral(r.type()) || r.type() == null)) {
            if (Types.is(r.type(), Kind.LONG)) { // Spark's DateAdd takes INT, SMALLINT or TINYINT days, no BIGINT
                throw call.typeError("a DATE " + op + " days needs an INT, SMALLINT or TINYINT, and '" + r.text() + "' is BIGINT");
            }
            Bound days = call.as(r, DataType.INT);
            return call.apply(List.of(l, days), DataType.DATE, (Kernel.Binary) (a, b) -> op.equals("+")
                    ? Dates.addDays((Integer) a, (Integer) b) : Dates.addDays((Integer) a, -(Integer) b));
        }
        for (Bound b : args) {
            if (b.type() != null && !Types.numeric(b.type()) && !Types.is(b.type(), Kind.STRING)) {
                throw call.typeError("the operator " + op + " needs numbers, and '" + b.text() + "' is " + Types.name(b.type()));
            }
        }
        if (Types.is(l.type(), Kind.STRING) && Types.is(r.type(), Kind.STRING)) {
            throw call.typeError("the operator " + op + " needs a number on one side at least; cast the text: CAST(" + l.text() + " AS DOUBLE)");
        }
        if (op.equals("div") && (Types.fractional(l.type()) || Types.fractional(r.type()))) {
            throw call.typeError("div needs whole numbers or decimals; use floor(a / b) for doubles");
        }
        DataType common = Types.common(l.type(), r.type());
        if (common == null) {
            common = op.equals("div") ? DataType.LONG : DataType.DOUBLE; // NULL op NULL: the operator's default type, as Spark's
        } else if (common.kind() == Kind.STRING) {
            common = DataType.DOUBLE;
        }
        if (op.equals("/") && !Types.isDecimal(common)) {
            common = DataType.DOUBLE;
        }
        if (op.equals("div")) {
            Bound a = call.as(l, common);
            Bound b = call.as(r, common);
            return ordered(call, op, a, b, DataType.LONG, integralDivide(common));
        }
        if (Types.isDecimal(common)) {
            DataType dl = decimalOperand(l);
            DataType dr = decimalOperand(r);
            DataType result = decimalResult(op, dl, dr);
            Bound a = call.castTo(l, dl);
            Bound b = call.castTo(r, dr);
            return ordered(call, op, a, b, result, decimalKernel(op, result));
        }
        Bound a = call.as(l, common);
        Bound b = call.as(r, common);
        return ordered(call, op, a, b, common, kernel(op, common));
    }

    /**
     * The call of {@code kernel} over a and b; for /, % and div (Spark's DivModLike, as pmod) the divisor is evaluated first, and
     * a null divisor gives null with the dividend not evaluated (a dividend that would fail does not fail the row).
     */
    static Bound ordered(Analyzer.Call call, String op, Bound a, Bound b, DataType type, Kernel.Binary kernel) {
        if (op.equals("/") || op.equals("%") || op.equals("div") || op.equals("pmod")) {
            return call.apply(List.of(b, a), type, (Kernel.Binary) (y, x) -> kernel.apply2(x, y));
        }
        return call.apply(List.of(a, b), type, kernel);
    }

    /** The decimal an operand takes: its own, a whole number's (an integer literal by its digits). */
    private static DataType decimalOperand(Bound b) {
        if (b.type() == null) {
            return DataType.decimal(1, 0);
        }
        if (Types.isDecimal(b.type())) {
            return b.type();
        }
        // DecimalType.fromLiteral takes a SMALLINT, INT or BIGINT literal's digits; a TINYINT literal is a DECIMAL(3,0)
        if (b instanceof Bound.Literal lit && lit.value() != null && Types.integral(b.type()) && b.type().kind() != Kind.BYTE) {
            int digits = BigDecimal.valueOf(((Number) lit.value()).longValue()).abs().precision();
            return DataType.decimal(Math.max(digits, 1), 0);
        }
        return Types.decimalOf(b.type());
    }

    static DataType decimalResult(String op, DataType a, DataType b) {
        int p1 = a.precision();
        int s1 = a.scale();
        int p2 = b.precision();
        int s2 = b.scale();
        return switch (op) {
            case "+", "-" -> {
                int s = Math.max(s1, s2);
                yield Types.adjusted(Math.max(p1 - s1, p2 - s2) + s + 1, s);
            }
            case "*" -> Types.adjusted(p1 + p2 + 1, s1 + s2);
            case "/" -> {
                int s = Math.max(6, s1 + p2 + 1);
                yield Types.adjusted(p1 - s1 + s2 + s, s);
            }
            default -> { // %
                int s = Math.max(s1, s2);
                yield Types.adjusted(Math.min(p1 - s1, p2 - s2) + s, s);
            }
        };
    }

    private static Kernel.Binary decimalKernel(String op, DataType type) {
        return switch (op) {
            case "+" -> (a, b) -> Decimals.fit(((BigDecimal) a).add((BigDecimal) b), type);
            case "-" -> (a, b) -> Decimals.fit(((BigDecimal) a).subtract((BigDecimal) b), type);
            case "*" -> (a, b) -> Decimals.fit(((BigDecimal) a).multiply((BigDecimal) b), type);
            case "/" -> (a, b) -> Decimals.divide((BigDecimal) a, (BigDecimal) b, type);
            default -> (a, b) -> Decimals.remainder((BigDecimal) a, (BigDecimal) b, type);
        };
    }

    private static Kernel.Binary integralDivide(DataType type) {
        return switch (type.kind()) {
            case FLOAT, DOUBLE -> (a, b) -> {
                double y = ((Number) b).doubleValue();
                if (y == 0) {
                    throw Failure.divideByZero();
                }
                return (long) (((Number) a).doubleValue() / y);
            };
            case DECIMAL -> (a, b) -> {
                if (((BigDecimal) b).signum() == 0) {
                    throw Failure.divideByZero();
                }
                BigDecimal q = ((BigDecimal) a).divide((BigDecimal) b, 0, RoundingMode.DOWN);
                if (q.toBigInteger().bitLength() > 63) {
                    throw Failure.overflow("div");
                }
                return q.longValue();
            };
            default -> (a, b) -> {
                long x = ((Number) a).longValue();
                long y = ((Number) b).longValue();
                if (y == 0) {
                    throw Failure.divideByZero();
                }
                if (x == Long.MIN_VALUE && y == -1) {
                    throw Failure.overflow("div");
                }
                return x / y;
            };
        };
    }

    static Kernel.Binary kernel(String op, DataType type) {
        return switch (type.kind()) {
            case DOUBLE -> doubles(op);
            case FLOAT -> {
                Kernel.Binary d = doubles(op);
                yield (a, b) -> (float) (double) (Double) d.apply2(((Number) a).doubleValue(), ((Number) b).doubleValue());
            }
            case LONG -> longs(op);
            default -> {
                Kernel.Binary l = longs(op);
                long min = type.kind() == Kind.INT ? Integer.MIN_VALUE : type.kind() == Kind.SHORT ? Short.MIN_VALUE : Byte.MIN_VALUE;
                long max = -(min + 1);
                Kind k = type.kind();
                yield (a, b) -> {
                    long v = (Long) l.apply2(((Number) a).longValue(), ((Number) b).longValue());
                    if (v < min || v > max) {
                        throw Failure.overflow(type.ddl() + " " + op);
                    }
                    return k == Kind.INT ? (Object) (int) v : k == Kind.SHORT ? (Object) (short) v : (Object) (byte) v;
                };
            }
        };
    }

    private static Kernel.Binary doubles(String op) {
        return switch (op) {
            case "+" -> (a, b) -> (Double) a + (Double) b;
            case "-" -> (a, b) -> (Double) a - (Double) b;
            case "*" -> (a, b) -> (Double) a * (Double) b;
            case "/" -> (a, b) -> {
                if ((Double) b == 0) {
                    throw Failure.divideByZero();
                }
                return (Double) a / (Double) b;
            };
            default -> (a, b) -> {
                if ((Double) b == 0) {
                    throw Failure.of("REMAINDER_BY_ZERO", "remainder by zero");
                }
                return (Double) a % (Double) b;
            };
        };
    }

    private static Kernel.Binary longs(String op) {
        return switch (op) {
            case "+" -> (a, b) -> {
                try {
                    return Math.addExact((Long) a, (Long) b);
                } catch (ArithmeticException e) {
                    throw Failure.overflow("BIGINT +");
                }
            };
            case "-" -> (a, b) -> {
                try {
                    return Math.subtractExact((Long) a, (Long) b);
                } catch (ArithmeticException e) {
                    throw Failure.overflow("BIGINT -");
                }
            };
            case "*" -> (a, b) -> {
                try {
                    return Math.multiplyExact((Long) a, (Long) b);
                } catch (ArithmeticException e) {
                    throw Failure.overflow("BIGINT *");
                }
            };
            default -> (a, b) -> {
                if ((Long) b == 0) {
                    throw Failure.of("REMAINDER_BY_ZERO", "remainder by zero");
                }
                return (Long) a % (Long) b;
            };
        };
    }

    /**
     * Spark's {@code Decimal.unary_-}: Scala's BigDecimal negates to 34 significant digits (DECIMAL128), so a value of 35 to 38
     * digits is rounded, and one that rounds up past its type ({@code -(99999999999999999999999999999999999999)}) fails with
     * NUMERIC_VALUE_OUT_OF_RANGE.WITHOUT_SUGGESTION.
     */
    static BigDecimal negateDecimal(BigDecimal v, DataType type) {
        BigDecimal rounded = v.negate(java.math.MathContext.DECIMAL128);
        BigDecimal n = rounded.setScale(type.scale(), java.math.RoundingMode.HALF_UP);
        if (n.precision() > type.precision()) {
            throw Failure.of("NUMERIC_VALUE_OUT_OF_RANGE.WITHOUT_SUGGESTION", "the " + n.toPlainString() + " rounded half up from " + rounded
                    + " cannot be represented as " + type.ddl());
        }
        return n;
    }

    /** Unary minus, of a number or an interval: whole numbers fail with ARITHMETIC_OVERFLOW on their minimum. */
    static Bound negate(Analyzer.Call call, List<Bound> args) {
        Bound x = args.get(0);
        if (CalendarIntervals.isCalendar(x.type())) {
            return CalendarArithmetic.negate(call, x);
        }
        DataType t = x.type() == null ? DataType.INT : x.type();
        if (t.kind() == Kind.STRING) {
            t = DataType.DOUBLE;
        }
        if (!Types.numeric(t) && !Intervals.isInterval(t)) {
            throw call.typeError("the operator - needs a number or an interval, and '" + x.text() + "' is " + Types.name(x.type()));
        }
        Bound a = call.as(x, t);
        DataType type = t;
        Kernel.Unary k = switch (t.kind()) {
            case DOUBLE -> v -> -(Double) v;
            case FLOAT -> v -> -(Float) v;
            case DECIMAL -> v -> negateDecimal((BigDecimal) v, type);
            default -> {
                Kernel.Binary minus = kernel("-", type);
                Object zero = type.kind() == Kind.LONG ? (Object) 0L : type.kind() == Kind.INT ? (Object) 0 : type.kind() == Kind.SHORT ? (Object) (short) 0 : (Object) (byte) 0;
                yield v -> minus.apply2(zero, v);
            }
        };
        return call.apply(List.of(a), t, k);
    }
}
