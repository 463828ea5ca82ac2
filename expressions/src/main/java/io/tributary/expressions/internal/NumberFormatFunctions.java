package io.tributary.expressions.internal;

import static io.tributary.schema.DataType.STRING;

import io.tributary.schema.DataType;
import io.tributary.schema.DataType.Kind;
import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * {@code to_number}, {@code try_to_number}, {@code to_char} and {@code to_varchar}: numbers read from and written as
 * text in Spark's number format language ({@link NumberFormat}); {@code to_char} of a date or timestamp is
 * {@code date_format}, of bytes {@code base64}, {@code hex} or UTF-8 text.
 */
final class NumberFormatFunctions {
    private NumberFormatFunctions() {
    }

    static void register(Consumer<FunctionDef> add) {
        String language = "fmt a constant of 0 or 9 (digits), . or D, , or G, $, S or MI (signs), PR (<negative>), case-insensitive";
        add.accept(Fn.custom("to_number", 2, 2, "to_number(expr STRING, fmt STRING) → DECIMAL(p, s) of fmt", FunctionDef.NULL_IN_NULL_OUT,
                "the number the text writes in fmt; " + language + "; INVALID_FORMAT.MISMATCH_INPUT when the text does not match",
                (call, args) -> toNumber(call, args, false)));
        add.accept(Fn.custom("try_to_number", 2, 2, "try_to_number(expr STRING, fmt STRING) → DECIMAL(p, s) of fmt",
                "null if an argument is null, or the text does not match", "to_number, null where the text does not match fmt",
                (call, args) -> toNumber(call, args, true)));
        FunctionDef toChar = Fn.custom("to_char", 2, 2, "to_char(expr, fmt STRING) → STRING", FunctionDef.NULL_IN_NULL_OUT,
                "a number written in fmt (" + language + "; # where a digit does not fit; null for NaN and the infinities); a DATE or"
                        + " TIMESTAMP as date_format; BINARY as fmt 'base64', 'hex' or 'utf-8'", NumberFormatFunctions::toChar);
        add.accept(toChar);
        add.accept(Fn.alias("to_varchar", toChar));
    }

    private static Bound toNumber(Analyzer.Call call, List<Bound> args, boolean orNull) {
        Bound arg = args.get(0);
        Bound text = Types.is(arg.type(), Kind.BINARY) ? call.castTo(arg, STRING) : call.as(arg, STRING); // Spark reads bytes as UTF-8
        Bound fmt = call.as(args.get(1), STRING);
        Object f = constantFormat(call, fmt);
        if (f == null) {
            return new Bound.Literal(null, DataType.decimal(10, 0), call.text());
        }
        NumberFormat format = checked(call, (String) f);
        if (format.precision() > Types.MAX_PRECISION) {
            throw call.typeError("[DECIMAL_PRECISION_EXCEEDS_MAX_PRECISION] the format '" + f + "' has " + format.precision()
                    + " digits, and a DECIMAL holds at most " + Types.MAX_PRECISION);
        }
        DataType type = DataType.decimal(format.precision(), format.scale());
        return call.apply(List.of(text), type, (Kernel.Unary) v -> {
            BigDecimal d = format.parse((String) v);
            if (d == null && !orNull) {
                throw Failure.of("INVALID_FORMAT.MISMATCH_INPUT", "the text '" + v + "' does not match the format '" + f + "'");
            }
            return d;
        });
    }

    private static Bound toChar(Analyzer.Call call, List<Bound> args) {
        Bound value = args.get(0);
        DataType t = value.type();
        if (t != null && (t.kind() == Kind.DATE || t.kind() == Kind.TIMESTAMP || t.kind() == Kind.TIMESTAMP_NTZ)) {
            return FunctionRegistry.get("date_format").resolver().resolve(call, args);
        }
        if (t != null && t.kind() == Kind.BINARY) {
            return binary(call, args);
        }
        Bound fmt = call.as(args.get(1), STRING);
        if (t != null && !Types.numeric(t) && t.kind() != Kind.STRING) {
            throw call.typeError("[DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE] " + call.name() + " writes a number, a DATE, a TIMESTAMP or"
                    + " BINARY, and '" + value.text() + "' is " + Types.name(t));
        }
        Object f = constantFormat(call, fmt);
        DataType decimal = switch (t == null ? Kind.DECIMAL : t.kind()) {
            case FLOAT -> DataType.decimal(14, 7);
            case DOUBLE -> DataType.decimal(30, 15);
            case STRING -> DataType.decimal(38, 18);
            case DECIMAL -> t == null ? DataType.decimal(10, 0) : t;
            default -> Types.decimalOf(t);
        };
        if (f == null) {
            return new Bound.Literal(null, STRING, call.text());
        }
        NumberFormat format = checked(call, (String) f);
        if (t != null && (t.kind() == Kind.FLOAT || t.kind() == Kind.DOUBLE)) {
            Kernel cast = Casts.kernel(t, decimal); // NaN and the infinities have no decimal: Spark's implicit cast gives null
            return call.apply(List.of(value), STRING, (Kernel.Unary) v -> {
                double d = ((Number) v).doubleValue();
                return Double.isNaN(d) || Double.isInfinite(d) ? null : format.format((BigDecimal) cast.apply(new Object[] {v}));
            });
        }
        return call.apply(List.of(call.castTo(value, decimal)), STRING, (Kernel.Unary) v -> format.format((BigDecimal) v));
    }

    /** {@code to_char} of bytes: Spark's base64, hex or UTF-8 decoding, by a constant format. */
    private static Bound binary(Analyzer.Call call, List<Bound> args) {
        Bound fmt = args.get(1);
        if (fmt.type() == null || fmt.type().kind() != Kind.STRING || !Folding.constant(fmt)) {
            throw call.typeError("[NON_FOLDABLE_ARGUMENT] the format of " + call.name() + " of BINARY must be a constant STRING, and '"
                    + fmt.text() + "' is not one");
        }
        Object f = Folding.value(fmt);
        if (f == null) {
            throw call.typeError("[NULL_ARGUMENT] the format of " + call.name() + " of BINARY cannot be null");
        }
        String name = switch (((String) f).toLowerCase(Locale.ROOT).trim()) {
            case "base64" -> "base64";
            case "hex" -> "hex";
            case "utf-8" -> "decode";
            default -> throw call.typeError("[INVALID_PARAMETER_VALUE.BINARY_FORMAT] the format of " + call.name() + " of BINARY is 'base64',"
                    + " 'hex' or 'utf-8', and it is '" + f + "'");
        };
        List<Bound> used = name.equals("decode") ? List.of(args.get(0), new Bound.Literal("utf-8", STRING, "'utf-8'")) : List.of(args.get(0));
        return FunctionRegistry.get(name).resolver().resolve(call, used);
    }

    /** The format, refused at start as Spark refuses it at analysis. */
    private static NumberFormat checked(Analyzer.Call call, String fmt) {
        NumberFormat format = new NumberFormat(fmt);
        String problem = format.problem();
        if (problem != null) {
            int colon = problem.indexOf(": ");
            throw call.typeError("[" + problem.substring(0, colon) + "] " + call.name() + ": " + problem.substring(colon + 2));
        }
        return format;
    }

    /** The value of a constant format; a type error naming the function when it is not one. */
    private static Object constantFormat(Analyzer.Call call, Bound fmt) {
        if (!Folding.constant(fmt)) {
            throw call.typeError("[DATATYPE_MISMATCH.NON_FOLDABLE_INPUT] the format of " + call.name() + " must be a constant, and '"
                    + fmt.text() + "' is not one");
        }
        return Folding.value(fmt);
    }
}
