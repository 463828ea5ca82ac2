package io.tributary.expressions.internal;

import static io.tributary.schema.DataType.BOOLEAN;
import static io.tributary.schema.DataType.STRING;

import io.tributary.schema.DataType;
import io.tributary.schema.DataType.Kind;
import java.util.List;
import java.util.function.Consumer;
import org.apache.spark.types.variant.Variant;
import org.apache.spark.types.variant.VariantUtil;

/**
 * Spark 4.2's VARIANT functions: {@code parse_json}, {@code try_parse_json}, {@code is_variant_null},
 * {@code variant_get}, {@code try_variant_get}, {@code schema_of_variant} and {@code to_variant_object}; the
 * {@code v:a.b} path is {@code variant_get(v, '$.a.b')}. Values are spark-variant's own encoding ({@link Variants}).
 */
final class VariantFunctions {
    private static final DataType VARIANT = Variants.TYPE;

    private VariantFunctions() {
    }

    static void register(Consumer<FunctionDef> add) {
        add.accept(Fn.custom("parse_json", 1, 1, "parse_json(json STRING) → VARIANT", FunctionDef.NULL_IN_NULL_OUT,
                "the JSON text as a VARIANT; MALFORMED_RECORD_IN_PARSING.WITHOUT_SUGGESTION when it is not one JSON value,"
                        + " VARIANT_DUPLICATE_KEY when an object has a key twice",
                (call, args) -> call.apply(List.of(text(call, args.get(0))), VARIANT, (Kernel.Unary) v -> VariantJson.parse((String) v))));
        add.accept(Fn.custom("try_parse_json", 1, 1, "try_parse_json(json STRING) → VARIANT", FunctionDef.NULL_IN_NULL_OUT,
                "parse_json, null where it fails", (call, args) -> call.apply(List.of(text(call, args.get(0))), VARIANT, (Kernel.Unary) v -> {
                    try {
                        return VariantJson.parse((String) v);
                    } catch (Failure f) {
                        return null;
                    }
                })));
        add.accept(Fn.custom("is_variant_null", 1, 1, "is_variant_null(v VARIANT) → BOOLEAN", "never null: false for a null VARIANT",
                "whether v is a JSON null (a VARIANT null), not SQL's NULL", (call, args) -> {
                    Bound v = variant(call, args.get(0), 1);
                    return call.applyTolerant(List.of(v), BOOLEAN,
                            (Kernel.Unary) x -> x != null && ((Variant) x).getType() == VariantUtil.Type.NULL);
                }));
        add.accept(get("variant_get", true));
        add.accept(get("try_variant_get", false));
        add.accept(Fn.custom("schema_of_variant", 1, 1, "schema_of_variant(v VARIANT) → STRING", FunctionDef.NULL_IN_NULL_OUT,
                "the SQL type of v's value as Spark writes it (OBJECT<a: BIGINT>, ARRAY<STRING>, DECIMAL(3,2), VOID for a JSON null);"
                        + " the elements of an array meet in their wider type, else VARIANT",
                (call, args) -> call.apply(List.of(variant(call, args.get(0), 1)), STRING,
                        (Kernel.Unary) v -> VariantSchemas.sql(VariantSchemas.of((Variant) v)))));
        add.accept(Fn.custom("to_variant_object", 1, 1, "to_variant_object(x STRUCT | MAP | ARRAY) → VARIANT", FunctionDef.NULL_IN_NULL_OUT,
                "x as a VARIANT whose structs and maps are objects (CAST(x AS VARIANT) takes no struct or map)", (call, args) -> {
                    Bound x = args.get(0);
                    if (x.type() == null || !x.type().isNested() || !objectable(x.type())) {
                        throw call.typeError("[DATATYPE_MISMATCH.CAST_WITHOUT_SUGGESTION] to_variant_object takes a STRUCT, a MAP or an ARRAY, and '"
                                + x.text() + "' is " + Types.name(x.type()));
                    }
                    DataType type = x.type();
                    return call.apply(List.of(x), VARIANT, (Kernel.Unary) v -> VariantCasts.toVariant(v, type));
                }));
    }

    /** Whether a nested {@code t} holds only what a VARIANT can hold (no interval, no VOID). */
    private static boolean objectable(DataType t) {
        if (t == null || Types.VOID.equals(t) || Intervals.isInterval(t) || CalendarIntervals.isCalendar(t)) {
            return false;
        }
        return switch (t.kind()) {
            case ARRAY -> objectable(t.element());
            case MAP -> objectable(t.element());
            case STRUCT -> t.struct().fields().stream().allMatch(f -> objectable(f.type()));
            default -> true;
        };
    }

    private static FunctionDef get(String name, boolean fail) {
        return Fn.custom(name, 2, 3, name + "(v VARIANT, path STRING[, type STRING]) → type, VARIANT by default", FunctionDef.NULL_IN_NULL_OUT,
                "the part of v at the JSON path ($.a, $['a'], $[0]) cast to the type (a DDL type: INT, ARRAY<STRING>, STRUCT<a: INT>,"
                        + " MAP<STRING, DOUBLE>, VARIANT); null when the path finds nothing, "
                        + (fail ? "INVALID_VARIANT_CAST when the value does not cast; v:a.b[0] is variant_get(v, '$.a.b[0]'), v:a::INT casts it"
                        : "or when the value does not cast") + "; INVALID_VARIANT_GET_PATH when the path is none",
                (call, args) -> {
                    Bound v = variant(call, args.get(0), 1);
                    Bound path = text(call, args.get(1));
                    DataType type = VARIANT;
                    if (args.size() > 2) {
                        String t = constant(call, args.get(2));
                        type = Variants.parseType(call.text(), 0, t);
                        if (!VariantCasts.readable(type)) {
                            throw call.typeError("[DATATYPE_MISMATCH.CAST_WITHOUT_SUGGESTION] a VARIANT cannot be read as " + Types.name(type));
                        }
                    }
                    DataType to = type;
                    if (Folding.constant(path)) { // parsed once; a path that is none fails each row, as Spark's does
                        Object text = Folding.value(path);
                        if (text == null) {
                            return new Bound.Literal(null, type, call.text());
                        }
                        VariantPath p = VariantPath.parse(text.toString());
                        return call.apply(List.of(v), type, (Kernel.Unary) x -> get((Variant) x, p, text.toString(), to, fail));
                    }
                    return call.apply(List.of(v, path), type, (Kernel.Binary) (x, p) -> get((Variant) x, VariantPath.parse((String) p), (String) p, to, fail));
                });
    }

    /** The part of {@code v} at {@code path} as {@code type}; INVALID_VARIANT_GET_PATH when {@code path} (its text {@code text}) is none. */
    static Object get(Variant v, VariantPath path, String text, DataType type, boolean fail) {
        if (path == null) {
            throw Failure.of("INVALID_VARIANT_GET_PATH", "'" + text + "' is no path into a VARIANT: write $ then .key, ['key'] or [index] steps,"
                    + " such as $.a[0]");
        }
        Variant found = path.find(v);
        return found == null ? null : VariantCasts.read(found, type, fail);
    }

    /** {@code v} at the path of the {@code v:a.b} syntax ({@code $.a.b}), a VARIANT. */
    static Bound at(Analyzer.Call call, Bound v, String path) {
        VariantPath p = VariantPath.parse(path);
        return call.apply(List.of(variant(call, v, 1)), VARIANT, (Kernel.Unary) x -> get((Variant) x, p, path, VARIANT, true));
    }

    /** Argument {@code b} as a VARIANT; a type error naming it otherwise. */
    static Bound variant(Analyzer.Call call, Bound b, int position) {
        if (b.type() == null || Variants.isVariant(b.type())) {
            return b.type() == null ? new Bound.Literal(null, VARIANT, b.text()) : b;
        }
        throw call.typeError("[DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE] argument " + position + " of " + call.name() + " is a VARIANT, and '"
                + b.text() + "' is " + Types.name(b.type()) + "; parse_json(" + b.text() + ") makes one of JSON text");
    }

    private static Bound text(Analyzer.Call call, Bound b) {
        if (b.type() != null && b.type().kind() != Kind.STRING) {
            throw call.typeError("[DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE] " + call.name() + " takes JSON text (a STRING), and '" + b.text()
                    + "' is " + Types.name(b.type()));
        }
        return call.as(b, STRING);
    }

    /** The type argument's text; refused when it is not a constant text. */
    private static String constant(Analyzer.Call call, Bound b) {
        Object v = Folding.constant(b) && Types.is(b.type(), Kind.STRING) ? Folding.value(b) : null;
        if (v == null) {
            throw call.typeError("[INVALID_SCHEMA.NON_STRING_LITERAL] the type of " + call.name() + " must be a constant text such as 'INT',"
                    + " and '" + b.text() + "' is not one");
        }
        return v.toString();
    }
}
