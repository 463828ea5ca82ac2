package io.tributary.expressions.internal;

import static io.tributary.schema.DataType.BINARY;
import static io.tributary.schema.DataType.STRING;

import io.tributary.schema.DataType;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Spark's base64, unbase64, encode, decode (of a charset, and its search-and-result form), to_binary, try_to_binary,
 * url_encode, url_decode and try_url_decode. URLs' parts are {@link UrlFunctions}.
 */
final class EncodingFunctions {
    /** The charsets Spark 4.2 takes ({@code spark.sql.legacy.javaCharsets} off). */
    private static final Set<String> CHARSETS = Set.of("us-ascii", "iso-8859-1", "utf-8", "utf-16be", "utf-16le", "utf-16", "utf-32");

    private EncodingFunctions() {
    }

    static void register(Consumer<FunctionDef> add) {
        add.accept(Fn.custom("base64", 1, 1, "base64(BINARY or STRING) → STRING", FunctionDef.NULL_IN_NULL_OUT,
                "the bytes (a text's UTF-8) as base64 text in lines of 76 characters", (call, args) -> call.apply(List.of(bytes(call, args.get(0))),
                        STRING, (Kernel.Unary) v -> Base64.getMimeEncoder().encodeToString((byte[]) v))));
        add.accept(Fn.unary("unbase64", "the bytes of base64 text, characters outside the alphabet skipped;"
                + " IllegalArgumentException (Spark's bare exception) for bad padding", STRING, BINARY, v -> unbase64((String) v, "unbase64", false)));
        add.accept(Fn.binary("encode", "the text's bytes in the charset (US-ASCII, ISO-8859-1, UTF-8, UTF-16BE, UTF-16LE, UTF-16, UTF-32);"
                + " MALFORMED_CHARACTER_CODING for a character it cannot hold", STRING, STRING, BINARY, (s, c) -> encode((String) s, (String) c)));
        add.accept(Fn.custom("decode", 2, -1, "decode(BINARY, charset STRING) → STRING; decode(expr, search, result[, search, result]...[, default])",
                "null if the bytes or charset are null; a null search matches a null expr", "the bytes as text of the charset; or the result of"
                        + " the first search equal to expr, else default (null)", (call, args) -> args.size() == 2
                        ? call.apply(List.of(bytes(call, args.get(0)), call.as(args.get(1), STRING)), STRING,
                                (Kernel.Binary) (b, c) -> decode((byte[]) b, (String) c)) : searchDecode(call, args)));
        add.accept(Fn.custom("to_binary", 1, 2, "to_binary(str STRING[, fmt STRING]) → BINARY", FunctionDef.NULL_IN_NULL_OUT,
                "the text read as fmt: 'hex' (the default), 'utf-8' or 'base64'; CONVERSION_INVALID_INPUT when it does not read",
                (call, args) -> toBinary(call, args, false)));
        add.accept(Fn.custom("try_to_binary", 1, 2, "try_to_binary(str STRING[, fmt STRING]) → BINARY", "null if an argument is null, or it does not read",
                "to_binary, null where it fails or the format is unknown", (call, args) -> toBinary(call, args, true)));
        add.accept(Fn.unary("url_encode", "the text in application/x-www-form-urlencoded form (UTF-8)", STRING, STRING,
                v -> URLEncoder.encode((String) v, StandardCharsets.UTF_8)));
        add.accept(Fn.unary("url_decode", "the application/x-www-form-urlencoded text decoded (UTF-8); CANNOT_DECODE_URL when malformed",
                STRING, STRING, v -> urlDecode((String) v, false)));
        add.accept(Fn.unary("try_url_decode", "url_decode, null where it fails", STRING, STRING, v -> urlDecode((String) v, true)));
    }

    private static Object urlDecode(String s, boolean orNull) {
        try {
            return URLDecoder.decode(s, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            if (orNull) {
                return null;
            }
            throw Failure.of("CANNOT_DECODE_URL", "the url '" + s + "' cannot be decoded: " + e.getMessage());
        }
    }

    private static Charset charset(String name) {
        if (!CHARSETS.contains(name.toLowerCase(Locale.ROOT))) {
            throw Failure.of("INVALID_PARAMETER_VALUE.CHARSET", "the charset '" + name + "' is none of " + String.join(", ", CHARSETS));
        }
        return Charset.forName(name);
    }

    static byte[] encode(String s, String charset) {
        try {
            ByteBuffer b = charset(charset).newEncoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).encode(CharBuffer.wrap(s));
            byte[] out = new byte[b.remaining()];
            b.get(out);
            return out;
        } catch (CharacterCodingException e) {
            throw Failure.of("MALFORMED_CHARACTER_CODING", "encode cannot write the text in " + charset);
        }
    }

    static String decode(byte[] bytes, String charset) {
        try {
            return charset(charset).newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw Failure.of("MALFORMED_CHARACTER_CODING", "decode cannot read the bytes as " + charset);
        }
    }

    /** Spark's decode(expr, search, result, ...): CASE WHEN expr <=> search THEN result ... ELSE default (a null STRING) END. */
    private static Bound searchDecode(Analyzer.Call call, List<Bound> args) {
        List<Bound> conditions = new ArrayList<>();
        List<Bound> values = new ArrayList<>();
        for (int i = 1; i + 1 < args.size(); i += 2) {
            conditions.add(nullSafeEqual(call, args.get(0), args.get(i)));
            values.add(args.get(i + 1));
        }
        Bound otherwise = args.size() % 2 == 0 ? args.get(args.size() - 1) : new Bound.Literal(null, STRING, "NULL");
        List<Bound> all = new ArrayList<>(values);
        all.add(otherwise);
        DataType type = ConditionalFunctions.common(call, all);
        return new Bound.Case(conditions, values.stream().map(v -> call.as(v, type)).toList(), call.as(otherwise, type), type, call.text());
    }

    private static Bound nullSafeEqual(Analyzer.Call call, Bound a, Bound b) {
        DataType common = Predicates.comparable(call, List.of(a, b));
        if (common == null) {
            return new Bound.Literal(true, DataType.BOOLEAN, call.text());
        }
        Comparator<Object> order = Predicates.ordering(common);
        return call.applyTolerant(List.of(call.as(a, common), call.as(b, common)), DataType.BOOLEAN, (Kernel.Binary) (x, y) ->
                x == null || y == null ? x == y : order.compare(x, y) == 0);
    }

    /** A BINARY argument, or a text's UTF-8 bytes (Spark's implicit cast); other types are refused. */
    static Bound bytes(Analyzer.Call call, Bound b) {
        if (b.type() == null || Types.is(b.type(), DataType.Kind.BINARY)) {
            return call.as(b, BINARY);
        }
        if (!Types.is(b.type(), DataType.Kind.STRING)) {
            throw call.typeError("[DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE] " + call.name() + " needs a BINARY or STRING, and '" + b.text()
                    + "' is " + Types.name(b.type()));
        }
        return new Bound.Apply("cast", List.of(b), (Kernel.Unary) v -> ((String) v).getBytes(StandardCharsets.UTF_8), false, BINARY, b.text());
    }

    private static Bound toBinary(Analyzer.Call call, List<Bound> args, boolean orNull) {
        Bound str = call.as(args.get(0), STRING);
        String fmt = "hex";
        if (args.size() > 1) {
            if (!(args.get(1) instanceof Bound.Literal l)) {
                throw call.typeError("[DATATYPE_MISMATCH.NON_FOLDABLE_INPUT] the format of " + call.name() + " must be a constant, and '"
                        + args.get(1).text() + "' is not one");
            }
            if (l.value() == null) {
                return new Bound.Literal(null, BINARY, call.text());
            }
            fmt = String.valueOf(l.value()).toLowerCase(Locale.ROOT);
        }
        String format = fmt;
        if (!List.of("hex", "utf-8", "utf8", "base64").contains(format)) {
            if (orNull) {
                return new Bound.Literal(null, BINARY, call.text());
            }
            throw call.typeError("[INVALID_PARAMETER_VALUE.BINARY_FORMAT] the format of to_binary must be 'hex', 'utf-8', 'utf8' or 'base64',"
                    + " and it is '" + args.get(1).text() + "'");
        }
        return call.apply(List.of(str), BINARY, (Kernel.Unary) v -> {
            try {
                return switch (format) {
                    case "hex" -> unhex((String) v);
                    case "base64" -> unbase64((String) v, "to_binary", true);
                    default -> ((String) v).getBytes(StandardCharsets.UTF_8);
                };
            } catch (Failure f) {
                if (orNull) {
                    return null;
                }
                throw f;
            }
        });
    }

    private static byte[] unhex(String s) {
        byte[] out = RadixFunctions.unhex(s);
        if (out == null) {
            throw invalid(s, "HEX");
        }
        return out;
    }

    private static Failure invalid(String s, String format) {
        return Failure.of("CONVERSION_INVALID_INPUT", "the value '" + s + "' is not valid " + format + "; use try_to_binary to get null");
    }

    /** Base64 text's bytes (MIME: characters outside the alphabet skipped); with {@code strict}, Spark's check of the text first. */
    static byte[] unbase64(String s, String function, boolean strict) {
        if (strict && !validBase64(s)) {
            throw invalid(s, "BASE64");
        }
        try {
            return Base64.getMimeDecoder().decode(s);
        } catch (IllegalArgumentException e) {
            // Spark lets the decoder's exception through: its class is the error class
            throw Failure.of("IllegalArgumentException", function + " cannot read '" + s + "' as base64: " + e.getMessage());
        }
    }

    private static boolean validBase64(String s) {
        int count = 0;
        int pad = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (pad > 0 && c != '=') {
                return false;
            }
            if (Character.isWhitespace(c)) {
                continue;
            }
            if (c == '=') {
                pad++;
                if (pad > 2) {
                    return false;
                }
            } else if (pad > 0 || !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/')) {
                return false;
            }
            count++;
        }
        return pad > 0 ? count % 4 == 0 : count % 4 != 1;
    }
}
