package io.tributary.expressions.internal;

import io.tributary.schema.DataType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Every function and operator Tributary evaluates as Spark 4.2 does, by its Spark name (operators by
 * their symbol or keyword). One entry each; {@code docs/transform.md} is checked against it.
 */
public final class FunctionRegistry {
    private static final Map<String, FunctionDef> FUNCTIONS = new LinkedHashMap<>();

    static {
        operators();
        ConditionalFunctions.register(FunctionRegistry::add);
        castFunctions();
        StringFunctions.register(FunctionRegistry::add);
        TextFunctions.register(FunctionRegistry::add);
        EncodingFunctions.register(FunctionRegistry::add);
        UrlFunctions.register(FunctionRegistry::add);
        RegexpFunctions.register(FunctionRegistry::add);
        MathFunctions.register(FunctionRegistry::add);
        ScientificFunctions.register(FunctionRegistry::add);
        TryArithmetic.register(FunctionRegistry::add);
        RadixFunctions.register(FunctionRegistry::add);
        DateFunctions.register(FunctionRegistry::add);
        DateTimeFunctions.register(FunctionRegistry::add);
        TimestampFunctions.register(FunctionRegistry::add);
        TimeFunctions.register(FunctionRegistry::add);
        HashFunctions.register(FunctionRegistry::add);
        NestedFunctions.register(FunctionRegistry::add);
        StructFunctions.register(FunctionRegistry::add);
        ArrayFunctions.register(FunctionRegistry::add);
        ArrayEditFunctions.register(FunctionRegistry::add);
        ArraySetFunctions.register(FunctionRegistry::add);
        Sequences.register(FunctionRegistry::add);
        MapFunctions.register(FunctionRegistry::add);
        HigherOrderFunctions.register(FunctionRegistry::add);
        BitwiseFunctions.register(FunctionRegistry::add);
        JsonFunctions.register(FunctionRegistry::add);
        FormatFunctions.register(FunctionRegistry::add);
        IntervalFunctions.register(FunctionRegistry::add);
        CalendarIntervals.register(FunctionRegistry::add);
        NumberFormatFunctions.register(FunctionRegistry::add);
        LikeFunctions.register(FunctionRegistry::add);
        PositionFunctions.register(FunctionRegistry::add);
        Utf8Functions.register(FunctionRegistry::add);
        SessionFunctions.register(FunctionRegistry::add);
        XPathFunctions.register(FunctionRegistry::add);
        MapZipWith.register(FunctionRegistry::add);
        VectorFunctions.register(FunctionRegistry::add);
        RaiseErrorFunctions.register(FunctionRegistry::add);
        AesFunctions.register(FunctionRegistry::add);
        RandomFunctions.register(FunctionRegistry::add);
        JsonSchemaFunctions.register(FunctionRegistry::add);
        XmlFunctions.register(FunctionRegistry::add);
        CsvFunctions.register(FunctionRegistry::add);
        VariantFunctions.register(FunctionRegistry::add);
        CsvReadFunctions.register(FunctionRegistry::add);
        SketchFunctions.register(FunctionRegistry::add);
        ThetaSketchFunctions.register(FunctionRegistry::add);
        TupleSketchFunctions.register(FunctionRegistry::add);
        KllFunctions.register(FunctionRegistry::add);
    }

    private FunctionRegistry() {
    }

    private static void add(FunctionDef def) {
        if (FUNCTIONS.putIfAbsent(def.name(), def) != null) {
            throw new IllegalStateException("function " + def.name() + " registered twice");
        }
    }

    /** The function named {@code name} (case-insensitively), or null. */
    public static FunctionDef get(String name) {
        return FUNCTIONS.get(name.toLowerCase(Locale.ROOT));
    }

    /** Every entry in registration order: operators, conditionals, casts, strings, math, dates, hashes, arrays and maps. */
    public static List<FunctionDef> all() {
        return Collections.unmodifiableList(new ArrayList<>(FUNCTIONS.values()));
    }

    private static void operators() {
        String num = "NUMERIC";
        for (String op : List.of("+", "-", "*", "/", "%", "div")) {
            String doc = switch (op) {
                case "+" -> "addition; a DATE plus whole days is a DATE; a TIMESTAMP or DATE plus an interval (INTERVAL 1 HOUR) a TIMESTAMP (a TIMESTAMP_NTZ one a TIMESTAMP_NTZ),"
                        + " a DATE plus years, months or whole days a DATE; two intervals of one kind add up; a TIMESTAMP, DATE or text plus an INTERVAL"
                        + " (make_interval) keeps its type";
                case "-" -> "subtraction; a DATE minus whole days is a DATE; minus an interval as +; TIMESTAMP - TIMESTAMP is an INTERVAL DAY"
                        + " TO SECOND, DATE - DATE an INTERVAL DAY";
                case "*" -> "multiplication; an interval times a number is an INTERVAL DAY TO SECOND or YEAR TO MONTH, rounded half up"
                        + " to the microsecond or the month; an INTERVAL (make_interval) times a number scales each field";
                case "/" -> "division: DOUBLE, or DECIMAL when an operand is one; DIVIDE_BY_ZERO on 0; an interval divided by a number"
                        + " as *, INTERVAL_DIVIDED_BY_ZERO on 0";
                case "%" -> "remainder, with the dividend's sign; REMAINDER_BY_ZERO on 0";
                default -> "whole-number division truncated toward zero, BIGINT";
            };
            add(Fn.custom(op, 2, 2, "a " + op + " b (" + num + ")", FunctionDef.NULL_IN_NULL_OUT, doc
                    + (op.equals("/") || op.equals("div") ? "" : "; ARITHMETIC_OVERFLOW past the type's range"), Arithmetic::resolve));
        }
        for (String op : List.of("=", "<", "<=", ">", ">=")) {
            add(Fn.custom(op, 2, 2, "a " + op + " b → BOOLEAN", FunctionDef.NULL_IN_NULL_OUT,
                    "comparison (also ==, <>, != ); NaN equals NaN and is above every double; arrays element by element,"
                            + " structs field by field; INVALID_ORDERING_TYPE for maps", Predicates::compare));
        }
        add(Fn.custom("<=>", 2, 2, "a <=> b → BOOLEAN", "never null: true when both are null",
                "null-safe equality (also IS [NOT] DISTINCT FROM, IS [NOT] TRUE/FALSE)", Predicates::compare));
        add(Fn.custom("and", 2, 2, "a AND b → BOOLEAN", "false AND null is false, else null", "logical and", Predicates::logic));
        add(Fn.custom("or", 2, 2, "a OR b → BOOLEAN", "true OR null is true, else null", "logical or", Predicates::logic));
        add(Fn.custom("not", 1, 1, "NOT a → BOOLEAN", FunctionDef.NULL_IN_NULL_OUT, "logical not", Predicates::not));
        add(Fn.custom("isnull", 1, 1, "a IS NULL → BOOLEAN", "never null", "whether a is null (also isnull(a))", Predicates::isNull));
        add(Fn.custom("isnotnull", 1, 1, "a IS NOT NULL → BOOLEAN", "never null", "whether a is not null (also isnotnull(a))",
                Predicates::isNull));
        add(Fn.custom("in", 2, -1, "a [NOT] IN (b, ...) → BOOLEAN", "null when a is null, or when no value matches and one is null",
                "whether a equals one of the values", Predicates::in));
        add(Fn.custom("like", 2, 3, "str [NOT] LIKE pattern [ESCAPE c] → BOOLEAN", FunctionDef.NULL_IN_NULL_OUT,
                "SQL pattern match: _ one character, % any, \\ escapes", Predicates::like));
        add(Fn.custom("rlike", 2, 2, "str [NOT] RLIKE regex → BOOLEAN", FunctionDef.NULL_IN_NULL_OUT,
                "whether the regular expression (Java syntax, as Spark) matches anywhere in str (also REGEXP)", Predicates::like));
        add(Fn.alias("regexp", get("rlike")));
        add(Fn.custom("||", 2, 2, "a || b → STRING", FunctionDef.NULL_IN_NULL_OUT, "text concatenation", Predicates::concatPipe));
    }

    /** Spark's function-style casts: {@code int(x)} is {@code CAST(x AS INT)}. */
    private static void castFunctions() {
        Map<String, DataType> types = new LinkedHashMap<>();
        types.put("boolean", DataType.BOOLEAN);
        types.put("tinyint", DataType.BYTE);
        types.put("smallint", DataType.SHORT);
        types.put("int", DataType.INT);
        types.put("bigint", DataType.LONG);
        types.put("float", DataType.FLOAT);
        types.put("double", DataType.DOUBLE);
        types.put("decimal", DataType.decimal(10, 0));
        types.put("string", DataType.STRING);
        types.put("date", DataType.DATE);
        types.put("timestamp", DataType.TIMESTAMP);
        types.put("binary", DataType.BINARY);
        types.forEach((name, type) -> add(Fn.custom(name, 1, 1, name + "(x) → " + type.ddl(), FunctionDef.NULL_IN_NULL_OUT,
                "CAST(x AS " + type.ddl() + "); CAST_INVALID_INPUT, CAST_OVERFLOW as the cast fails", (call, args) -> {
                    Bound x = args.get(0);
                    if (!Casts.canCast(x.type(), type)) {
                        throw call.typeError("cannot cast " + Types.name(x.type()) + " to " + type.ddl());
                    }
                    return call.apply(List.of(x), type, Casts.kernel(x.type(), type));
                })));
    }
}
