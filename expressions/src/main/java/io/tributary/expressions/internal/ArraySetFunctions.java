package io.tributary.expressions.internal;


import io.tributary.schema.DataType;
import io.tributary.schema.DataType.Kind;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Arrays as sets, as Spark 4.2 treats them: array_distinct, array_union, array_intersect, array_except, arrays_overlap,
 * array_position, array_remove. Elements are equal as {@link Orderings#key} says (NaN equals NaN); a null element is one
 * value among the others; the result keeps the order of first appearance.
 */
final class ArraySetFunctions {
    private ArraySetFunctions() {
    }

    static void register(Consumer<FunctionDef> add) {
        add.accept(Fn.custom("array_distinct", 1, 1, "array_distinct(ARRAY<T>) → ARRAY<T>", FunctionDef.NULL_IN_NULL_OUT,
                "the elements without repeats, in their first order, one null kept", (call, args) -> {
                    Bound a = array(call, args.get(0));
                    return call.apply(List.of(a), a.type(), (Kernel.Unary) v -> distinct((List<?>) v, List.of()));
                }));
        add.accept(setOperation("array_union", "the elements of either array without repeats, the first's first",
                ArraySetFunctions::distinct));
        add.accept(setOperation("array_intersect", "the elements of the first array also in the second, without repeats",
                (x, y) -> filter(x, y, true)));
        add.accept(setOperation("array_except", "the elements of the first array not in the second, without repeats",
                (x, y) -> filter(x, y, false)));
        add.accept(Fn.custom("arrays_overlap", 2, 2, "arrays_overlap(ARRAY<T>, ARRAY<T>) → BOOLEAN",
                "null if either is null, or if none is shared, both are non-empty and one holds a null",
                "whether the arrays share a non-null element", (call, args) -> {
                    List<Bound> both = common(call, args.stream().map(b -> array(call, b)).toList());
                    return call.apply(both, DataType.BOOLEAN, (Kernel.Binary) (a, b) -> {
                        List<?> x = (List<?>) a;
                        List<?> y = (List<?>) b;
                        Set<Object> keys = keys(x);
                        boolean sawNull = keys.contains(null);
                        for (Object e : y) {
                            if (e == null) {
                                sawNull = true;
                            } else if (keys.contains(Orderings.key(e))) {
                                return true;
                            }
                        }
                        return sawNull && !x.isEmpty() && !y.isEmpty() ? null : false;
                    });
                }));
        add.accept(Fn.custom("array_position", 2, 2, "array_position(ARRAY<T>, value T) → BIGINT", FunctionDef.NULL_IN_NULL_OUT,
                "the 1-based position of the value's first appearance, 0 if it does not appear", (call, args) -> {
                    List<Bound> both = arrayAndValue(call, array(call, args.get(0)), args.get(1));
                    return call.apply(both, DataType.LONG, (Kernel.Binary) (l, x) -> {
                        Object k = Orderings.key(x);
                        List<?> list = (List<?>) l;
                        for (int i = 0; i < list.size(); i++) {
                            if (list.get(i) != null && Orderings.key(list.get(i)).equals(k)) {
                                return (long) i + 1;
                            }
                        }
                        return 0L;
                    });
                }));
        add.accept(Fn.custom("array_remove", 2, 2, "array_remove(ARRAY<T>, value T) → ARRAY<T>", FunctionDef.NULL_IN_NULL_OUT,
                "the array without the elements equal to the value (null elements kept)", (call, args) -> {
                    List<Bound> both = arrayAndValue(call, array(call, args.get(0)), args.get(1));
                    Bound a = both.get(0);
                    Bound v = both.get(1);
                    // an array of nulls only (ARRAY<VOID>) takes the value's type, as Spark's coercion widens it
                    DataType type = a.type().element().equals(Types.VOID) && v.type() != null ? Types.arrayOf(v.type()) : a.type();
                    return call.apply(both, type, (Kernel.Binary) (l, x) -> {
                        Object k = Orderings.key(x);
                        List<Object> out = new ArrayList<>();
                        for (Object e : (List<?>) l) {
                            if (e == null || !Orderings.key(e).equals(k)) {
                                out.add(e);
                            }
                        }
                        return out;
                    });
                }));
    }

    private interface SetOperation {
        List<Object> apply(List<?> x, List<?> y);
    }

    private static FunctionDef setOperation(String name, String doc, SetOperation op) {
        return Fn.custom(name, 2, 2, name + "(ARRAY<T>, ARRAY<T>) → ARRAY<T>", FunctionDef.NULL_IN_NULL_OUT, doc, (call, args) -> {
            List<Bound> both = common(call, args.stream().map(b -> array(call, b)).toList());
            return call.apply(both, both.get(0).type(), (Kernel.Binary) (a, b) -> op.apply((List<?>) a, (List<?>) b));
        });
    }

    private static List<Object> distinct(List<?> x, List<?> y) {
        Set<Object> seen = new HashSet<>();
        List<Object> out = new ArrayList<>();
        for (List<?> l : List.of(x, y)) {
            for (Object e : l) {
                if (seen.add(e == null ? null : Orderings.key(e))) {
                    out.add(e);
                }
            }
        }
        return out;
    }

    private static List<Object> filter(List<?> x, List<?> y, boolean keep) {
        Set<Object> other = keys(y);
        Set<Object> seen = new HashSet<>();
        List<Object> out = new ArrayList<>();
        for (Object e : x) {
            Object k = e == null ? null : Orderings.key(e);
            if (other.contains(k) == keep && seen.add(k)) {
                out.add(e);
            }
        }
        return out;
    }

    private static Set<Object> keys(List<?> l) {
        Set<Object> keys = new LinkedHashSet<>();
        for (Object e : l) {
            keys.add(e == null ? null : Orderings.key(e));
        }
        return keys;
    }

    /** {@code x}, an ARRAY whose elements have an equality: a type error for one holding INTERVALs, as Spark refuses them. */
    private static Bound array(Analyzer.Call call, Bound x) {
        Bound a = HigherOrderFunctions.array(call, x);
        if (CalendarIntervals.holdsCalendar(a.type())) {
            throw call.typeError("[DATATYPE_MISMATCH.INVALID_ORDERING_TYPE] " + call.name() + " cannot compare the elements of " + Types.name(a.type())
                    + ": Spark gives an INTERVAL of months, days and microseconds no equality");
        }
        return a;
    }

    /** The value looked for, as the array's element type; a type error when it has none in common. */
    /**
     * The array and the value, both as the type Spark's {@code findTightestCommonType} gives the element and the value
     * ({@code array_position(arr, l)} reads {@code arr} as {@code ARRAY<BIGINT>}); a type error where there is none.
     */
    static List<Bound> arrayAndValue(Analyzer.Call call, Bound array, Bound value) {
        return arrayAndValue(call, array, value, false);
    }

    /** As {@link #arrayAndValue(Analyzer.Call, Bound, Bound)}; {@code wider}: two numbers meet as {@link Types#common} (array_contains(arr, 1.5)). */
    static List<Bound> arrayAndValue(Analyzer.Call call, Bound array, Bound value, boolean wider) {
        DataType e = array.type().element();
        if (e.equals(Types.VOID) || value.type() == null) {
            return List.of(array, e.equals(Types.VOID) ? value : call.as(value, e)); // an array of nulls only equals nothing
        }
        DataType to = wider && Types.numeric(e) && Types.numeric(value.type()) ? Types.common(e, value.type()) : Types.tightest(e, value.type());
        if (to == null && Types.voidFits(value.type(), e)) {
            to = e;
        }
        if (to == null) {
            throw call.typeError("[DATATYPE_MISMATCH.ARRAY_FUNCTION_DIFF_TYPES] '" + value.text() + "' is " + Types.name(value.type())
                    + ", and the array's elements are " + Types.name(e));
        }
        return List.of(to.equals(e) ? array : asArray(call, array, to), call.as(value, to));
    }

    /**
     * The arrays with the element type they meet in: one type, or numbers widened; a type error naming the function when they
     * meet in none, or one is NULL, as Spark refuses them.
     */
    static List<Bound> common(Analyzer.Call call, List<Bound> args) {
        DataType element = null;
        for (Bound b : args) {
            HigherOrderFunctions.array(call, b);
            DataType e = b.type().element();
            DataType next = element == null ? e : Types.numeric(element) && Types.numeric(e) ? Types.common(element, e)
                    : Types.voidFits(e, element) ? element : Types.voidFits(element, e) ? e : null;
            if (next == null) {
                throw call.typeError(call.name() + " needs arrays of one element type, and the arguments are "
                        + String.join(", ", args.stream().map(a -> Types.name(a.type())).toList()));
            }
            element = next;
        }
        DataType to = element;
        return args.stream().map(b -> asArray(call, b, to)).toList();
    }

    /** {@code b}, an ARRAY, with its elements cast to {@code element}. */
    static Bound asArray(Analyzer.Call call, Bound b, DataType element) {
        DataType to = Types.arrayOf(element);
        if (b.type() == null || Types.voidFits(b.type(), to)) {
            return call.as(b, to);
        }
        DataType from = b.type().element();
        if (!Analyzer.implicitlyCastable(from, element) && !(from.kind() == Kind.STRING && element.kind() != Kind.STRING)) {
            throw call.typeError("'" + b.text() + "' is " + Types.name(b.type()) + " where " + to.ddl() + " is expected");
        }
        Kernel.Unary cast = Casts.kernel(from, element);
        return new Bound.Apply("cast", List.of(b), (Kernel.Unary) v -> {
            List<Object> out = new ArrayList<>();
            for (Object e : (List<?>) v) {
                out.add(e == null ? null : cast.apply1(e));
            }
            return out;
        }, false, to, b.text());
    }
}
