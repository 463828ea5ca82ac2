package io.tributary.expressions.internal;

import io.tributary.schema.DataType;
import io.tributary.schema.Field;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Spark 4.2's {@code try_} arithmetic, which gives null where the operator fails under ANSI mode, and the small
 * null-handling helpers {@code zeroifnull}, {@code nullifzero}, {@code equal_null} and {@code typeof}.
 *
 * <p>As Spark's: between two numbers only the operation itself is tried (a failing argument still fails the row);
 * with text, dates, timestamps or intervals the whole call is tried, its arguments too (Spark's {@code TryEval}).
 */
final class TryArithmetic {
    private TryArithmetic() {
    }

    static void register(Consumer<FunctionDef> add) {
        add.accept(tried("try_add", "+", "a + b, or null where it fails (overflow); numbers, a DATE plus days, a DATE or TIMESTAMP plus an interval,"
                + " two intervals"));
        add.accept(tried("try_subtract", "-", "a - b, or null where it fails (overflow); as try_add, and DATE - DATE, TIMESTAMP - TIMESTAMP"));
        add.accept(tried("try_multiply", "*", "a * b, or null where it fails (overflow); an interval times a number too"));
        add.accept(tried("try_divide", "/", "a / b, or null where it fails (division by zero, overflow); an interval divided by a number too"));
        add.accept(tried("try_mod", "%", "a % b, or null where it fails (division by zero)"));
        add.accept(Fn.custom("zeroifnull", 1, 1, "zeroifnull(n NUMERIC) → the common type of n and INT", "never null", "n, or 0 when n is null",
                (call, args) -> FunctionRegistry.get("coalesce").resolver().resolve(call, List.of(args.get(0), zero()))));
        add.accept(Fn.custom("nullifzero", 1, 1, "nullifzero(n NUMERIC) → the type of n", "null when n is null", "n, or null when n is 0",
                (call, args) -> FunctionRegistry.get("nullif").resolver().resolve(call, List.of(args.get(0), zero()))));
        add.accept(Fn.custom("equal_null", 2, 2, "equal_null(a T, b T) → BOOLEAN", "never null: true when both are null",
                "a <=> b: whether a equals b, nulls equal to each other", TryArithmetic::equalNull));
        add.accept(Fn.custom("typeof", 1, 1, "typeof(x) → STRING", "never null", "the name of x's type as Spark prints it (int, decimal(10,2),"
                + " struct<x:int,y:string>, interval day ...); x is not evaluated",
                (call, args) -> new Bound.Literal(catalogName(args.get(0).type()), DataType.STRING, call.text())));
    }

    private static Bound zero() {
        return new Bound.Literal(0, DataType.INT, "0");
    }

    private static FunctionDef tried(String name, String op, String doc) {
        return Fn.custom(name, 2, 2, name + "(a, b) → as a " + op + " b", "null if any argument is null, or where the operation fails", doc,
                (call, args) -> {
                    Bound resolved = Arithmetic.resolve(call, op, args);
                    boolean numbers = args.stream().allMatch(a -> a.type() != null && Types.numeric(a.type()));
                    if (numbers && (op.equals("/") || op.equals("%")) && args.get(1) instanceof Bound.Literal z && z.value() instanceof Number n
                            && (n instanceof Double || n instanceof Float ? n.doubleValue() == 0 : new java.math.BigDecimal(n.toString()).signum() == 0)) { // Spark's TRY division reads the divisor first: by 0, null, a unread
                        return new Bound.Literal(null, resolved.type(), call.text());
                    }
                    if (!numbers) {
                        return new Bound.Try(resolved); // Spark's TryEval: any failure of the call or its arguments gives null
                    }
                    Map<Bound, Boolean> arguments = new IdentityHashMap<>();
                    args.forEach(a -> arguments.put(a, true));
                    return tried(call, resolved, arguments);
                });
    }

    /** {@code node} with every application up to {@code arguments} giving null where it fails. */
    private static Bound tried(Analyzer.Call call, Bound node, Map<Bound, Boolean> arguments) {
        if (arguments.containsKey(node) || node instanceof Bound.Literal || node instanceof Bound.Column) {
            return node;
        }
        if (!(node instanceof Bound.Apply a)) {
            throw call.typeError("'" + node.text() + "' inside " + call.name() + " is not supported yet; compute it in a column first");
        }
        List<Bound> args = a.args().stream().map(b -> tried(call, b, arguments)).toList();
        return new Bound.Apply(a.name(), args, catching(a.kernel()), a.nullTolerant(), a.type(), a.text());
    }

    private static Kernel catching(Kernel k) {
        if (k instanceof Kernel.Unary u) {
            return (Kernel.Unary) x -> {
                try {
                    return u.apply1(x);
                } catch (Failure | ArithmeticException e) {
                    return null;
                }
            };
        }
        if (k instanceof Kernel.Binary b) {
            return (Kernel.Binary) (x, y) -> {
                try {
                    return b.apply2(x, y);
                } catch (Failure | ArithmeticException e) {
                    return null;
                }
            };
        }
        return (Kernel) v -> {
            try {
                return k.apply(v);
            } catch (Failure | ArithmeticException e) {
                return null;
            }
        };
    }

    private static Bound equalNull(Analyzer.Call call, List<Bound> args) {
        DataType common = Predicates.comparable(call, args);
        if (common == null) {
            return new Bound.Literal(args.get(0).type() == args.get(1).type(), DataType.BOOLEAN, call.text());
        }
        Comparator<Object> order = Predicates.ordering(common);
        return call.applyTolerant(List.of(call.as(args.get(0), common), call.as(args.get(1), common)), DataType.BOOLEAN,
                (Kernel.Binary) (a, b) -> a == null || b == null ? a == b : order.compare(a, b) == 0);
    }

    /** Spark's {@code DataType.catalogString}: lower case, no spaces after commas, struct fields as name:type. */
    static String catalogName(DataType t) {
        if (t == null || t.equals(Types.VOID)) {
            return "void";
        }
        if (Intervals.isInterval(t) || Times.isTime(t)) {
            return Types.name(t).toLowerCase(Locale.ROOT);
        }
        if (CalendarIntervals.isCalendar(t)) {
            return "interval";
        }
        return switch (t.kind()) {
            case ARRAY -> "array<" + catalogName(t.element()) + ">";
            case MAP -> "map<" + catalogName(t.keyType()) + "," + catalogName(t.valueType()) + ">";
            case STRUCT -> {
                StringBuilder sb = new StringBuilder("struct<");
                for (Field f : t.struct().fields()) {
                    sb.append(sb.length() > "struct<".length() ? "," : "").append(f.name()).append(':').append(catalogName(f.type()));
                }
                yield sb.append('>').toString();
            }
            default -> t.ddl().toLowerCase(Locale.ROOT).replace(", ", ",");
        };
    }
}
