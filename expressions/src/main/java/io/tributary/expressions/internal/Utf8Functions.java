package io.tributary.expressions.internal;

import static io.tributary.schema.DataType.BINARY;
import static io.tributary.schema.DataType.STRING;

import io.tributary.schema.DataType;
import java.util.List;
import java.util.function.Consumer;

/**
 * {@code space(n)}, and the UTF-8 checks {@code is_valid_utf8}, {@code make_valid_utf8}, {@code validate_utf8} and
 * {@code try_validate_utf8}. A Tributary STRING is always valid text, so the checks read bytes: those of a BINARY argument,
 * also through a cast of BINARY to STRING, which is where Spark's text can hold bytes that are not UTF-8.
 */
final class Utf8Functions {
    private Utf8Functions() {
    }

    static void register(Consumer<FunctionDef> add) {
        add.accept(Fn.custom("space", 1, 1, "space(n INT) → STRING", FunctionDef.NULL_IN_NULL_OUT, "n blanks; none when n is 0 or negative",
                (call, args) -> call.apply(List.of(PositionFunctions.toInt(call, args.get(0))), STRING,
                        (Kernel.Unary) n -> " ".repeat(Math.max(0, (Integer) n)))));
        add.accept(check("is_valid_utf8", DataType.BOOLEAN, "whether the text's bytes are valid UTF-8",
                (b, text) -> b == null || decode(b, false) != null));
        add.accept(check("make_valid_utf8", STRING, "the text with each invalid UTF-8 sequence replaced by U+FFFD",
                (b, text) -> b == null ? text : decode(b)));
        add.accept(check("validate_utf8", STRING, "the text; INVALID_UTF8_STRING when its bytes are not valid UTF-8", (b, text) -> {
            String valid = b == null ? text : decode(b, false);
            if (valid == null) {
                throw Failure.of("INVALID_UTF8_STRING", "the bytes " + hex(b) + " are not valid UTF-8");
            }
            return valid;
        }));
        add.accept(check("try_validate_utf8", STRING, "the text, null when its bytes are not valid UTF-8",
                (b, text) -> b == null ? text : decode(b, false)));
    }

    /** What a check computes from the argument's bytes (null when it is a STRING) or its text. */
    @FunctionalInterface
    private interface Check {
        Object apply(byte[] bytes, String text);
    }

    private static FunctionDef check(String name, DataType result, String doc, Check check) {
        return Fn.custom(name, 1, 1, name + "(str STRING or BINARY) → " + result.ddl(), FunctionDef.NULL_IN_NULL_OUT, doc, (call, args) -> {
            Bound arg = args.get(0);
            if (arg instanceof Bound.Apply a && a.name().equals("cast") && a.args().size() == 1 && Types.is(a.args().get(0).type(), DataType.Kind.BINARY)) {
                arg = a.args().get(0); // the bytes Spark's text would hold
            }
            if (Types.is(arg.type(), DataType.Kind.BINARY)) {
                return call.apply(List.of(call.as(arg, BINARY)), result, (Kernel.Unary) v -> check.apply((byte[]) v, null));
            }
            return call.apply(List.of(call.as(arg, STRING)), result, (Kernel.Unary) v -> check.apply(null, (String) v));
        });
    }

    private static String decode(byte[] bytes) {
        return decode(bytes, true);
    }

    /**
     * The text of UTF-8 bytes; each ill-formed sequence (its maximal subpart, as the Unicode standard counts them and Spark
     * replaces them) becomes U+FFFD when {@code replace}, else the answer is null.
     */
    static String decode(byte[] bytes, boolean replace) {
        StringBuilder out = new StringBuilder(bytes.length);
        int i = 0;
        while (i < bytes.length) {
            int b = bytes[i] & 0xFF;
            if (b < 0x80) {
                out.append((char) b);
                i++;
                continue;
            }
            int need;
            int low = 0x80;
            int high = 0xBF;
            if (b >= 0xC2 && b <= 0xDF) {
                need = 1;
            } else if (b >= 0xE0 && b <= 0xEF) {
                need = 2;
                low = b == 0xE0 ? 0xA0 : 0x80;
                high = b == 0xED ? 0x9F : 0xBF;
            } else if (b >= 0xF0 && b <= 0xF4) {
                need = 3;
                low = b == 0xF0 ? 0x90 : 0x80;
                high = b == 0xF4 ? 0x8F : 0xBF;
            } else {
                need = 0; // a byte no sequence starts with
            }
            int cp = need == 1 ? b & 0x1F : need == 2 ? b & 0x0F : b & 0x07;
            int j = i + 1;
            int got = 0;
            while (got < need && j < bytes.length) {
                int c = bytes[j] & 0xFF;
                if (c < (got == 0 ? low : 0x80) || c > (got == 0 ? high : 0xBF)) {
                    break;
                }
                cp = (cp << 6) | (c & 0x3F);
                got++;
                j++;
            }
            if (need > 0 && got == need) {
                out.appendCodePoint(cp);
            } else if (replace) {
                out.append('\uFFFD');
            } else {
                return null;
            }
            i = j;
        }
        return out.toString();
    }

    private static String hex(byte[] bytes) {
        StringBuilder sb = new StringBuilder("X'");
        for (byte b : bytes) {
            sb.append(String.format("%02X", b));
        }
        return sb.append('\'').toString();
    }
}
