package io.tributary.expressions.internal;

import io.tributary.schema.DataType;
import io.tributary.schema.DataType.Kind;
import java.util.List;
import java.util.function.Consumer;

/** {@code get(array, i)}, an element by its 0-based position, and {@code bit_get} ({@code getbit}), a bit by its position. */
final class PositionFunctions {
    private PositionFunctions() {
    }

    static void register(Consumer<FunctionDef> add) {
        add.accept(Fn.custom("get", 2, 2, "get(arr ARRAY<T>, i INT) → T", FunctionDef.NULL_IN_NULL_OUT,
                "the element at 0-based position i; null when i is negative or past the end", PositionFunctions::get));
        FunctionDef bitGet = Fn.custom("bit_get", 2, 2, "bit_get(x TINYINT, SMALLINT, INT or BIGINT, pos INT) → TINYINT",
                FunctionDef.NULL_IN_NULL_OUT, "the bit of x at pos (0 the lowest), 0 or 1; INVALID_PARAMETER_VALUE.BIT_POSITION_RANGE when"
                        + " pos is negative or not below x's width", PositionFunctions::bitGet);
        add.accept(bitGet);
        add.accept(Fn.alias("getbit", bitGet));
    }

    private static Bound get(Analyzer.Call call, List<Bound> args) {
        Bound arr = args.get(0);
        if (arr.type() == null || arr.type().kind() != Kind.ARRAY) {
            throw call.typeError("[DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE] the first argument of get is an ARRAY, and '" + arr.text()
                    + "' is " + Types.name(arr.type()));
        }
        Bound index = toInt(call, args.get(1));
        return call.apply(List.of(arr, index), arr.type().element(), (Kernel.Binary) (a, i) -> {
            List<?> list = (List<?>) a;
            int at = (Integer) i;
            return at < 0 || at >= list.size() ? null : list.get(at);
        });
    }

    /** A position as an INT: a number of another type is cast to it, as Spark's implicit cast of these functions does. */
    static Bound toInt(Analyzer.Call call, Bound b) {
        return b.type() != null && Types.numeric(b.type()) ? call.castTo(b, DataType.INT) : call.as(b, DataType.INT);
    }

    private static Bound bitGet(Analyzer.Call call, List<Bound> args) {
        Bound x = args.get(0);
        DataType t = x.type() == null ? DataType.INT : x.type();
        if (!Types.integral(t)) {
            throw call.typeError("[DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE] " + call.name() + " reads a bit of a TINYINT, SMALLINT, INT or"
                    + " BIGINT, and '" + x.text() + "' is " + Types.name(t));
        }
        int width = switch (t.kind()) {
            case BYTE -> 8;
            case SHORT -> 16;
            case INT -> 32;
            default -> 64;
        };
        String name = call.name();
        return call.apply(List.of(call.as(x, t), toInt(call, args.get(1))), DataType.BYTE, (Kernel.Binary) (v, p) -> {
            int pos = (Integer) p;
            if (pos < 0 || pos >= width) {
                throw Failure.of("INVALID_PARAMETER_VALUE.BIT_POSITION_RANGE", "the position " + pos + " of " + name + " is outside [0, "
                        + width + ") for a value of " + width + " bits");
            }
            return (byte) ((((Number) v).longValue() >> pos) & 1);
        });
    }
}
