package io.tributary.expressions.internal;

import io.tributary.schema.DataType;
import io.tributary.schema.DataType.Kind;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Spark's map_zip_with: two maps merged by key, the lambda given each key and its value in either map (null
 * where the key is absent); the keys of the first map in its order, then those only the second holds.
 */
final class MapZipWith {
    static final String NAME = "map_zip_with";

    private MapZipWith() {
    }

    static void register(Consumer<FunctionDef> add) {
        add.accept(Fn.custom(NAME, 3, 3, "map_zip_with(MAP<K, V1>, MAP<K, V2>, (k K, v1 V1, v2 V2) -> V) → MAP<K, V>",
                "null if either map is null", "the lambda over each key of either map and its values in both (null where the key is"
                        + " absent): the first map's keys in its order, then the second's others; the keys read as their common type",
                MapZipWith::resolve));
    }

    private static Bound resolve(Analyzer.Call call, List<Bound> args) {
        Bound left = map(call, args.get(0));
        Bound right = map(call, args.get(1));
        DataType key = keyType(call, left.type().keyType(), right.type().keyType());
        Kernel.Unary leftKey = widening(left.type().keyType(), key);
        Kernel.Unary rightKey = widening(right.type().keyType(), key);
        Bound.Lambda f = call.lambda(2, Arrays.asList(key, Types.element(left.type()), Types.element(right.type())), 3);
        return call.higherOrder(List.of(left, right), 2, List.of(f), Types.mapOf(key, f.type()), (a, fn) -> {
            Map<?, ?> first = keysAs((Map<?, ?>) a[0], leftKey);
            Map<?, ?> second = keysAs((Map<?, ?>) a[1], rightKey);
            Map<Object, Object> x = byKey(first);
            Map<Object, Object> y = byKey(second);
            Map<Object, Object> out = new LinkedHashMap<>();
            for (Map.Entry<?, ?> e : first.entrySet()) {
                Object other = y.get(same(e.getKey()));
                out.put(e.getKey(), fn[0].call(e.getKey(), e.getValue(), other == null ? null : ((Map.Entry<?, ?>) other).getValue()));
            }
            for (Map.Entry<?, ?> e : second.entrySet()) {
                if (!x.containsKey(same(e.getKey()))) {
                    out.put(e.getKey(), fn[0].call(e.getKey(), null, e.getValue()));
                }
            }
            return out;
        });
    }

    /** The cast of a map's keys to the common key type, or null when they are of it. */
    private static Kernel.Unary widening(DataType from, DataType to) {
        return from.equals(to) || from.equals(Types.VOID) ? null : Casts.kernel(from, to);
    }

    private static Map<?, ?> keysAs(Map<?, ?> m, Kernel.Unary cast) {
        if (cast == null) {
            return m;
        }
        Map<Object, Object> out = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : m.entrySet()) {
            out.put(cast.apply1(e.getKey()), e.getValue());
        }
        return out;
    }

    /** The map's entries by their keys as Spark compares them. */
    private static Map<Object, Object> byKey(Map<?, ?> m) {
        Map<Object, Object> out = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : m.entrySet()) {
            out.put(same(e.getKey()), e);
        }
        return out;
    }

    /** A key as Spark matches keys: -0.0 is 0.0 (and NaN, as Java's equals has it, NaN). */
    private static Object same(Object key) {
        if (key instanceof Double d && d == 0.0d) {
            return 0.0d;
        }
        return key instanceof Float f && f == 0.0f ? (Object) 0.0f : key;
    }

    /** The keys' common type as Spark widens them (numbers to the wider, never text with another type), else a type error. */
    private static DataType keyType(Analyzer.Call call, DataType a, DataType b) {
        DataType common = Types.is(a, Kind.STRING) != Types.is(b, Kind.STRING) ? null : Types.common(a, b);
        if (common == null) {
            throw call.typeError("[DATATYPE_MISMATCH.MAP_ZIP_WITH_DIFF_TYPES] the keys of " + NAME + "'s maps must be of one type, and they are "
                    + Types.name(a) + " and " + Types.name(b));
        }
        return common;
    }

    private static Bound map(Analyzer.Call call, Bound x) {
        if (x == null || !Types.is(x.type(), Kind.MAP)) {
            throw call.typeError("[DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE] the first two arguments of " + NAME + " must be MAPs, and it is "
                    + (x == null ? "a lambda function" : "'" + x.text() + "' of " + Types.name(x.type())));
        }
        return x;
    }
}
