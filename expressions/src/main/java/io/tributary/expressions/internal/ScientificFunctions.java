package io.tributary.expressions.internal;

import static io.tributary.schema.DataType.BOOLEAN;
import static io.tributary.schema.DataType.DOUBLE;
import static io.tributary.schema.DataType.INT;
import static io.tributary.schema.DataType.LONG;

import io.tributary.schema.DataType;
import io.tributary.schema.DataType.Kind;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.DoubleUnaryOperator;

/**
 * Spark 4.2's logarithms, trigonometric and hyperbolic functions, {@code factorial} and {@code width_bucket}: the
 * argument read as a DOUBLE (text cast as ANSI casts it), with the same {@link Math} or {@link StrictMath} call as
 * Spark's, so that the bits agree.
 */
final class ScientificFunctions {
    private static final long[] FACTORIALS = new long[21];

    static {
        FACTORIALS[0] = 1;
        for (int i = 1; i < FACTORIALS.length; i++) {
            FACTORIALS[i] = FACTORIALS[i - 1] * i;
        }
    }

    private ScientificFunctions() {
    }

    static void register(Consumer<FunctionDef> add) {
        add.accept(Fn.custom("log", 1, 2, "log([base DOUBLE, ]x DOUBLE) → DOUBLE", FunctionDef.NULL_IN_NULL_OUT,
                "the logarithm of x in base (e by default); null when base or x is 0 or below", ScientificFunctions::log));
        add.accept(nullable("log1p", "ln(1 + x); null for x of -1 and below", x -> x <= -1 ? null : StrictMath.log1p(x)));
        add.accept(unary("expm1", "e raised to the power x, minus 1", StrictMath::expm1));
        add.accept(constant("pi", "π", Math.PI));
        add.accept(constant("e", "Euler's number e", Math.E));
        add.accept(unary("degrees", "radians converted to degrees", Math::toDegrees));
        add.accept(unary("radians", "degrees converted to radians", Math::toRadians));
        add.accept(Fn.binary("hypot", "sqrt(a² + b²) without overflow in between", DOUBLE, DOUBLE, DOUBLE,
                (a, b) -> Math.hypot((Double) a, (Double) b)));
        add.accept(unary("rint", "the whole number nearest x as a DOUBLE, halves to the even one", Math::rint));
        add.accept(Fn.custom("isnan", 1, 1, "isnan(x DOUBLE) → BOOLEAN", "never null: false for null", "whether x is NaN",
                (call, args) -> call.applyTolerant(List.of(floating(call, args.get(0), DOUBLE)), BOOLEAN,
                        (Kernel.Unary) v -> v != null && Double.isNaN(((Number) v).doubleValue()))));
        add.accept(Fn.custom("nanvl", 2, 2, "nanvl(a DOUBLE or FLOAT, b) → DOUBLE, or FLOAT when both are", "null when a is null, b's when a is NaN",
                "a, or b when a is NaN (b evaluated only then)", ScientificFunctions::nanvl));
        add.accept(unary("sin", "the sine of x radians", Math::sin));
        add.accept(unary("cos", "the cosine of x radians", Math::cos));
        add.accept(unary("tan", "the tangent of x radians", Math::tan));
        add.accept(unary("cot", "the cotangent of x radians, 1 / tan(x)", x -> 1 / Math.tan(x)));
        add.accept(unary("sec", "the secant of x radians, 1 / cos(x)", x -> 1 / Math.cos(x)));
        add.accept(unary("csc", "the cosecant of x radians, 1 / sin(x)", x -> 1 / Math.sin(x)));
        add.accept(unary("asin", "the arc sine in radians; NaN outside [-1, 1]", Math::asin));
        add.accept(unary("acos", "the arc cosine in radians; NaN outside [-1, 1]", Math::acos));
        add.accept(unary("atan", "the arc tangent in radians", Math::atan));
        add.accept(Fn.binary("atan2", "the angle in radians of the point (x, y), atan2(y, x); -0.0 read as 0.0", DOUBLE, DOUBLE, DOUBLE,
                (y, x) -> Math.atan2((Double) y + 0.0, (Double) x + 0.0)));
        add.accept(unary("sinh", "the hyperbolic sine", Math::sinh));
        add.accept(unary("cosh", "the hyperbolic cosine", Math::cosh));
        add.accept(unary("tanh", "the hyperbolic tangent", Math::tanh));
        add.accept(unary("asinh", "the inverse hyperbolic sine", ScientificFunctions::asinh));
        add.accept(unary("acosh", "the inverse hyperbolic cosine; NaN below 1", ScientificFunctions::acosh));
        add.accept(unary("atanh", "the inverse hyperbolic tangent; NaN outside [-1, 1]", x -> 0.5 * (StrictMath.log1p(x) - StrictMath.log1p(-x))));
        add.accept(Fn.custom("factorial", 1, 1, "factorial(n INT) → BIGINT", FunctionDef.NULL_IN_NULL_OUT,
                "n!; null for n below 0 or above 20; another number cast to INT (CAST_OVERFLOW past its range)",
                (call, args) -> call.apply(List.of(number(call, args.get(0), INT)), LONG, (Kernel.Unary) v ->
                        (Integer) v < 0 || (Integer) v > 20 ? null : FACTORIALS[(Integer) v])));
        add.accept(Fn.custom("width_bucket", 4, 4, "width_bucket(v, min, max DOUBLE or one interval type, n BIGINT) → BIGINT", FunctionDef.NULL_IN_NULL_OUT,
                "the bucket of v among n equal buckets from min to max (0 below, n + 1 above); null for n ≤ 0, min = max, NaN or"
                        + " an infinite bound", ScientificFunctions::widthBucket));
    }

    /** A function of one DOUBLE to a DOUBLE; {@code f} gives null where Spark does. */
    private static FunctionDef nullable(String name, String doc, java.util.function.DoubleFunction<Double> f) {
        return Fn.unary(name, doc, DOUBLE, DOUBLE, v -> f.apply((Double) v));
    }

    private static FunctionDef unary(String name, String doc, DoubleUnaryOperator f) {
        return Fn.unary(name, doc, DOUBLE, DOUBLE, v -> f.applyAsDouble((Double) v));
    }

    private static FunctionDef constant(String name, String doc, double value) {
        return Fn.custom(name, 0, 0, name + "() → DOUBLE", "never null", doc + ", " + value,
                (call, args) -> new Bound.Literal(value, DOUBLE, call.text()));
    }

    private static Bound log(Analyzer.Call call, List<Bound> args) {
        if (args.size() == 1) {
            return call.apply(List.of(call.as(args.get(0), DOUBLE)), DOUBLE, (Kernel.Unary) v -> (Double) v <= 0 ? null : StrictMath.log((Double) v));
        }
        return call.apply(List.of(call.as(args.get(0), DOUBLE), call.as(args.get(1), DOUBLE)), DOUBLE, (Kernel.Binary) (b, x) ->
                (Double) b <= 0 || (Double) x <= 0 ? null : StrictMath.log((Double) x) / StrictMath.log((Double) b));
    }

    /** A number cast to {@code type} as Spark's implicit cast of a function's argument does (whatever its range); the rest as {@code as}. */
    private static Bound number(Analyzer.Call call, Bound x, DataType type) {
        return x.type() != null && Types.numeric(x.type()) ? call.castTo(x, type) : call.as(x, type);
    }

    /** x as a DOUBLE or FLOAT: a FLOAT stays one when {@code type} is FLOAT, anything else is cast as Spark casts it. */
    private static Bound floating(Analyzer.Call call, Bound x, DataType type) {
        return Types.is(x.type(), Kind.FLOAT) && type.kind() == Kind.FLOAT ? x : call.as(x, type);
    }

    private static Bound nanvl(Analyzer.Call call, List<Bound> args) {
        Bound a = args.get(0);
        Bound b = args.get(1);
        boolean floats = Types.is(a.type(), Kind.FLOAT) && (Types.is(b.type(), Kind.FLOAT) || b.type() == null);
        DataType t = floats ? DataType.FLOAT : DOUBLE;
        // Spark's NaNvl evaluates b only where a is NaN, so a b that would fail fails no other row
        Bound x = floating(call, a, t);
        Bound isNaN = call.applyTolerant(List.of(x), DataType.BOOLEAN, (Kernel.Unary) v -> v != null && Double.isNaN(((Number) v).doubleValue()));
        return new Bound.Case(List.of(isNaN), List.of(floating(call, b, t)), x, t, call.text());
    }

    private static Bound widthBucket(Analyzer.Call call, List<Bound> args) {
        List<Bound> bounds = args.subList(0, 3);
        DataType interval = null;
        for (Bound b : bounds) {
            if (Intervals.isInterval(b.type())) {
                interval = b.type();
            }
        }
        List<Bound> values;
        if (interval != null) {
            for (Bound b : bounds) {
                if (!Intervals.isInterval(b.type()) || Intervals.isDayTime(b.type()) != Intervals.isDayTime(interval)) {
                    throw call.typeError("the value and bounds of width_bucket must be all numbers or all intervals of one kind, and '"
                            + b.text() + "' is " + Types.name(b.type()));
                }
            }
            values = bounds;
        } else {
            values = bounds.stream().map(b -> call.as(b, DOUBLE)).toList();
        }
        List<Bound> all = new java.util.ArrayList<>(values);
        all.add(number(call, args.get(3), LONG));
        return call.apply(all, LONG, (Kernel) v -> bucket(((Number) v[0]).doubleValue(), ((Number) v[1]).doubleValue(),
                ((Number) v[2]).doubleValue(), (Long) v[3]));
    }

    /** Spark 4.2's Asinh, step for step (fdlibm's method). */
    static double asinh(double x) {
        double a = Math.abs(x);
        double w;
        if (Double.isInfinite(a) || Double.isNaN(a) || a < 3.725290298461914E-9) {
            w = a;
        } else if (a > 268435456) {
            w = StrictMath.log(a) + StrictMath.log(2.0);
        } else if (a > 2.0) {
            w = StrictMath.log(2.0 * a + 1 / (Math.sqrt(x * x + 1) + a));
        } else {
            double t = x * x;
            w = StrictMath.log1p(a + t / (1 + Math.sqrt(1 + t)));
        }
        return Math.copySign(w, x);
    }

    /** Spark 4.2's Acosh, step for step. */
    static double acosh(double x) {
        if (x < 1) {
            return Double.NaN;
        }
        if (x >= 268435456) {
            return StrictMath.log(x) + StrictMath.log(2.0);
        }
        if (x == 1) {
            return 0.0;
        }
        if (x > 2.0) {
            return StrictMath.log(2.0 * x - 1 / (x + Math.sqrt(x * x - 1)));
        }
        double t = x - 1;
        return StrictMath.log1p(t + Math.sqrt(2.0 * t + t * t));
    }

    /** Spark's WidthBucket.computeBucketNumberNotNull. */
    static Long bucket(double value, double min, double max, long n) {
        if (n <= 0 || n == Long.MAX_VALUE || Double.isNaN(value) || min == max || Double.isNaN(min) || Double.isInfinite(min)
                || Double.isNaN(max) || Double.isInfinite(max)) {
            return null;
        }
        double lower = Math.min(min, max);
        double upper = Math.max(min, max);
        if (min < max) {
            if (value < lower) {
                return 0L;
            }
            return value >= upper ? n + 1 : (long) (n * (value - lower) / (upper - lower)) + 1;
        }
        if (value > upper) {
            return 0L;
        }
        return value <= lower ? n + 1 : (long) (n * (upper - value) / (upper - lower)) + 1;
    }
}
