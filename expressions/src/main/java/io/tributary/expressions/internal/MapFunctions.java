package io.tributary.expressions.internal;

import io.tributary.schema.DataType;
import io.tributary.schema.DataType.Kind;
import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * Map functions as Spark 4.2 has them, over maps with text keys: map_entries, map_contains_key, map_concat,
 * map_from_arrays, map_from_entries, str_to_map. A null key fails with NULL_MAP_KEY, a key given twice with
 * DUPLICATED_MAP_KEY (Spark's default {@code spark.sql.mapKeyDedupPolicy}).
 */
final class MapFunctions {
    private MapFunctions() {
    }

    static void register(Consumer<FunctionDef> add) {
        add.accept(Fn.custom("map_entries", 1, 1, "map_entries(MAP<K, V>) → ARRAY<STRUCT<key: K, value: V>>", FunctionDef.NULL_IN_NULL_OUT,
                "the map's entries as structs, in its order", (call, args) -> {
                    Bound m = map(call, args.get(0));
                    return call.apply(List.of(m), entries(m.type().keyType(), m.type().valueType()), (Kernel.Unary) v -> {
                        List<Object> out = new ArrayList<>();
                        ((Map<?, ?>) v).forEach((k, x) -> out.add(new Object[] {k, x}));
                        return out;
                    });
                }));
        add.accept(Fn.custom("map_contains_key", 2, 2, "map_contains_key(MAP<K, V>, key K) → BOOLEAN", FunctionDef.NULL_IN_NULL_OUT,
                "whether the map has the key", (call, args) -> {
                    Bound m = map(call, args.get(0));
                    if (args.get(1).type() == null) {
                        throw call.typeError("map_contains_key cannot look for NULL: a map's key is never null");
                    }
                    return call.apply(List.of(m, call.as(args.get(1), m.type().keyType())), DataType.BOOLEAN,
                            (Kernel.Binary) (x, k) -> ((Map<?, ?>) x).containsKey(k));
                }));
        add.accept(Fn.custom("map_concat", 0, -1, "map_concat(MAP<K, V>, ...) → MAP<K, V>", FunctionDef.NULL_IN_NULL_OUT,
                "the maps' entries in one map; DUPLICATED_MAP_KEY for a key in two", (call, args) -> {
                    List<Bound> keys = new ArrayList<>();
                    List<Bound> values = new ArrayList<>();
                    for (Bound b : args) {
                        map(call, b);
                        keys.add(new Bound.Literal(null, b.type().keyType(), b.text()));
                        values.add(new Bound.Literal(null, Types.element(b.type()), b.text()));
                    }
                    DataType type = Types.mapOf(ConditionalFunctions.common(call, keys), ConditionalFunctions.common(call, values));
                    List<Bound> cast = args.stream().map(b -> asMap(call, b, type)).toList();
                    return call.apply(cast, type, v -> {
                        Map<Object, Object> out = new LinkedHashMap<>();
                        for (Object m : v) {
                            ((Map<?, ?>) m).forEach((k, x) -> put(out, k, x));
                        }
                        return out;
                    });
                }));
        add.accept(Fn.custom("map_from_arrays", 2, 2, "map_from_arrays(keys ARRAY<K>, values ARRAY<V>) → MAP<K, V>",
                FunctionDef.NULL_IN_NULL_OUT, "the keys mapped to the values at the same index; the arrays must be as long", (call, args) -> {
                    Bound keys = HigherOrderFunctions.array(call, args.get(0));
                    DataType keyType = keyType(call, Types.element(keys.type()));
                    if (args.get(1).type() == null) {
                        return new Bound.Literal(null, Types.mapOf(keyType, null), call.text());
                    }
                    Bound values = HigherOrderFunctions.array(call, args.get(1));
                    return call.apply(List.of(keys, values), Types.mapOf(keyType, Types.element(values.type())), (Kernel.Binary) (k, x) -> {
                        List<?> ks = (List<?>) k;
                        List<?> xs = (List<?>) x;
                        if (ks.size() != xs.size()) {
                            throw Failure.of("_LEGACY_ERROR_TEMP_2128", "map_from_arrays needs arrays of one length, not " + ks.size() + " and " + xs.size());
                        }
                        Map<Object, Object> out = new LinkedHashMap<>();
                        for (int i = 0; i < ks.size(); i++) {
                            put(out, ks.get(i), xs.get(i));
                        }
                        return out;
                    });
                }));
        add.accept(Fn.custom("map_from_entries", 1, 1, "map_from_entries(ARRAY<STRUCT<K, V>>) → MAP<K, V>",
                "null if the array or one of its entries is null", "a map of the structs' first fields to their second", (call, args) -> {
                    Bound a = HigherOrderFunctions.array(call, args.get(0));
                    DataType e = a.type().element();
                    if (!Types.is(e, Kind.STRUCT) || e.struct().size() != 2) {
                        throw call.typeError("map_from_entries needs an ARRAY of STRUCTs of a key and a value, and '" + a.text() + "' is "
                                + Types.name(a.type()));
                    }
                    DataType keyType = keyType(call, e.struct().field(0).type());
                    return call.apply(List.of(a), Types.mapOf(keyType, e.struct().field(1).type()), (Kernel.Unary) v -> {
                        Map<Object, Object> out = new LinkedHashMap<>();
                        for (Object entry : (List<?>) v) {
                            if (entry == null) {
                                return null;
                            }
                            put(out, ((Object[]) entry)[0], ((Object[]) entry)[1]);
                        }
                        return out;
                    });
                }));
        add.accept(Fn.custom("str_to_map", 1, 3, "str_to_map(text STRING[, pairDelim STRING[, keyValueDelim STRING]]) → MAP<STRING, STRING>",
                FunctionDef.NULL_IN_NULL_OUT, "the text split into pairs at pairDelim (',') and each pair into key and value at keyValueDelim"
                        + " (':'), both regular expressions; a pair without the delimiter has a null value", (call, args) -> {
                    List<Bound> cast = new ArrayList<>(args.stream().map(b -> call.as(b, DataType.STRING)).toList());
                    if (cast.size() < 2) {
                        cast.add(new Bound.Literal(",", DataType.STRING, "','"));
                    }
                    if (cast.size() < 3) {
                        cast.add(new Bound.Literal(":", DataType.STRING, "':'"));
                    }
                    return call.apply(cast, Types.mapOf(DataType.STRING), v -> {
                        Map<Object, Object> out = new LinkedHashMap<>();
                        for (String pair : Pattern.compile((String) v[1]).split((String) v[0], -1)) {
                            String[] kv = Pattern.compile((String) v[2]).split(pair, 2);
                            put(out, kv[0], kv.length > 1 ? kv[1] : null);
                        }
                        return out;
                    });
                }));
    }

    /** {@code key} mapped to {@code value} in {@code out}; NULL_MAP_KEY for a null key, DUPLICATED_MAP_KEY for one already there. */
    static void put(Map<Object, Object> out, Object key, Object value) {
        if (key == null) {
            throw Failure.of("NULL_MAP_KEY", "a map's key is null");
        }
        if (out.containsKey(key)) {
            throw Failure.of("DUPLICATED_MAP_KEY", "the key '" + key + "' is given twice");
        }
        out.put(key, value);
    }

    /**
     * The keys' type of a map made of keys of {@code t}: VOID for keys that are all NULL (which fail the row); a type error for
     * keys Spark cannot compare (maps), or that Tributary does not hold as keys yet (arrays, structs, binary, intervals).
     */
    static DataType keyType(Analyzer.Call call, DataType t) {
        if (t == null || t.equals(Types.VOID)) {
            return Types.VOID;
        }
        if (t.isNested() || Types.is(t, Kind.BINARY) || Intervals.isInterval(t)) {
            throw call.typeError("a map's keys here are numbers, text, booleans, dates or timestamps, and " + call.name() + " gives keys of "
                    + Types.name(t));
        }
        return t;
    }

    private static DataType entries(DataType key, DataType value) {
        return Types.arrayOf(DataType.struct(new Schema(List.of(new Field("key", key, false), new Field("value", value, true)))));
    }

    private static Bound asMap(Analyzer.Call call, Bound b, DataType to) {
        if (b.type() == null || Types.voidFits(b.type(), to)) {
            return call.as(b, to);
        }
        Kernel.Unary cast = Casts.kernel(b.type().valueType(), to.valueType());
        return new Bound.Apply("cast", List.of(b), (Kernel.Unary) v -> {
            Map<Object, Object> out = new LinkedHashMap<>();
            ((Map<?, ?>) v).forEach((k, x) -> out.put(k, x == null ? null : cast.apply1(x)));
            return out;
        }, false, to, b.text());
    }

    private static Bound map(Analyzer.Call call, Bound x) {
        if (x.type() != null && !Types.is(x.type(), Kind.MAP)) {
            throw call.typeError("'" + x.text() + "' is " + Types.name(x.type()) + ", and " + call.name() + " needs a MAP");
        }
        if (x.type() == null) {
            throw call.typeError(call.name() + " needs a MAP, and '" + x.text() + "' is NULL");
        }
        return x;
    }
}
