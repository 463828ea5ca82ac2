package io.tributary.expressions.internal;

import static io.tributary.schema.DataType.DOUBLE;
import static io.tributary.schema.DataType.INT;

import io.tributary.schema.DataType;
import io.tributary.schema.DataType.Kind;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import java.util.function.Consumer;

/**
 * Spark's math functions: whole numbers and decimals keep their kind where Spark keeps it, the rest is DOUBLE; pow, exp and the
 * logarithms through {@link StrictMath}, as Spark's, whose bits {@link Math}'s intrinsics do not always give.
 */
final class MathFunctions {
    private MathFunctions() {
    }

    static void register(Consumer<FunctionDef> add) {
        add.accept(Fn.custom("abs", 1, 1, "abs(n NUMERIC) → the type of n", FunctionDef.NULL_IN_NULL_OUT,
                "the absolute value; ARITHMETIC_OVERFLOW for the least whole number", MathFunctions::abs));
        add.accept(Fn.custom("negative", 1, 1, "negative(n NUMERIC) → the type of n", FunctionDef.NULL_IN_NULL_OUT, "-n", Arithmetic::negate));
        add.accept(Fn.custom("positive", 1, 1, "positive(n NUMERIC) → the type of n", FunctionDef.NULL_IN_NULL_OUT, "n",
                (call, args) -> args.get(0)));
        add.accept(Fn.custom("round", 1, 2, "round(n NUMERIC[, scale INT]) → the type of n", FunctionDef.NULL_IN_NULL_OUT,
                "n rounded half up to scale decimal places (0 by default; negative rounds left of the point)",
                (call, args) -> round(call, args, RoundingMode.HALF_UP)));
        add.accept(Fn.custom("bround", 1, 2, "bround(n NUMERIC[, scale INT]) → the type of n", FunctionDef.NULL_IN_NULL_OUT,
                "n rounded half to even (banker's rounding) to scale decimal places", (call, args) -> round(call, args, RoundingMode.HALF_EVEN)));
        FunctionDef floor = Fn.custom("floor", 1, 2, "floor(n NUMERIC[, scale INT]) → BIGINT, or DECIMAL(p-s+1,0) for a decimal; DECIMAL with a scale", FunctionDef.NULL_IN_NULL_OUT,
                "the greatest whole number not above n; with a scale, the greatest decimal of that many places (negative: left of the point)", (call, args) -> floorCeil(call, args, RoundingMode.FLOOR));
        add.accept(floor);
        FunctionDef ceil = Fn.custom("ceil", 1, 2, "ceil(n NUMERIC[, scale INT]) → BIGINT, or DECIMAL(p-s+1,0) for a decimal; DECIMAL with a scale", FunctionDef.NULL_IN_NULL_OUT,
                "the least whole number not below n; with a scale, the least decimal of that many places (negative: left of the point)", (call, args) -> floorCeil(call, args, RoundingMode.CEILING));
        add.accept(ceil);
        add.accept(Fn.alias("ceiling", ceil));
        FunctionDef pow = Fn.binary("pow", "base raised to the power exp", DOUBLE, DOUBLE, DOUBLE, (a, b) -> StrictMath.pow((Double) a, (Double) b));
        add.accept(pow);
        add.accept(Fn.alias("power", pow));
        add.accept(Fn.unary("sqrt", "the square root (NaN below 0)", DOUBLE, DOUBLE, v -> Math.sqrt((Double) v)));
        add.accept(Fn.unary("cbrt", "the cube root", DOUBLE, DOUBLE, v -> Math.cbrt((Double) v)));
        add.accept(Fn.unary("exp", "e raised to the power n", DOUBLE, DOUBLE, v -> StrictMath.exp((Double) v)));
        add.accept(Fn.unary("ln", "the natural logarithm; null for 0 and below", DOUBLE, DOUBLE, v -> (Double) v <= 0 ? null : StrictMath.log((Double) v)));
        add.accept(Fn.unary("log10", "the base-10 logarithm; null for 0 and below", DOUBLE, DOUBLE,
                v -> (Double) v <= 0 ? null : StrictMath.log10((Double) v)));
        add.accept(Fn.unary("log2", "the base-2 logarithm; null for 0 and below", DOUBLE, DOUBLE,
                v -> (Double) v <= 0 ? null : StrictMath.log((Double) v) / StrictMath.log(2)));
        FunctionDef sign = Fn.unary("sign", "-1.0, 0.0 or 1.0 by the sign of n", DOUBLE, DOUBLE, v -> Math.signum((Double) v));
        add.accept(sign);
        add.accept(Fn.alias("signum", sign));
        add.accept(Fn.custom("mod", 2, 2, "mod(a NUMERIC, b NUMERIC) → as a % b", FunctionDef.NULL_IN_NULL_OUT, "the remainder of a / b, as a % b",
                (call, args) -> Arithmetic.resolve(call, "%", args)));
        add.accept(Fn.custom("pmod", 2, 2, "pmod(a NUMERIC, b NUMERIC) → as a % b", FunctionDef.NULL_IN_NULL_OUT,
                "the remainder of a / b, made positive", MathFunctions::pmod));
    }

    private static Bound abs(Analyzer.Call call, List<Bound> args) {
        Bound x = numeric(call, args.get(0));
        DataType t = x.type();
        Kernel.Unary k = switch (t.kind()) {
            case DOUBLE -> v -> Math.abs((Double) v);
            case FLOAT -> v -> Math.abs((Float) v);
            case DECIMAL -> v -> ((BigDecimal) v).signum() < 0 ? Arithmetic.negateDecimal((BigDecimal) v, t) : v; // Spark's abs is its unary minus
            default -> {
                Kernel.Binary minus = Arithmetic.kernel("-", t);
                yield v -> ((Number) v).longValue() < 0 ? minus.apply2(zero(t), v) : v;
            }
        };
        return call.apply(List.of(x), t, k);
    }

    static Object zero(DataType t) {
        return switch (t.kind()) {
            case LONG -> 0L;
            case INT -> 0;
            case SHORT -> (short) 0;
            default -> (byte) 0;
        };
    }

    private static Bound numeric(Analyzer.Call call, Bound x) {
        if (x.type() == null) {
            return call.as(x, DOUBLE);
        }
        if (x.type().kind() == Kind.STRING) {
            return call.as(x, DOUBLE);
        }
        if (!Types.numeric(x.type())) {
            throw call.typeError("'" + x.text() + "' is " + Types.name(x.type()) + ", and " + call.name() + " needs a number");
        }
        return x;
    }

    private static Bound round(Analyzer.Call call, List<Bound> args, RoundingMode mode) {
        Bound x = numeric(call, args.get(0));
        int scale = 0;
        if (args.size() > 1) {
            if (!(args.get(1) instanceof Bound.Literal lit) || !(lit.value() instanceof Integer)) {
                throw call.typeError("the scale of " + call.name() + " must be an integer literal");
            }
            scale = (Integer) ((Bound.Literal) args.get(1)).value();
        }
        int s = scale;
        DataType t = x.type();
        return switch (t.kind()) {
            case DOUBLE, FLOAT -> call.apply(List.of(x), t, (Kernel.Unary) v -> {
                double d = ((Number) v).doubleValue();
                if (Double.isNaN(d) || Double.isInfinite(d)) {
                    return v;
                }
                if (t.kind() == Kind.FLOAT) {
                    return (float) new BigDecimal(Double.toString(d)).setScale(s, mode).doubleValue();
                }
                return DoubleRounding.round(d, s, mode);
            });
            case DECIMAL -> {
                int intDigits = t.precision() - t.scale() + 1;
                DataType result = s < 0 ? DataType.decimal(Math.min(Math.max(intDigits, 1 - s), 38), 0)
                        : Types.bounded(intDigits + Math.min(t.scale(), s), Math.min(t.scale(), s));
                yield call.apply(List.of(x), result, (Kernel.Unary) v -> {
                    try {
                        return Decimals.fit(((BigDecimal) v).setScale(s, mode), result);
                    } catch (Failure f) { // Spark's Decimal(v.setScale(s), p, s) left of the point: the class without a suggestion
                        throw s < 0 ? Failure.of("NUMERIC_VALUE_OUT_OF_RANGE.WITHOUT_SUGGESTION", f.reason()) : f;
                    }
                });
            }
            default -> {
                Kernel.Unary back = Casts.kernel(DataType.decimal(38, 0), t);
                yield call.apply(List.of(x), t, (Kernel.Unary) v -> {
                    if (s >= 0) {
                        return v;
                    }
                    try {
                        return back.apply1(BigDecimal.valueOf(((Number) v).longValue()).setScale(s, mode).setScale(0));
                    } catch (Failure f) {
                        throw Failure.overflow(call.name());
                    }
                });
            }
        };
    }

    private static Bound floorCeil(Analyzer.Call call, List<Bound> args, RoundingMode mode) {
        Bound x = numeric(call, args.get(0));
        DataType t = x.type();
        if (args.size() > 1) {
            return floorCeilScaled(call, x, args.get(1), mode);
        }
        if (t.kind() == Kind.DECIMAL) {
            DataType result = t.scale() == 0 ? t : Types.bounded(t.precision() - t.scale() + 1, 0);
            return call.apply(List.of(x), result, (Kernel.Unary) v -> ((BigDecimal) v).setScale(0, mode));
        }
        if (Types.integral(t)) {
            return call.apply(List.of(x), DataType.LONG, (Kernel.Unary) v -> ((Number) v).longValue());
        }
        boolean down = mode == RoundingMode.FLOOR;
        return call.apply(List.of(x), DataType.LONG, (Kernel.Unary) v -> {
            double d = ((Number) v).doubleValue();
            return (long) (down ? Math.floor(d) : Math.ceil(d));
        });
    }

    /**
     * Spark's {@code ceil(n, scale)} and {@code floor(n, scale)} ({@code RoundCeil}, {@code RoundFloor}): n as a DECIMAL
     * (a DOUBLE as DECIMAL(30,15), an INT as DECIMAL(10,0)), rounded up or down to the constant scale; the result keeps at
     * most n's scale, one more whole digit, and at least the digits a negative scale rounds to.
     */
    private static Bound floorCeilScaled(Analyzer.Call call, Bound x, Bound scaleArg, RoundingMode mode) {
        if (!(scaleArg instanceof Bound.Literal lit) || !(lit.value() instanceof Integer)) {
            throw call.typeError("the scale of " + call.name() + " must be an integer literal");
        }
        int scale = (Integer) lit.value();
        DataType t = switch (x.type().kind()) {
            case DOUBLE -> DataType.decimal(30, 15);
            case FLOAT -> DataType.decimal(14, 7);
            default -> Types.decimalOf(x.type());
        };
        Bound dec = Types.isDecimal(x.type()) ? x : call.apply(List.of(x), t, Casts.kernel(x.type(), t)); // Spark's implicit cast, as the analyzer adds it
        int p = t.precision();
        int s = t.scale();
        DataType result = scale < 0 ? Types.bounded(Math.max(p - s + 1, 1 - scale), 0)
                : Types.bounded(p - s + 1 + Math.min(s, scale), Math.min(s, scale));
        return call.apply(List.of(dec), result, (Kernel.Unary) v -> {
            BigDecimal r = ((BigDecimal) v).setScale(scale, mode).setScale(result.scale());
            if (r.precision() - r.scale() > result.precision() - result.scale() && r.signum() != 0) {
                throw Failure.of("NUMERIC_VALUE_OUT_OF_RANGE.WITHOUT_SUGGESTION", r.toPlainString() + " cannot be represented as " + result.ddl());
            }
            return r;
        });
    }

    /** a % b, then b added once when that is negative (as Spark's Pmod). */
    private static Bound pmod(Analyzer.Call call, List<Bound> args) {
        Bound.Apply rem = (Bound.Apply) Arithmetic.resolve(call, "%", args); // its arguments divisor first, as Spark evaluates them
        Kernel.Binary swapped = (Kernel.Binary) rem.kernel();
        Kernel.Binary r = (a, b) -> swapped.apply2(b, a);
        DataType t = rem.type();
        Kernel.Binary plus = Types.isDecimal(t) ? (a, b) -> ((BigDecimal) a).add((BigDecimal) b) : Arithmetic.kernel("+", t);
        Kernel.Binary signed = (a, b) -> {
            Object m = r.apply2(a, b);
            boolean negative = m instanceof BigDecimal d ? d.signum() < 0 : ((Number) m).doubleValue() < 0;
            return negative ? r.apply2(plus.apply2(m, b), b) : m;
        };
        return Arithmetic.ordered(call, "pmod", rem.args().get(1), rem.args().get(0), t, signed);
    }
}
