package io.tributary.expressions.internal;

import static io.tributary.schema.DataType.BOOLEAN;
import static io.tributary.schema.DataType.INT;
import static io.tributary.schema.DataType.LONG;
import static io.tributary.schema.DataType.STRING;

import io.tributary.schema.DataType;
import io.tributary.schema.DataType.Kind;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * More of Spark's string functions: split_part, substring_index, translate, btrim, position, find_in_set, elt, len,
 * octet_length, bit_length, overlay, chr, levenshtein, soundex, quote, mask, luhn_check and sentences. The
 * algorithms are {@link TextKernels}.
 */
final class TextFunctions {
    private TextFunctions() {
    }

    static void register(Consumer<FunctionDef> add) {
        add.accept(numeric("split_part", "part partNum (1-based; negative counts from the end) of the text split at delimiter,"
                + " '' past the end; INVALID_INDEX_OF_ZERO for 0", STRING, List.of(STRING, STRING, INT),
                a -> TextKernels.splitPart((String) a[0], (String) a[1], (Integer) a[2])));
        add.accept(numeric("substring_index", "the text before count occurrences of delim (negative: after, counting from the end)",
                STRING, List.of(STRING, STRING, INT), a -> TextKernels.substringIndex((String) a[0], (String) a[1], (Integer) a[2])));
        add.accept(Fn.fixed("translate", "each character of from replaced by the one at its place in to, removed when to is shorter",
                STRING, List.of(STRING, STRING, STRING), a -> TextKernels.translate((String) a[0], (String) a[1], (String) a[2])));
        add.accept(Fn.custom("btrim", 1, 2, "btrim(str STRING[, trimStr STRING]) → STRING", FunctionDef.NULL_IN_NULL_OUT,
                "the text without the leading and trailing characters of trimStr (spaces by default)", (call, args) -> {
                    List<Bound> cast = args.stream().map(b -> call.as(b, STRING)).toList();
                    return cast.size() == 1 ? call.apply(cast, STRING, (Kernel.Unary) v -> Text.trim((String) v, true, true))
                            : call.apply(cast, STRING, (Kernel.Binary) (s, t) -> TextKernels.trim((String) s, (String) t));
                }));
        FunctionDef position = Fn.custom("position", 2, 3, "position(substr STRING, str STRING[, pos INT]) → INT",
                "null if substr or str is null; 0 if pos is null", "the 1-based position of substr in str from pos (1 by default), 0 if none",
                (call, args) -> {
                    List<Bound> cast = new ArrayList<>(List.of(call.as(args.get(0), STRING), call.as(args.get(1), STRING),
                            args.size() > 2 ? number(call, args.get(2), INT) : new Bound.Literal(1, INT, "1")));
                    return call.applyTolerant(cast, INT, a -> a[2] == null ? (Object) 0 : a[0] == null || a[1] == null ? null
                            : TextKernels.locate((String) a[0], (String) a[1], (Integer) a[2]));
                });
        add.accept(position);
        add.accept(Fn.alias("locate", position));
        add.accept(Fn.binary("find_in_set", "the 1-based place of str in the comma-separated list, 0 if absent or str holds a comma",
                STRING, STRING, INT, (s, list) -> TextKernels.findInSet((String) s, (String) list)));
        add.accept(Fn.custom("elt", 2, -1, "elt(n INT, STRING or BINARY, ...) → STRING or BINARY", "null if n is null or input n is null",
                "input n (1-based), the only input evaluated; INVALID_ARRAY_INDEX past the inputs", TextFunctions::elt));
        add.accept(Fn.alias("len", FunctionRegistry.get("length")));
        add.accept(Fn.custom("octet_length", 1, 1, "octet_length(STRING or BINARY) → INT", FunctionDef.NULL_IN_NULL_OUT,
                "the number of bytes (of the text's UTF-8)", (call, args) -> bytes(call, args.get(0), 1)));
        add.accept(Fn.custom("bit_length", 1, 1, "bit_length(STRING or BINARY) → INT", FunctionDef.NULL_IN_NULL_OUT,
                "the number of bits (of the text's UTF-8)", (call, args) -> bytes(call, args.get(0), 8)));
        add.accept(Fn.custom("overlay", 3, 4, "overlay(input, replace, pos INT[, len INT]) → STRING or BINARY", FunctionDef.NULL_IN_NULL_OUT,
                "input with len characters (bytes of a BINARY; replace's length by default) from pos replaced by replace",
                TextFunctions::overlay));
        FunctionDef chr = numeric("chr", "the character of code n mod 256 ('' for a negative n)", STRING, List.of(LONG), a -> TextKernels.chr((Long) a[0]));
        add.accept(chr);
        add.accept(Fn.alias("char", chr));
        add.accept(Fn.custom("levenshtein", 2, 3, "levenshtein(a STRING, b STRING[, threshold INT]) → INT", FunctionDef.NULL_IN_NULL_OUT,
                "the edit distance in characters; -1 when it exceeds threshold or threshold is null", (call, args) -> {
                    List<Bound> cast = new ArrayList<>(List.of(call.as(args.get(0), STRING), call.as(args.get(1), STRING)));
                    if (args.size() == 2) {
                        return call.apply(cast, INT, (Kernel.Binary) (a, b) -> TextKernels.levenshtein((String) a, (String) b));
                    }
                    cast.add(number(call, args.get(2), INT));
                    return call.applyTolerant(cast, INT, a -> a[0] == null || a[1] == null ? null
                            : a[2] == null ? (Object) (-1) : TextKernels.levenshtein((String) a[0], (String) a[1], (Integer) a[2]));
                }));
        FunctionDef soundex = Fn.unary("soundex", "the Soundex code; the text itself when it starts with no letter A-Z", STRING, STRING,
                v -> TextKernels.soundex((String) v));
        add.accept(Fn.custom("soundex", 1, 1, soundex.signature(), soundex.nulls(), soundex.doc(), (call, args) -> {
            DataType t = args.get(0).type();
            if (t != null && !Types.is(t, DataType.Kind.STRING)) { // Spark's SoundEx expects a STRING and casts nothing to it
                throw call.typeError("[DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE] soundex needs a STRING, and '" + args.get(0).text()
                        + "' is " + Types.name(t) + "; cast it: CAST(" + args.get(0).text() + " AS STRING)");
            }
            return soundex.resolver().resolve(call, args);
        }));
        add.accept(Fn.unary("quote", "the text in single quotes, each ' escaped by a backslash", STRING, STRING,
                v -> "'" + ((String) v).replace("'", "\\'") + "'"));
        add.accept(Fn.custom("mask", 1, 5, "mask(str STRING[, upper STRING, lower STRING, digit STRING, other STRING]) → STRING",
                "null if str is null; a null replacement leaves its characters", "upper-case letters as X, lower-case as x, digits as n"
                        + " (or the given characters), others kept (or replaced by other)", TextFunctions::mask));
        add.accept(Fn.unary("luhn_check", "whether the digits pass the Luhn checksum (false for '' or a non-digit)", STRING, BOOLEAN,
                v -> TextKernels.luhn((String) v)));
        add.accept(Fn.custom("sentences", 1, 3, "sentences(str STRING[, lang STRING, country STRING]) → ARRAY<ARRAY<STRING>>",
                "null if str is null; US English when lang is null", "the text's sentences as arrays of words, by the locale's rules"
                        + " (US English by default)", (call, args) -> {
                    List<Bound> cast = new ArrayList<>();
                    for (int i = 0; i < 3; i++) {
                        cast.add(i < args.size() ? call.as(args.get(i), STRING) : new Bound.Literal("", STRING, "''"));
                    }
                    return call.applyTolerant(cast, Types.arrayOf(Types.arrayOf(STRING)), a -> a[0] == null ? null
                            : TextKernels.sentences((String) a[0], (String) a[1], (String) a[2]));
                }));
    }

    /** {@code b} as the integral {@code type}: a number of any type by a cast (CAST_OVERFLOW past the range), as Spark's implicit casts. */
    static Bound number(Analyzer.Call call, Bound b, DataType type) {
        return b.type() != null && Types.numeric(b.type()) ? call.castTo(b, type) : call.as(b, type);
    }

    /** As {@link Fn#fixed}, numbers cast to the integral argument types by {@link #number}. */
    private static FunctionDef numeric(String name, String doc, DataType result, List<DataType> types, Kernel kernel) {
        String sig = name + "(" + String.join(", ", types.stream().map(DataType::ddl).toList()) + ") → " + result.ddl();
        return Fn.custom(name, types.size(), types.size(), sig, FunctionDef.NULL_IN_NULL_OUT, doc, (call, args) -> {
            List<Bound> cast = new ArrayList<>();
            for (int i = 0; i < types.size(); i++) {
                cast.add(Types.integral(types.get(i)) ? number(call, args.get(i), types.get(i)) : call.as(args.get(i), types.get(i)));
            }
            return call.apply(cast, result, kernel);
        });
    }

    private static Bound bytes(Analyzer.Call call, Bound x, int bits) {
        if (Types.is(x.type(), Kind.BINARY) && x.type() != Types.VOID) {
            return call.apply(List.of(x), INT, (Kernel.Unary) v -> ((byte[]) v).length * bits);
        }
        return call.apply(List.of(call.as(x, STRING)), INT, (Kernel.Unary) v -> ((String) v).getBytes(StandardCharsets.UTF_8).length * bits);
    }

    private static boolean binary(Bound b) {
        return Types.is(b.type(), Kind.BINARY);
    }

    /**
     * elt as Spark's {@code Elt} evaluates it: the index first (null gives null, out of range fails with
     * INVALID_ARRAY_INDEX), then the one input it picks, so another input that would fail never fails the row.
     */
    private static Bound elt(Analyzer.Call call, List<Bound> args) {
        List<Bound> inputs = args.subList(1, args.size());
        boolean bin = inputs.stream().allMatch(b -> b.type() == null || binary(b)) && inputs.stream().anyMatch(TextFunctions::binary);
        DataType type = bin ? DataType.BINARY : STRING;
        Bound index = number(call, args.get(0), INT);
        int n = inputs.size();
        List<Bound> conditions = new ArrayList<>();
        List<Bound> values = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            Integer at = i;
            conditions.add(call.applyTolerant(List.of(index), DataType.BOOLEAN, (Kernel.Unary) v -> at.equals(v)));
            Bound input = inputs.get(i - 1);
            values.add(binary(input) ? call.castTo(input, type) : call.as(input, type));
        }
        conditions.add(call.applyTolerant(List.of(index), DataType.BOOLEAN, (Kernel.Unary) v -> v != null));
        values.add(call.apply(List.of(index), type, (Kernel.Unary) v -> {
            throw Failure.of("INVALID_ARRAY_INDEX", "the index " + v + " is out of bounds; elt has " + n + " inputs");
        }));
        return new Bound.Case(conditions, values, null, type, call.text());
    }

    private static Bound overlay(Analyzer.Call call, List<Bound> args) {
        boolean bin = binary(args.get(0)) && binary(args.get(1));
        if (!bin && (binary(args.get(0)) || binary(args.get(1))) && args.get(0).type() != null && args.get(1).type() != null) {
            throw call.typeError("[DATATYPE_MISMATCH] overlay needs input and replace of one type, and they are "
                    + Types.name(args.get(0).type()) + " and " + Types.name(args.get(1).type()));
        }
        DataType type = bin ? DataType.BINARY : STRING;
        List<Bound> cast = new ArrayList<>(List.of(call.as(args.get(0), type), call.as(args.get(1), type), number(call, args.get(2), INT),
                args.size() > 3 ? number(call, args.get(3), INT) : new Bound.Literal(-1, INT, "-1")));
        return call.apply(cast, type, a -> bin ? TextKernels.overlay((byte[]) a[0], (byte[]) a[1], (Integer) a[2], (Integer) a[3])
                : TextKernels.overlay((String) a[0], (String) a[1], (Integer) a[2], (Integer) a[3]));
    }

    private static Bound mask(Analyzer.Call call, List<Bound> args) {
        int[] with = {'X', 'x', 'n', -1};
        for (int i = 1; i < args.size(); i++) {
            Bound b = args.get(i);
            if (!(b instanceof Bound.Literal l)) {
                throw call.typeError("[DATATYPE_MISMATCH.NON_FOLDABLE_INPUT] argument " + (i + 1) + " of mask must be a constant, and '"
                        + b.text() + "' is not one");
            }
            if (l.value() == null) {
                with[i - 1] = -1;
                continue;
            }
            String c = String.valueOf(l.value());
            if (!Types.is(b.type(), Kind.STRING) || Text.length(c) != 1) {
                throw call.typeError("[DATATYPE_MISMATCH.INPUT_SIZE_NOT_ONE] argument " + (i + 1) + " of mask must be one character, and it is '"
                        + b.text() + "'");
            }
            with[i - 1] = c.codePointAt(0);
        }
        Bound str = args.get(0);
        if (str.type() != null && !Types.is(str.type(), Kind.STRING)) {
            throw call.typeError("[DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE] mask needs a STRING, and '" + str.text() + "' is " + Types.name(str.type()));
        }
        return call.apply(List.of(call.as(str, STRING)), STRING, (Kernel.Unary) v -> TextKernels.mask((String) v, with));
    }
}
