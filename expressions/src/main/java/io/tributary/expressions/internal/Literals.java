package io.tributary.expressions.internal;

import io.tributary.schema.DataType;
import io.tributary.schema.Timestamps;
import java.math.BigDecimal;
import java.util.Locale;

/** Spark's literal rules: the text of a string literal unescaped, a number's type from its form. */
final class Literals {
    private Literals() {
    }

    /** A numeric literal of the form {@code n} ({@code body} its digits without the type suffix), or null when it is out of its type's range. */
    static Node.Literal number(SparkExprParser.NumberContext n, String body, String t, int p) {
        try {
            if (n instanceof SparkExprParser.IntegerLiteralContext) {
                return integer(body, t, p);
            } else if (n instanceof SparkExprParser.BigintLiteralContext) {
                return new Node.Literal(Long.parseLong(body), DataType.LONG, t, p);
            } else if (n instanceof SparkExprParser.SmallintLiteralContext) {
                return new Node.Literal(Short.parseShort(body), DataType.SHORT, t, p);
            } else if (n instanceof SparkExprParser.TinyintLiteralContext) {
                return new Node.Literal(Byte.parseByte(body), DataType.BYTE, t, p);
            } else if (n instanceof SparkExprParser.DecimalLiteralContext || n instanceof SparkExprParser.BigDecimalLiteralContext) {
                return decimal(new BigDecimal(body), t, p);
            } else if (n instanceof SparkExprParser.FloatLiteralContext) {
                return new Node.Literal(Float.parseFloat(body), DataType.FLOAT, t, p);
            }
            double d = Double.parseDouble(body);
            return Double.isInfinite(d) ? null : new Node.Literal(d, DataType.DOUBLE, t, p);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /**
     * A quoted literal's value as Spark's {@code unescapeSQLString} reads it: the quotes dropped, a doubled
     * quote one quote, {@code \n \t \r \b \0 \Z \\ \' \"} and {@code \}{@code uXXXX} their characters,
     * {@code \%} and {@code \_} kept with their backslash (LIKE reads them), any other escaped character itself.
     */
    static String unquote(String quoted) {
        char q = quoted.charAt(0);
        String body = quoted.substring(1, quoted.length() - 1);
        StringBuilder sb = new StringBuilder(body.length());
        for (int i = 0; i < body.length(); i++) {
            char c = body.charAt(i);
            if (c == q && i + 1 < body.length() && body.charAt(i + 1) == q) {
                sb.append(q);
                i++;
            } else if (c == '\\' && i + 1 < body.length()) {
                char n = body.charAt(++i);
                switch (n) {
                    case 'n' -> sb.append('\n');
                    case 't' -> sb.append('\t');
                    case 'r' -> sb.append('\r');
                    case 'b' -> sb.append('\b');
                    case '0' -> sb.append('\0');
                    case 'Z' -> sb.append('\u001A');
                    case '%', '_' -> sb.append('\\').append(n);
                    case 'u' -> {
                        if (i + 4 < body.length()) {
                            sb.append((char) Integer.parseInt(body.substring(i + 1, i + 5), 16));
                            i += 4;
                        } else {
                            sb.append(n);
                        }
                    }
                    default -> sb.append(n);
                }
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    /** An integer literal: INT when it fits, else BIGINT, else DECIMAL(p,0) as Spark types it; null when it fits none. */
    static Node.Literal integer(String digits, String text, int position) {
        BigDecimal v = new BigDecimal(digits);
        if (v.compareTo(BigDecimal.valueOf(Integer.MIN_VALUE)) >= 0 && v.compareTo(BigDecimal.valueOf(Integer.MAX_VALUE)) <= 0) {
            return new Node.Literal(v.intValueExact(), DataType.INT, text, position);
        }
        if (v.compareTo(BigDecimal.valueOf(Long.MIN_VALUE)) >= 0 && v.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) <= 0) {
            return new Node.Literal(v.longValueExact(), DataType.LONG, text, position);
        }
        return decimal(v, text, position);
    }

    /** A decimal literal: DECIMAL(max(precision, scale), scale) of its digits, as Spark's {@code Literal(BigDecimal)}. */
    static Node.Literal decimal(BigDecimal v, String text, int position) {
        if (v.scale() < 0) {
            v = v.setScale(0);
        }
        int precision = Math.max(v.precision(), v.scale());
        if (precision > 38) {
            return null;
        }
        return new Node.Literal(v, DataType.decimal(precision, v.scale()), text, position);
    }

    /** A binary literal's bytes, {@code X'4142'}: two hex digits a byte, an odd count read with a leading 0; null if not hex. */
    /** The typed literals' kinds ({@code DATE '2024-01-01'}, {@code X'2C'} ...) and their types. */
    static final java.util.Map<String, DataType> TYPED = java.util.Map.of("DATE", DataType.DATE, "TIMESTAMP", DataType.TIMESTAMP,
            "TIMESTAMP_LTZ", DataType.TIMESTAMP, "TIMESTAMP_NTZ", DataType.TIMESTAMP_NTZ, "X", DataType.BINARY, "TIME", Times.TIME);

    /** A typed literal's value of one of {@link #TYPED}'s types, or null when the text is none. */
    static Object typed(DataType type, String text) {
        if (Times.isTime(type)) {
            return Times.parse(text);
        }
        return switch (type.kind()) {
            case DATE -> Timestamps.parseDays(text);
            case TIMESTAMP -> Timestamps.parseMicros(text, true);
            case TIMESTAMP_NTZ -> Timestamps.parseMicros(text, false);
            default -> hex(text);
        };
    }

    static byte[] hex(String digits) {
        String h = digits.length() % 2 == 0 ? digits : "0" + digits;
        byte[] out = new byte[h.length() / 2];
        for (int i = 0; i < out.length; i++) {
            int hi = Character.digit(h.charAt(2 * i), 16);
            int lo = Character.digit(h.charAt(2 * i + 1), 16);
            if (hi < 0 || lo < 0) {
                return null;
            }
            out[i] = (byte) (hi << 4 | lo);
        }
        return out;
    }

    /** A number's text without its type suffix (L, S, Y, D, F, BD). */
    static String stripSuffix(String t) {
        String u = t.toUpperCase(Locale.ROOT);
        if (u.endsWith("BD")) {
            return t.substring(0, t.length() - 2);
        }
        return Character.isLetter(t.charAt(t.length() - 1)) && !u.endsWith("E") ? t.substring(0, t.length() - 1) : t;
    }
}
