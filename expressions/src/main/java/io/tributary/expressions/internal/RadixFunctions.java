package io.tributary.expressions.internal;

import io.tributary.schema.DataType;
import io.tributary.schema.DataType.Kind;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * Numbers as text, as Spark 4.2 writes and reads them: {@code hex}, {@code unhex}, {@code bin}, {@code conv}
 * (Spark's NumberConverter, through an unsigned 64-bit number) and {@code format_number} (Java's DecimalFormat with
 * Spark's pattern, US symbols, halves to even).
 */
final class RadixFunctions {
    private static final String GROUPED = "#,###,###,###,###,###,##0";
    /** The last pattern this thread formatted with and its DecimalFormat, which is not thread-safe and costly to build. */
    private static final ThreadLocal<Object[]> LAST_FORMAT = new ThreadLocal<>();

    private RadixFunctions() {
    }

    static void register(Consumer<FunctionDef> add) {
        add.accept(Fn.custom("hex", 1, 1, "hex(x BIGINT, STRING or BINARY) → STRING", FunctionDef.NULL_IN_NULL_OUT,
                "upper-case hexadecimal: a number (cast to BIGINT) as its 64-bit two's complement, text (a date's or timestamp's) as its UTF-8 bytes", RadixFunctions::hex));
        add.accept(Fn.custom("unhex", 1, 1, "unhex(s STRING) → BINARY", FunctionDef.NULL_IN_NULL_OUT,
                "the bytes that the hexadecimal digits of s spell (a leading 0 added to an odd count); null for any other character",
                (call, args) -> call.apply(List.of(text(call, args.get(0))), DataType.BINARY, (Kernel.Unary) v -> unhex((String) v))));
        add.accept(Fn.custom("bin", 1, 1, "bin(n BIGINT) → STRING", FunctionDef.NULL_IN_NULL_OUT,
                "n in binary, a negative n as its 64-bit two's complement", (call, args) -> call.apply(List.of(whole(call, args.get(0))),
                        DataType.STRING, (Kernel.Unary) v -> Long.toBinaryString((Long) v))));
        add.accept(Fn.custom("conv", 3, 3, "conv(num STRING, from INT, to INT) → STRING", FunctionDef.NULL_IN_NULL_OUT,
                "num's digits in base from (2 to 36, read up to the first other character, the text's spaces trimmed) written in base to"
                        + " (upper case; a negative to writes a signed number); null for a base out of range or empty text;"
                        + " ARITHMETIC_OVERFLOW past 64 bits", (call, args) -> call.apply(List.of(text(call, args.get(0)),
                        call.as(args.get(1), DataType.INT), call.as(args.get(2), DataType.INT)), DataType.STRING, (Kernel) v ->
                        conv(((String) v[0]).replaceAll("^ +| +$", "").getBytes(StandardCharsets.UTF_8), (Integer) v[1], (Integer) v[2]))));
        add.accept(Fn.custom("format_number", 2, 2, "format_number(x NUMERIC, d INT or STRING) → STRING", FunctionDef.NULL_IN_NULL_OUT,
                "x grouped by thousands with d decimal places, halves to even (null for d below 0), or in the DecimalFormat pattern d",
                RadixFunctions::formatNumber));
    }

    /** A number, BOOLEAN, DATE or timestamp argument as text, as Spark casts it for a STRING parameter. */
    private static Bound text(Analyzer.Call call, Bound x) {
        if (x.type() == null || x.type().kind() == Kind.STRING) {
            return call.as(x, DataType.STRING);
        }
        if (Types.numeric(x.type()) || Types.is(x.type(), Kind.BOOLEAN) || Types.is(x.type(), Kind.DATE) || Types.is(x.type(), Kind.TIMESTAMP)
                || Types.is(x.type(), Kind.TIMESTAMP_NTZ)) { // Spark's ANSI implicit cast of an atomic value to STRING
            return call.castTo(x, DataType.STRING);
        }
        throw call.typeError("'" + x.text() + "' is " + Types.name(x.type()) + ", and " + call.name() + " needs text, a number, a boolean, a date or a timestamp");
    }

    /** A number or text argument as a BIGINT, as Spark's ANSI cast makes it. */
    private static Bound whole(Analyzer.Call call, Bound x) {
        if (x.type() == null || Types.numeric(x.type()) || x.type().kind() == Kind.STRING) {
            return call.castTo(x, DataType.LONG);
        }
        throw call.typeError("'" + x.text() + "' is " + Types.name(x.type()) + ", and " + call.name() + " needs a number");
    }

    private static Bound hex(Analyzer.Call call, List<Bound> args) {
        Bound x = args.get(0);
        if (Types.is(x.type(), Kind.STRING) || Types.is(x.type(), Kind.BOOLEAN) || Types.is(x.type(), Kind.DATE) || Types.is(x.type(), Kind.TIMESTAMP)
                || Types.is(x.type(), Kind.TIMESTAMP_NTZ)) { // a date or timestamp as its text, as Spark's implicit cast to STRING
            return call.apply(List.of(call.castTo(x, DataType.STRING)), DataType.STRING,
                    (Kernel.Unary) v -> hex(((String) v).getBytes(StandardCharsets.UTF_8)));
        }
        if (Types.is(x.type(), Kind.BINARY)) {
            return call.apply(List.of(x), DataType.STRING, (Kernel.Unary) v -> hex((byte[]) v));
        }
        return call.apply(List.of(whole(call, x)), DataType.STRING, (Kernel.Unary) v -> Long.toHexString((Long) v).toUpperCase(Locale.ROOT));
    }

    private static String hex(byte[] bytes) {
        StringBuilder sb = new StringBuilder(bytes.length * 2);
        for (byte b : bytes) {
            sb.append(Character.toUpperCase(Character.forDigit((b >> 4) & 0xF, 16))).append(Character.toUpperCase(Character.forDigit(b & 0xF, 16)));
        }
        return sb.toString();
    }

    /** The bytes hex text spells (an odd count of digits gets a leading zero digit), or null when it is not hex. */
    static byte[] unhex(String s) {
        byte[] in = s.getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[(in.length + 1) / 2];
        int i = 0;
        int o = 0;
        if (in.length % 2 == 1) {
            int d = Character.digit((char) in[0], 16);
            if (in[0] < 0 || d < 0) {
                return null;
            }
            out[o++] = (byte) d;
            i = 1;
        }
        for (; i < in.length; i += 2) {
            int hi = in[i] < 0 ? -1 : Character.digit((char) in[i], 16);
            int lo = in[i + 1] < 0 ? -1 : Character.digit((char) in[i + 1], 16);
            if (hi < 0 || lo < 0) {
                return null;
            }
            out[o++] = (byte) ((hi << 4) | lo);
        }
        return out;
    }

    /** Spark's NumberConverter.convert under ANSI mode. */
    static String conv(byte[] n, int fromBase, int toBase) {
        if (fromBase < Character.MIN_RADIX || fromBase > Character.MAX_RADIX || Math.abs(toBase) < Character.MIN_RADIX
                || Math.abs(toBase) > Character.MAX_RADIX || n.length == 0) {
            return null;
        }
        boolean negative = n[0] == '-';
        int first = negative ? 1 : 0;
        byte[] temp = new byte[Math.max(n.length, 64)];
        int from = temp.length - n.length + first;
        System.arraycopy(n, first, temp, from, n.length - first);
        for (int i = from; i < temp.length; i++) {
            temp[i] = (byte) Character.digit(temp[i], fromBase);
        }
        long v = encode(temp, fromBase, from);
        if (negative && toBase > 0) {
            v = v < 0 ? -1 : -v;
        }
        if (toBase < 0 && v < 0) {
            v = -v;
            negative = true;
        }
        int radix = Math.abs(toBase);
        Arrays.fill(temp, (byte) 0);
        int i = temp.length - 1;
        for (long rest = v; rest != 0; i--) {
            long q = Long.divideUnsigned(rest, radix);
            temp[i] = (byte) (rest - q * radix);
            rest = q;
        }
        int start = temp.length - 1;
        for (int j = 0; j < temp.length; j++) {
            if (temp[j] != 0) {
                start = j;
                break;
            }
        }
        StringBuilder sb = new StringBuilder(negative && toBase < 0 ? "-" : "");
        for (int j = start; j < temp.length; j++) {
            sb.append(Character.toUpperCase(Character.forDigit(temp[j], radix)));
        }
        return sb.toString();
    }

    private static long encode(byte[] value, int radix, int from) {
        long v = 0;
        long bound = Long.divideUnsigned(-1 - radix, radix);
        for (int i = from; i < value.length && value[i] >= 0; i++) {
            if (v < 0 || v >= bound && Long.divideUnsigned(-1 - value[i], radix) < v) {
                throw Failure.of("ARITHMETIC_OVERFLOW", "conv overflows 64 bits");
            }
            v = v * radix + value[i];
        }
        return v;
    }

    private static Bound formatNumber(Analyzer.Call call, List<Bound> args) {
        Bound x = args.get(0);
        if (x.type() != null && !Types.numeric(x.type())) {
            throw call.typeError("'" + x.text() + "' is " + Types.name(x.type()) + ", and format_number needs a number");
        }
        Bound d = args.get(1);
        boolean pattern = Types.is(d.type(), Kind.STRING);
        if (!pattern && d.type() != null && (!Types.integral(d.type()) || d.type().kind() == Kind.LONG)) {
            throw call.typeError("the second argument of format_number is an INT or a STRING pattern, and '" + d.text() + "' is " + Types.name(d.type()));
        }
        Bound arg = x.type() == null ? call.as(x, DataType.DOUBLE) : x;
        return call.apply(List.of(arg, pattern ? d : call.as(d, DataType.INT)), DataType.STRING, (Kernel.Binary) (v, f) -> {
            String p;
            if (f instanceof Integer places) {
                if (places < 0) {
                    return null;
                }
                p = places == 0 ? GROUPED : GROUPED + "." + "0".repeat(places);
            } else {
                p = ((String) f).isEmpty() ? GROUPED : (String) f;
            }
            DecimalFormat format = decimalFormat(p);
            if (v instanceof BigDecimal b) {
                return format.format(b);
            }
            if (v instanceof Double || v instanceof Float) {
                return format.format(((Number) v).doubleValue());
            }
            return format.format(((Number) v).longValue());
        });
    }

    private static DecimalFormat decimalFormat(String pattern) {
        Object[] last = LAST_FORMAT.get();
        if (last != null && last[0].equals(pattern)) {
            return (DecimalFormat) last[1];
        }
        DecimalFormat format = new DecimalFormat("", new DecimalFormatSymbols(Locale.US));
        format.applyLocalizedPattern(pattern);
        LAST_FORMAT.set(new Object[] {pattern, format});
        return format;
    }
}
