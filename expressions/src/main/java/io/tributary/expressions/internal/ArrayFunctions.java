package io.tributary.expressions.internal;

import static io.tributary.expressions.internal.HigherOrderFunctions.array;

import io.tributary.schema.DataType;
import io.tributary.schema.DataType.Kind;
import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.function.Consumer;

/**
 * Array functions as Spark 4.2 has them: array_join, array_max, array_min, sort_array, array_sort, slice, flatten,
 * array_repeat, arrays_zip, and concat and reverse of arrays. Sequences are {@link Sequences}; arrays as sets
 * {@link ArraySetFunctions}.
 */
final class ArrayFunctions {
    private ArrayFunctions() {
    }

    static void register(Consumer<FunctionDef> add) {
        add.accept(Fn.custom("array_join", 2, 3, "array_join(ARRAY<T>, delimiter STRING[, nullReplacement STRING]) → STRING",
                "null if any argument is null", "the elements as text joined by the delimiter, null elements skipped or replaced", (call, args) -> {
                    Bound a = ArraySetFunctions.asArray(call, array(call, args.get(0)), DataType.STRING);
                    List<Bound> cast = new ArrayList<>(List.of(a));
                    for (Bound b : args.subList(1, args.size())) { // Spark casts the elements to text, not the delimiter nor the replacement
                        if (b.type() != null && !Types.is(b.type(), Kind.STRING)) {
                            throw call.typeError("[DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE] array_join's delimiter and null replacement are STRING, and '"
                                    + b.text() + "' is " + Types.name(b.type()) + "; cast it: CAST(" + b.text() + " AS STRING)");
                        }
                        cast.add(call.as(b, DataType.STRING));
                    }
                    return call.apply(cast, DataType.STRING, v -> {
                        StringBuilder sb = new StringBuilder();
                        boolean first = true;
                        for (Object e : (List<?>) v[0]) {
                            Object text = e != null ? e : v.length > 2 ? v[2] : null;
                            if (text != null) {
                                sb.append(first ? "" : (String) v[1]).append((String) text);
                                first = false;
                            }
                        }
                        return sb.toString();
                    });
                }));
        add.accept(extreme("array_max", 1));
        add.accept(extreme("array_min", -1));
        add.accept(Fn.custom("sort_array", 1, 2, "sort_array(ARRAY<T>[, ascending BOOLEAN]) → ARRAY<T>", "null if the array or ascending is null",
                "the elements in ascending order, nulls first (descending: nulls last); NaN above every number", (call, args) -> {
                    Bound a = array(call, args.get(0));
                    Comparator<Object> order = Orderings.nullsFirst(Orderings.of(call, a.type().element()));
                    if (args.size() == 1) {
                        return call.apply(List.of(a), a.type(), (Kernel.Unary) v -> sorted((List<?>) v, order));
                    }
                    Object ascending = constantOrder(args.get(1));
                    if (ascending == null) {
                        return new Bound.Literal(null, a.type(), call.text());
                    }
                    if (!(ascending instanceof Boolean asc)) {
                        throw call.typeError("the second argument of sort_array must be true or false, and it is '" + args.get(1).text() + "'");
                    }
                    Comparator<Object> o = asc ? order : order.reversed();
                    return call.apply(List.of(a), a.type(), (Kernel.Unary) v -> sorted((List<?>) v, o));
                }));
        add.accept(Fn.custom("array_sort", 1, 2, "array_sort(ARRAY<T>[, (a T, b T) -> INT]) → ARRAY<T>", "null if the array is null",
                "the elements in ascending order, nulls last; or in the comparator's order (negative: a first), a stable sort",
                ArrayFunctions::arraySort));
        add.accept(Fn.custom("slice", 3, 3, "slice(ARRAY<T>, start INT, length INT) → ARRAY<T>", FunctionDef.NULL_IN_NULL_OUT,
                "length elements from the 1-based start (negative: from the end); INVALID_PARAMETER_VALUE for start 0 or a negative length",
                (call, args) -> {
                    Bound a = array(call, args.get(0));
                    List<Bound> cast = List.of(a, call.as(args.get(1), DataType.INT), call.as(args.get(2), DataType.INT));
                    return call.apply(cast, a.type(), v -> slice((List<?>) v[0], (Integer) v[1], (Integer) v[2]));
                }));
        add.accept(Fn.custom("flatten", 1, 1, "flatten(ARRAY<ARRAY<T>>) → ARRAY<T>", "null if the array or one of its arrays is null",
                "the inner arrays' elements one after another", (call, args) -> {
                    Bound a = array(call, args.get(0));
                    if (!Types.is(a.type().element(), Kind.ARRAY)) {
                        throw call.typeError("flatten needs an ARRAY of ARRAYs, and '" + a.text() + "' is " + Types.name(a.type()));
                    }
                    return call.apply(List.of(a), a.type().element(), (Kernel.Unary) v -> {
                        List<Object> out = new ArrayList<>();
                        for (Object inner : (List<?>) v) {
                            if (inner == null) {
                                return null;
                            }
                            out.addAll((List<?>) inner);
                        }
                        return out;
                    });
                }));
        add.accept(Fn.custom("array_repeat", 2, 2, "array_repeat(element T, count INT) → ARRAY<T>", "null if count is null; a null element repeated",
                "the element count times (none for a count below 1)", (call, args) -> {
                    Bound e = args.get(0);
                    return call.applyTolerant(List.of(e, call.as(args.get(1), DataType.INT)), Types.arrayOf(e.type()), v -> v[1] == null ? null
                            : new ArrayList<>(Collections.nCopies(Math.max(0, (Integer) v[1]), v[0])));
                }));
        add.accept(Fn.custom("arrays_zip", 1, -1, "arrays_zip(ARRAY<T>, ARRAY<U>, ...) → ARRAY<STRUCT<...>>", FunctionDef.NULL_IN_NULL_OUT,
                "structs of the elements at each index, the shorter arrays padded with nulls; a field is named after its column, else by"
                        + " its position", ArrayFunctions::zip));
    }

    static boolean anyArray(List<Bound> args) {
        return args.stream().anyMatch(b -> Types.is(b.type(), Kind.ARRAY));
    }

    static Bound concat(Analyzer.Call call, List<Bound> args) {
        List<Bound> arrays = ArraySetFunctions.common(call, args);
        return call.apply(arrays, arrays.get(0).type(), v -> {
            List<Object> out = new ArrayList<>();
            for (Object a : v) {
                out.addAll((List<?>) a);
            }
            return out;
        });
    }

    static Bound reverse(Analyzer.Call call, Bound a) {
        return call.apply(List.of(a), a.type(), (Kernel.Unary) v -> {
            List<Object> out = new ArrayList<>((List<?>) v);
            Collections.reverse(out);
            return out;
        });
    }

    /**
     * sort_array's order: a BOOLEAN constant's value (Spark takes any foldable one, {@code CAST(NULL AS BOOLEAN)} or
     * {@code 1 = 1}), or a marker that is no BOOLEAN where it is none or fails.
     */
    private static Object constantOrder(Bound order) {
        if (order instanceof Bound.Literal l) {
            return l.value();
        }
        if ((order.type() == null || order.type().kind() == DataType.Kind.BOOLEAN) && Folding.deterministicConstant(order)) {
            try {
                return Folding.value(order);
            } catch (RuntimeException fails) {
                return order;
            }
        }
        return order;
    }

    private static FunctionDef extreme(String name, int sign) {
        return Fn.custom(name, 1, 1, name + "(ARRAY<T>) → T", "null if the array is null, empty or all null",
                (sign > 0 ? "the greatest" : "the least") + " non-null element; NaN above every number", (call, args) -> {
                    Bound a = array(call, args.get(0));
                    Comparator<Object> order = Orderings.of(call, a.type().element());
                    return call.apply(List.of(a), Types.element(a.type()), (Kernel.Unary) v -> {
                        Object best = null;
                        for (Object e : (List<?>) v) {
                            if (e != null && (best == null || sign * order.compare(e, best) > 0)) {
                                best = e;
                            }
                        }
                        return best;
                    });
                });
    }

    private static Bound arraySort(Analyzer.Call call, List<Bound> args) {
        Bound a = array(call, args.get(0));
        DataType element = a.type().element();
        if (args.size() == 1) {
            Comparator<Object> order = Orderings.of(call, element);
            Comparator<Object> nullsLast = (x, y) -> x == null ? (y == null ? 0 : 1) : y == null ? -1 : order.compare(x, y);
            return call.apply(List.of(a), a.type(), (Kernel.Unary) v -> sorted((List<?>) v, nullsLast));
        }
        Bound.Lambda f = call.lambda(1, List.of(element, element), 2);
        if (!Types.is(f.type(), Kind.INT)) {
            throw call.typeError("the comparator of array_sort must give an INT, and '" + f.text() + "' gives " + Types.name(f.type()));
        }
        return call.higherOrder(List.of(a), 1, List.of(f), a.type(), (v, fn) -> sorted((List<?>) v[0], (x, y) -> {
            Object c = fn[0].call(x, y);
            if (c == null) {
                throw Failure.of("COMPARATOR_RETURNS_NULL", "the comparator gave null comparing " + x + " and " + y);
            }
            return (Integer) c;
        }));
    }

    private static List<Object> sorted(List<?> in, Comparator<Object> order) {
        List<Object> out = new ArrayList<>(in);
        out.sort(order);
        return out;
    }

    private static List<Object> slice(List<?> a, int start, int length) {
        if (start == 0) {
            throw Failure.of("INVALID_PARAMETER_VALUE.START", "slice counts from 1 (or from -1 at the end), not 0");
        }
        if (length < 0) {
            throw Failure.of("INVALID_PARAMETER_VALUE.LENGTH", "slice needs a length of 0 or more, not " + length);
        }
        int from = start < 0 ? start + a.size() : start - 1;
        if (from < 0 || from >= a.size()) {
            return new ArrayList<>();
        }
        return new ArrayList<>(a.subList(from, from + Math.min(length, a.size() - from)));
    }

    private static Bound zip(Analyzer.Call call, List<Bound> args) {
        List<Field> fields = new ArrayList<>();
        boolean nullArgument = false;
        for (int i = 0; i < args.size(); i++) {
            Bound a = args.get(i);
            nullArgument |= a.type() == null;
            DataType element = a.type() == null ? Types.VOID : array(call, a).type().element();
            String name = a instanceof Bound.Column c && c.path().length == 0 ? c.text() : Integer.toString(i);
            fields.add(new Field(name, element, true));
        }
        if (nullArgument) {
            return new Bound.Literal(null, Types.arrayOf(DataType.struct(new Schema(fields))), call.text());
        }
        return call.apply(args, Types.arrayOf(DataType.struct(new Schema(fields))), v -> {
            int n = 0;
            for (Object a : v) {
                n = Math.max(n, ((List<?>) a).size());
            }
            List<Object> out = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                Object[] row = new Object[v.length];
                for (int j = 0; j < v.length; j++) {
                    List<?> a = (List<?>) v[j];
                    row[j] = i < a.size() ? a.get(i) : null;
                }
                out.add(row);
            }
            return out;
        });
    }
}
