package io.tributary.expressions.internal;

import io.tributary.schema.DataType;
import io.tributary.schema.DataType.Kind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The higher-order functions, whose arguments include lambda functions: transform, filter, exists, forall,
 * aggregate and reduce, zip_with, map_filter, transform_keys, transform_values, and array_sort with a comparator.
 */
final class HigherOrderFunctions {
    private static final Set<String> NAMES = Set.of("transform", "filter", "exists", "forall", "aggregate", "reduce", "zip_with",
            "map_filter", "transform_keys", "transform_values", "array_sort");

    private HigherOrderFunctions() {
    }

    /** Whether the function named so takes lambda functions among its arguments. */
    static boolean takesLambdas(String name) {
        return NAMES.contains(name) || name.equals(MapZipWith.NAME);
    }

    static void register(Consumer<FunctionDef> add) {
        add.accept(Fn.custom("transform", 2, 2, "transform(ARRAY<T>, (x T[, i INT]) -> U) → ARRAY<U>", "null if the array is null",
                "the lambda's value for each element (and its 0-based index)", (call, args) -> {
                    Bound arr = array(call, args.get(0));
                    Bound.Lambda f = call.lambda(1, Arrays.asList(Types.element(arr.type()), DataType.INT), 1);
                    return call.higherOrder(List.of(arr), 1, List.of(f), Types.arrayOf(f.type()), (a, fn) -> {
                        List<?> in = (List<?>) a[0];
                        List<Object> out = new ArrayList<>(in.size());
                        for (int i = 0; i < in.size(); i++) {
                            out.add(fn[0].call(in.get(i), i));
                        }
                        return out;
                    });
                }));
        add.accept(Fn.custom("filter", 2, 2, "filter(ARRAY<T>, (x T[, i INT]) -> BOOLEAN) → ARRAY<T>", "null if the array is null",
                "the elements for which the lambda is true", (call, args) -> {
                    Bound arr = array(call, args.get(0));
                    Bound.Lambda f = predicate(call, call.lambda(1, Arrays.asList(Types.element(arr.type()), DataType.INT), 1));
                    return call.higherOrder(List.of(arr), 1, List.of(f), arr.type(), (a, fn) -> {
                        List<?> in = (List<?>) a[0];
                        List<Object> out = new ArrayList<>();
                        for (int i = 0; i < in.size(); i++) {
                            if (Boolean.TRUE.equals(fn[0].call(in.get(i), i))) {
                                out.add(in.get(i));
                            }
                        }
                        return out;
                    });
                }));
        add.accept(quantifier("exists", true));
        add.accept(quantifier("forall", false));
        FunctionDef aggregate = Fn.custom("aggregate", 3, 4, "aggregate(ARRAY<T>, zero A, (acc A, x T) -> A[, acc A -> R]) → A or R",
                "null if the array is null", "folds the elements into zero from the first to the last, then applies finish", HigherOrderFunctions::aggregate);
        add.accept(aggregate);
        add.accept(Fn.alias("reduce", aggregate));
        add.accept(Fn.custom("zip_with", 3, 3, "zip_with(ARRAY<T>, ARRAY<U>, (x T, y U) -> V) → ARRAY<V>", "null if either array is null",
                "the lambda over the elements at each index, the shorter array padded with nulls", (call, args) -> {
                    Bound l = array(call, args.get(0));
                    Bound r = array(call, args.get(1));
                    Bound.Lambda f = call.lambda(2, Arrays.asList(Types.element(l.type()), Types.element(r.type())), 2);
                    return call.higherOrder(List.of(l, r), 2, List.of(f), Types.arrayOf(f.type()), (a, fn) -> {
                        List<?> x = (List<?>) a[0];
                        List<?> y = (List<?>) a[1];
                        int n = Math.max(x.size(), y.size());
                        List<Object> out = new ArrayList<>(n);
                        for (int i = 0; i < n; i++) {
                            out.add(fn[0].call(i < x.size() ? x.get(i) : null, i < y.size() ? y.get(i) : null));
                        }
                        return out;
                    });
                }));
        add.accept(Fn.custom("map_filter", 2, 2, "map_filter(MAP<K, V>, (k K, v V) -> BOOLEAN) → MAP<K, V>",
                "null if the map is null", "the entries for which the lambda is true", (call, args) -> {
                    Bound m = map(call, args.get(0));
                    Bound.Lambda f = predicate(call, call.lambda(1, Arrays.asList(m.type().keyType(), Types.element(m.type())), 2));
                    return call.higherOrder(List.of(m), 1, List.of(f), m.type(), (a, fn) -> {
                        Map<Object, Object> out = new LinkedHashMap<>();
                        for (Map.Entry<?, ?> e : ((Map<?, ?>) a[0]).entrySet()) {
                            if (Boolean.TRUE.equals(fn[0].call(e.getKey(), e.getValue()))) {
                                out.put(e.getKey(), e.getValue());
                            }
                        }
                        return out;
                    });
                }));
        add.accept(Fn.custom("transform_values", 2, 2, "transform_values(MAP<K, V>, (k K, v V) -> W) → MAP<K, W>",
                "null if the map is null", "each entry's value replaced by the lambda's", (call, args) -> {
                    Bound m = map(call, args.get(0));
                    Bound.Lambda f = call.lambda(1, Arrays.asList(m.type().keyType(), Types.element(m.type())), 2);
                    return call.higherOrder(List.of(m), 1, List.of(f), Types.mapOf(m.type().keyType(), f.type()), (a, fn) -> {
                        Map<Object, Object> out = new LinkedHashMap<>();
                        for (Map.Entry<?, ?> e : ((Map<?, ?>) a[0]).entrySet()) {
                            out.put(e.getKey(), fn[0].call(e.getKey(), e.getValue()));
                        }
                        return out;
                    });
                }));
        add.accept(Fn.custom("transform_keys", 2, 2, "transform_keys(MAP<K, V>, (k K, v V) -> J) → MAP<J, V>",
                "null if the map is null; NULL_MAP_KEY if the lambda gives null", "each entry's key replaced by the lambda's;"
                        + " DUPLICATED_MAP_KEY when two entries get one key", (call, args) -> {
                    Bound m = map(call, args.get(0));
                    Bound.Lambda f = call.lambda(1, Arrays.asList(m.type().keyType(), Types.element(m.type())), 2);
                    DataType keyType = MapFunctions.keyType(call, f.type());
                    return call.higherOrder(List.of(m), 1, List.of(f), Types.mapOf(keyType, Types.element(m.type())), (a, fn) -> {
                        Map<Object, Object> out = new LinkedHashMap<>();
                        for (Map.Entry<?, ?> e : ((Map<?, ?>) a[0]).entrySet()) {
                            Object k = fn[0].call(e.getKey(), e.getValue());
                            MapFunctions.put(out, k, e.getValue());
                        }
                        return out;
                    });
                }));
    }

    private static FunctionDef quantifier(String name, boolean exists) {
        return Fn.custom(name, 2, 2, name + "(ARRAY<T>, x T -> BOOLEAN) → BOOLEAN", "null if the array is null, or if no element decides and the lambda"
                + " gave null for one", exists ? "whether the lambda is true for some element" : "whether the lambda is true for every element",
                (call, args) -> {
                    Bound arr = array(call, args.get(0));
                    Bound.Lambda f = predicate(call, call.lambda(1, Arrays.asList(Types.element(arr.type())), 1));
                    return call.higherOrder(List.of(arr), 1, List.of(f), DataType.BOOLEAN, (a, fn) -> {
                        boolean sawNull = false;
                        for (Object e : (List<?>) a[0]) {
                            Object v = fn[0].call(e);
                            if (v == null) {
                                sawNull = true;
                            } else if ((Boolean) v == exists) {
                                return exists;
                            }
                        }
                        return sawNull ? null : !exists;
                    });
                });
    }

    private static Bound aggregate(Analyzer.Call call, List<Bound> args) {
        Bound arr = array(call, args.get(0));
        Bound zero = args.get(1);
        if (zero == null) {
            throw call.typeError("the start value of " + call.name() + " is a value, not a lambda function");
        }
        Bound.Lambda merge = call.lambda(2, Arrays.asList(zero.type(), Types.element(arr.type())), 2);
        if (!java.util.Objects.equals(merge.type(), zero.type())) {
            throw call.typeError("the merge function of " + call.name() + " gives " + Types.name(merge.type()) + " and the start value '" + zero.text()
                    + "' is " + Types.name(zero.type()) + "; they must be of one type: cast the start value");
        }
        List<Bound.Lambda> fns = new ArrayList<>(List.of(merge));
        if (args.size() == 4) {
            fns.add(call.lambda(3, Arrays.asList(zero.type()), 1));
        }
        DataType type = fns.get(fns.size() - 1).type();
        boolean finish = fns.size() == 2;
        return call.higherOrder(List.of(arr, zero), 1, fns, type, (a, fn) -> {
            Object acc = a[1];
            for (Object e : (List<?>) a[0]) {
                acc = fn[0].call(acc, e);
            }
            return finish ? fn[1].call(acc) : acc;
        });
    }

    private static Bound.Lambda predicate(Analyzer.Call call, Bound.Lambda f) {
        if (f.type() != null && !Types.is(f.type(), Kind.BOOLEAN)) {
            throw call.typeError("the lambda function of " + call.name() + " must give a BOOLEAN, and '" + f.text() + "' gives " + Types.name(f.type()));
        }
        return f;
    }

    static Bound array(Analyzer.Call call, Bound x) {
        if (x == null || !Types.is(x.type(), Kind.ARRAY)) {
            throw call.typeError("the arguments of " + call.name() + " must be ARRAYs, and it is "
                    + (x == null ? "a lambda function" : "'" + x.text() + "' of " + Types.name(x.type())));
        }
        return x;
    }

    private static Bound map(Analyzer.Call call, Bound x) {
        if (x == null || !Types.is(x.type(), Kind.MAP)) {
            throw call.typeError("the first argument of " + call.name() + " must be a MAP, and it is "
                    + (x == null ? "a lambda function" : "'" + x.text() + "' of " + Types.name(x.type())));
        }
        return x;
    }
}
