package io.tributary.expressions.internal;

import io.tributary.schema.DataType;
import io.tributary.schema.DataType.Kind;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.LongBinaryOperator;

/**
 * The bitwise operators {@code & | ^ ~} and {@code shiftleft}, {@code shiftright}, {@code shiftrightunsigned}, {@code bit_count} as Spark 4.2
 * types them: whole numbers of the operands' wider type (text read as BIGINT), shifts of an INT or a BIGINT by an INT
 * with Java's shift (the distance taken modulo the width).
 */
final class BitwiseFunctions {
    private BitwiseFunctions() {
    }

    static void register(Consumer<FunctionDef> add) {
        add.accept(binary("&", "bitwise and", (a, b) -> a & b));
        add.accept(binary("|", "bitwise or", (a, b) -> a | b));
        add.accept(binary("^", "bitwise exclusive or", (a, b) -> a ^ b));
        add.accept(Fn.custom("~", 1, 1, "~a (TINYINT, SMALLINT, INT or BIGINT) → a's type", FunctionDef.NULL_IN_NULL_OUT,
                "bitwise not", (call, args) -> {
                    DataType t = integral(call, args.get(0).type());
                    return call.apply(List.of(call.as(args.get(0), t)), t, (Kernel.Unary) v -> narrow(~((Number) v).longValue(), t));
                }));
        add.accept(shift("shiftleft", "a shifted left by n bits, also written a << n", 0));
        add.accept(shift("shiftright", "a shifted right by n bits, the sign kept, also written a >> n", 1));
        add.accept(shift("shiftrightunsigned", "a shifted right by n bits, zeros shifted in, also written a >>> n", 2));
        add.accept(Fn.custom("bit_count", 1, 1, "bit_count(a whole number or BOOLEAN) → INT", FunctionDef.NULL_IN_NULL_OUT,
                "the number of bits set in a as a BIGINT (a negative TINYINT, SMALLINT or INT sign-extended); a BOOLEAN counts 1 or 0",
                (call, args) -> {
                    Bound x = args.get(0);
                    if (Types.is(x.type(), Kind.BOOLEAN)) {
                        return call.apply(List.of(x), DataType.INT, (Kernel.Unary) v -> (Boolean) v ? 1 : 0);
                    }
                    DataType t = integral(call, x.type());
                    return call.apply(List.of(call.as(x, t)), DataType.INT, (Kernel.Unary) v -> Long.bitCount(((Number) v).longValue()));
                }));
    }

    private static FunctionDef binary(String op, String doc, LongBinaryOperator f) {
        return Fn.custom(op, 2, 2, "a " + op + " b (TINYINT, SMALLINT, INT or BIGINT) → the wider type", FunctionDef.NULL_IN_NULL_OUT, doc,
                (call, args) -> {
                    DataType l = integral(call, args.get(0).type());
                    DataType r = integral(call, args.get(1).type());
                    DataType t = Types.common(l, r);
                    return call.apply(List.of(call.as(args.get(0), t), call.as(args.get(1), t)), t,
                            (Kernel.Binary) (a, b) -> narrow(f.applyAsLong(((Number) a).longValue(), ((Number) b).longValue()), t));
                });
    }

    private static FunctionDef shift(String name, String doc, int direction) {
        return Fn.custom(name, 2, 2, name + "(a INT or BIGINT, n INT) → a's type", FunctionDef.NULL_IN_NULL_OUT,
                doc + " (n taken modulo 32 or 64, as Java shifts); a smaller whole number is an INT, a fraction or text cast to INT", (call, args) -> {
                    Bound x = args.get(0);
                    DataType t = x.type() != null && (Types.numeric(x.type()) && !Types.integral(x.type()) || x.type().kind() == Kind.STRING)
                            ? DataType.INT : integral(call, x.type());
                    DataType a = t.kind() == Kind.LONG ? DataType.LONG : DataType.INT;
                    Bound n = Types.integral(args.get(1).type()) ? call.castTo(args.get(1), DataType.INT) : call.as(args.get(1), DataType.INT);
                    if (args.get(1).type() != null && !Types.integral(args.get(1).type())) {
                        throw call.typeError("the distance of " + name + " is an INT, and '" + args.get(1).text() + "' is " + Types.name(args.get(1).type()));
                    }
                    if (a.kind() == Kind.LONG) {
                        return call.apply(List.of(call.castTo(x, a), n), a, (Kernel.Binary) (v, s) -> switch (direction) {
                            case 0 -> (Long) v << (Integer) s;
                            case 1 -> (Long) v >> (Integer) s;
                            default -> (Long) v >>> (Integer) s;
                        });
                    }
                    return call.apply(List.of(call.castTo(x, a), n), a, (Kernel.Binary) (v, s) -> switch (direction) {
                        case 0 -> (Integer) v << (Integer) s;
                        case 1 -> (Integer) v >> (Integer) s;
                        default -> (Integer) v >>> (Integer) s;
                    });
                });
    }

    /** The operand's type: a whole number as it is, text as BIGINT (Spark's ANSI coercion), NULL as INT; a type error otherwise. */
    private static DataType integral(Analyzer.Call call, DataType t) {
        if (t == null) {
            return DataType.INT;
        }
        if (Types.integral(t)) {
            return t;
        }
        if (t.kind() == Kind.STRING) {
            return DataType.LONG;
        }
        throw call.typeError("the operator " + call.name() + " needs whole numbers (TINYINT, SMALLINT, INT or BIGINT), and the argument is "
                + Types.name(t));
    }

    private static Object narrow(long v, DataType t) {
        return switch (t.kind()) {
            case BYTE -> (byte) v;
            case SHORT -> (short) v;
            case INT -> (int) v;
            default -> v;
        };
    }
}
