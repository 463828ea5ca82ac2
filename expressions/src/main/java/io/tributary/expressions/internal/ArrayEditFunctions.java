package io.tributary.expressions.internal;

import static io.tributary.expressions.internal.HigherOrderFunctions.array;
import static io.tributary.schema.DataType.INT;
import static io.tributary.schema.DataType.STRING;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.tributary.schema.DataType;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Spark's array_append, array_prepend, array_insert, array_compact, array_size and cardinality, and the shape of JSON
 * text: json_array_length and json_object_keys.
 */
final class ArrayEditFunctions {
    /** Spark's largest array ({@code ByteArrayMethods.MAX_ROUNDED_ARRAY_LENGTH}). */
    private static final int MAX_ARRAY = Integer.MAX_VALUE - 15;

    private ArrayEditFunctions() {
    }

    static void register(Consumer<FunctionDef> add) {
        add.accept(Fn.custom("array_append", 2, 2, "array_append(ARRAY<T>, element T) → ARRAY<T>", "null if the array is null",
                "the array with the element (null too) added at the end", (call, args) -> pend(call, args, false)));
        add.accept(Fn.custom("array_prepend", 2, 2, "array_prepend(ARRAY<T>, element T) → ARRAY<T>", "null if the array is null",
                "the array with the element (null too) added at the start", (call, args) -> pend(call, args, true)));
        add.accept(Fn.custom("array_insert", 3, 3, "array_insert(ARRAY<T>, pos INT, element T) → ARRAY<T>", "null if the array or pos is null",
                "the element inserted at the 1-based pos (-1 after the last element); nulls fill a gap; INVALID_INDEX_OF_ZERO for 0,"
                        + " COLLECTION_SIZE_LIMIT_EXCEEDED.FUNCTION past Spark's largest array",
                ArrayEditFunctions::insert));
        add.accept(Fn.custom("array_compact", 1, 1, "array_compact(ARRAY<T>) → ARRAY<T>", FunctionDef.NULL_IN_NULL_OUT,
                "the array without its null elements", (call, args) -> {
                    Bound a = array(call, args.get(0));
                    return call.apply(List.of(a), a.type(), (Kernel.Unary) v -> ((List<?>) v).stream().filter(Objects::nonNull).toList());
                }));
        add.accept(Fn.custom("array_size", 1, 1, "array_size(ARRAY<T>) → INT", FunctionDef.NULL_IN_NULL_OUT, "the number of elements",
                (call, args) -> call.apply(List.of(array(call, args.get(0))), INT, (Kernel.Unary) v -> ((List<?>) v).size())));
        add.accept(Fn.alias("cardinality", FunctionRegistry.get("size")));
        add.accept(Fn.unary("json_array_length", "the number of elements of the JSON array, null if the text is no JSON array", STRING, INT,
                v -> jsonShape((String) v, true)));
        add.accept(Fn.unary("json_object_keys", "the keys of the outer JSON object in order, null if the text is no JSON object", STRING,
                Types.arrayOf(STRING), v -> jsonShape((String) v, false)));
    }

    /** The array and the element, both as the array's element type widened to take the element. */
    private static List<Bound> arrayAndElement(Analyzer.Call call, Bound arr, Bound element) {
        Bound a = array(call, arr);
        DataType el = a.type().element();
        if (element.type() == null) {
            return List.of(a, call.as(element, el));
        }
        DataType common = el == null || el == Types.VOID ? element.type() : el.equals(element.type()) ? el
                : plainNumber(el) && plainNumber(element.type()) ? Types.widerNumeric(el, element.type())
                : Types.numeric(el) && Types.numeric(element.type()) ? Types.tightest(el, element.type()) : null; // a DECIMAL that holds the whole number
        if (common == null) {
            throw call.typeError("[DATATYPE_MISMATCH.ARRAY_FUNCTION_DIFF_TYPES] " + call.name() + " needs an element of the array's type "
                    + Types.name(el) + ", and '" + element.text() + "' is " + Types.name(element.type()));
        }
        return List.of(ArraySetFunctions.asArray(call, a, common), call.as(element, common));
    }

    /** A number other than a DECIMAL: Spark widens the array or the element among these, and to a DECIMAL that holds a whole number. */
    private static boolean plainNumber(DataType t) {
        return Types.numeric(t) && !Types.isDecimal(t);
    }

    private static Bound pend(Analyzer.Call call, List<Bound> args, boolean front) {
        List<Bound> cast = arrayAndElement(call, args.get(0), args.get(1));
        return call.applyTolerant(cast, cast.get(0).type(), (Kernel.Binary) (a, e) -> {
            if (a == null) {
                return null;
            }
            List<Object> out = new ArrayList<>((List<?>) a);
            out.add(front ? 0 : out.size(), e);
            return out;
        });
    }

    private static Bound insert(Analyzer.Call call, List<Bound> args) {
        List<Bound> pair = arrayAndElement(call, args.get(0), args.get(2));
        DataType pos = args.get(1).type();
        if (!Types.is(pos, DataType.Kind.INT) && !Types.is(pos, DataType.Kind.SHORT) && !Types.is(pos, DataType.Kind.BYTE)) {
            throw call.typeError("[DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE] the position of array_insert must be an INT, and '"
                    + args.get(1).text() + "' is " + Types.name(args.get(1).type()));
        }
        List<Bound> cast = List.of(pair.get(0), call.castTo(args.get(1), INT), pair.get(1));
        return call.applyTolerant(cast, pair.get(0).type(), a -> a[0] == null || a[1] == null ? null : insert((List<?>) a[0], (Integer) a[1], a[2]));
    }

    /** Spark 4.2's ArrayInsert: a negative pos counts from the end, -1 appending; beyond either end, nulls fill the gap. */
    static List<Object> insert(List<?> arr, int pos, Object item) {
        if (pos == 0) {
            throw Failure.of("INVALID_INDEX_OF_ZERO", "array_insert's pos is 0; positions are counted from 1 (or from -1 at the end)");
        }
        int n = arr.size();
        long at = pos < 0 ? (long) n + pos + 1 : pos - 1L;
        long length = at < 0 ? n - at + 1 : Math.max(n + 1L, at + 1);
        if (length > MAX_ARRAY) {
            throw tooLarge(length);
        }
        List<Object> out = new ArrayList<>(Collections.nCopies((int) length, null));
        if (at < 0) {
            out.set(0, item);
            for (int i = 0; i < n; i++) {
                out.set(i + 1 - (int) at, arr.get(i));
            }
            return out;
        }
        for (int i = 0; i < n; i++) {
            out.set(i >= at ? i + 1 : i, arr.get(i));
        }
        out.set((int) at, item);
        return out;
    }

    private static Failure tooLarge(long length) {
        return Failure.of("COLLECTION_SIZE_LIMIT_EXCEEDED.FUNCTION", "an array of " + length + " elements exceeds the limit " + MAX_ARRAY);
    }

    /** Spark's json_array_length (an INT) or json_object_keys (a list), null when the text is not of that shape or is malformed. */
    private static Object jsonShape(String json, boolean array) {
        try (JsonParser p = JsonFunctions.JSON.createParser(json)) {
            if (p.nextToken() != (array ? JsonToken.START_ARRAY : JsonToken.START_OBJECT)) {
                return null;
            }
            if (array) {
                int n = 0;
                for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
                    if (t == null) {
                        return null;
                    }
                    n++;
                    p.skipChildren();
                }
                return n;
            }
            List<String> keys = new ArrayList<>();
            while (p.nextValue() != null && p.currentName() != null) {
                keys.add(p.currentName());
                p.skipChildren();
            }
            return keys;
        } catch (IOException malformed) {
            return null;
        }
    }
}
