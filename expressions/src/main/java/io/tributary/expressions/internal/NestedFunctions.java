package io.tributary.expressions.internal;

import io.tributary.schema.DataType;
import io.tributary.schema.DataType.Kind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/** Arrays and maps: subscripts, element_at, size, array_contains, array, map, map_keys, map_values. */
final class NestedFunctions {
    private NestedFunctions() {
    }

    static void register(Consumer<FunctionDef> add) {
        add.accept(Fn.custom("[]", 2, 2, "arr[i INT] → element, map[key K] → value", FunctionDef.NULL_IN_NULL_OUT,
                "an array's element by 0-based index (INVALID_ARRAY_INDEX past its end), a map's value by key (null if absent)",
                (call, args) -> element(call, args, false)));
        add.accept(Fn.custom("element_at", 2, 2, "element_at(arr, i INT) → element, element_at(map, key K) → value",
                FunctionDef.NULL_IN_NULL_OUT, "an array's element by 1-based index (negative from the end; INVALID_ARRAY_INDEX_IN_ELEMENT_AT"
                        + " past its end), a map's value by key (null if absent)", (call, args) -> element(call, args, true)));
        add.accept(Fn.custom("size", 1, 1, "size(ARRAY or MAP) → INT", FunctionDef.NULL_IN_NULL_OUT, "the number of elements or entries",
                (call, args) -> {
                    if (args.get(0).type() == null) {
                        return new Bound.Literal(null, DataType.INT, call.text());
                    }
                    Bound x = nested(call, args.get(0));
                    return call.apply(List.of(x), DataType.INT, (Kernel.Unary) v -> v instanceof List<?> l ? l.size() : ((Map<?, ?>) v).size());
                }));
        add.accept(Fn.custom("array_contains", 2, 2, "array_contains(ARRAY<T>, value T) → BOOLEAN",
                "null if either is null, or if the value is not found and the array holds a null", "whether the array holds the value",
                NestedFunctions::contains));
        add.accept(Fn.custom("array", 0, -1, "array(T, ...) → ARRAY<T>", "null elements kept", "an array of the values",
                (call, args) -> {
                    DataType t = ConditionalFunctions.common(call, args);
                    DataType element = t;
                    List<Bound> cast = args.stream().map(b -> call.as(b, element)).toList();
                    return call.applyTolerant(cast, Types.arrayOf(element), a -> new ArrayList<>(Arrays.asList(a)));
                }));
        add.accept(Fn.custom("map", 0, -1, "map(key K, value V, ...) → MAP<K, V>", "null values kept; NULL_MAP_KEY for a null key",
                "a map of the keys to the values, in their order; DUPLICATED_MAP_KEY for a key given twice; map() is the empty MAP<VOID, VOID>,"
                        + " which meets any map (map_concat(map(), m), coalesce(m, map()))", NestedFunctions::makeMap));
        add.accept(Fn.custom("map_keys", 1, 1, "map_keys(MAP<K, V>) → ARRAY<K>", FunctionDef.NULL_IN_NULL_OUT,
                "the map's keys, in its order", (call, args) -> {
                    Bound m = map(call, args.get(0));
                    return call.apply(List.of(m), Types.arrayOf(m.type().keyType()), (Kernel.Unary) v -> new ArrayList<>(((Map<?, ?>) v).keySet()));
                }));
        add.accept(Fn.custom("map_values", 1, 1, "map_values(MAP<K, V>) → ARRAY<V>", FunctionDef.NULL_IN_NULL_OUT,
                "the map's values, in its order", (call, args) -> {
                    Bound m = map(call, args.get(0));
                    return call.apply(List.of(m), Types.arrayOf(m.type().element()), (Kernel.Unary) v -> new ArrayList<>(((Map<?, ?>) v).values()));
                }));
    }

    private static Bound nested(Analyzer.Call call, Bound x) {
        if (!Types.is(x.type(), Kind.ARRAY) && !Types.is(x.type(), Kind.MAP)) {
            throw call.typeError("'" + x.text() + "' is " + Types.name(x.type()) + ", and " + call.name() + " needs an ARRAY or a MAP");
        }
        return x;
    }

    private static Bound makeMap(Analyzer.Call call, List<Bound> args) {
        if (args.isEmpty()) {
            return new Bound.Literal(java.util.Collections.emptyMap(), DataType.map(Types.VOID, Types.VOID), "map()");
        }
        if (args.size() % 2 != 0) {
            throw call.typeError("map takes keys and values in pairs: map('a', 1, 'b', 2)");
        }
        List<Bound> keys = new ArrayList<>();
        List<Bound> values = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            (i % 2 == 0 ? keys : values).add(args.get(i));
        }
        DataType keyType = MapFunctions.keyType(call, ConditionalFunctions.common(call, keys));
        DataType t = ConditionalFunctions.common(call, values);
        DataType value = t;
        List<Bound> cast = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            cast.add(call.as(keys.get(i), keyType));
            cast.add(call.as(values.get(i), value));
        }
        return call.applyTolerant(cast, Types.mapOf(keyType, value), a -> {
            Map<Object, Object> m = new java.util.LinkedHashMap<>();
            for (int i = 0; i < a.length; i += 2) {
                MapFunctions.put(m, a[i], a[i + 1]);
            }
            return m;
        });
    }

    private static Bound map(Analyzer.Call call, Bound x) {
        if (!Types.is(x.type(), Kind.MAP)) {
            throw call.typeError("'" + x.text() + "' is " + Types.name(x.type()) + ", and " + call.name() + " needs a MAP");
        }
        return x;
    }

    private static Bound element(Analyzer.Call call, List<Bound> args, boolean oneBased) {
        if (!oneBased && Types.is(args.get(0).type(), Kind.STRUCT)) {
            return StructFunctions.subscript(call, args.get(0), args.get(1));
        }
        Bound x = nested(call, args.get(0));
        DataType element = Types.element(x.type());
        if (x.type().kind() == Kind.MAP) {
            Bound key = call.as(args.get(1), x.type().keyType());
            return call.apply(List.of(x, key), element, (Kernel.Binary) (m, k) -> ((Map<?, ?>) m).get(k));
        }
        if (args.get(1).type() != null && !Types.integral(args.get(1).type())) {
            throw call.typeError("an array's index is a whole number, and '" + args.get(1).text() + "' is " + Types.name(args.get(1).type()));
        }
        Bound index = call.as(args.get(1), DataType.INT);
        return call.apply(List.of(x, index), element, (Kernel.Binary) (a, i) -> {
            List<?> list = (List<?>) a;
            int n = list.size();
            int at = (Integer) i;
            if (!oneBased) {
                if (at < 0 || at >= n) {
                    throw Failure.of("INVALID_ARRAY_INDEX", "the index " + at + " is out of bounds: the array has " + n + " elements");
                }
                return list.get(at);
            }
            if (at == 0) {
                throw Failure.of("INVALID_INDEX_OF_ZERO", "element_at counts from 1 (or from -1 at the end), not 0");
            }
            int p = at > 0 ? at - 1 : n + at;
            if (p < 0 || p >= n) {
                throw Failure.of("INVALID_ARRAY_INDEX_IN_ELEMENT_AT", "the index " + at + " is out of bounds: the array has " + n + " elements");
            }
            return list.get(p);
        });
    }

    private static Bound contains(Analyzer.Call call, List<Bound> args) {
        Bound arr = args.get(0);
        if (!Types.is(arr.type(), Kind.ARRAY)) {
            throw call.typeError("'" + arr.text() + "' is " + Types.name(arr.type()) + ", and array_contains needs an ARRAY");
        }
        DataType element = Types.element(arr.type());
        if (element == null && args.get(1).type() != null) { // ARRAY<VOID>: no element equals the value
            return call.apply(List.of(arr, args.get(1)), DataType.BOOLEAN, (Kernel.Binary) (a, v) -> ((List<?>) a).isEmpty() ? false : null);
        }
        if (StructFunctions.holdsMap(element) || CalendarIntervals.holdsCalendar(element)) {
            throw call.typeError("[DATATYPE_MISMATCH.INVALID_ORDERING_TYPE] array_contains cannot compare values of " + Types.name(element)
                    + ": maps and INTERVALs of months, days and microseconds have no equality in Spark");
        }
        if (args.get(1).type() == null) {
            throw call.typeError("array_contains cannot look for NULL; use exists(arr, x -> x IS NULL) in Spark, or test the elements");
        }
        List<Bound> both = ArraySetFunctions.arrayAndValue(call, arr, args.get(1), true);
        Comparator<Object> order = Predicates.ordering(both.get(0).type().element());
        return call.apply(both, DataType.BOOLEAN, (Kernel.Binary) (a, v) -> {
            boolean sawNull = false;
            for (Object e : (List<?>) a) {
                if (e == null) {
                    sawNull = true;
                } else if (order.compare(e, v) == 0) {
                    return true;
                }
            }
            return sawNull ? null : false;
        });
    }
}
