package io.tributary.schema;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Base64;
import java.util.Locale;

/**
 * A MAP's keys in JSON, where an object's keys are text: {@link #text} writes a key of any primitive
 * type as the canonical JSON writes it, {@link #read} reads such a text back into the key type with
 * the rules of Spark's ANSI {@code CAST(text AS type)}: whitespace around it trimmed, integers
 * without a fraction or exponent and within the type's range, a DECIMAL rounded half up to its
 * scale, {@code NaN} and {@code Infinity} for the floating types, {@code t}/{@code yes}/{@code 1} and
 * {@code f}/{@code no}/{@code 0} (any case) for BOOLEAN, a DATE or TIMESTAMP as the reader's
 * {@link TimeTexts} read values, a BINARY as Base64 (as its values are written).
 */
final class MapKeys {
    private MapKeys() {
    }

    /** The text of a non-null key of {@code type}, which {@link #read} reads back to an equal key. */
    static String text(DataType type, Object key) {
        return switch (type.kind()) {
            case STRING -> (String) key;
            case DECIMAL -> ((BigDecimal) key).toPlainString();
            case DATE -> Timestamps.formatDays((Integer) key);
            case TIMESTAMP -> Timestamps.formatMicros((Long) key);
            case TIMESTAMP_NTZ -> Timestamps.formatMicrosNtz((Long) key);
            case BINARY -> Base64.getEncoder().encodeToString((byte[]) key);
            default -> key.toString();
        };
    }

    /** The key of {@code type} that {@code text} casts to, or null when it does not cast. */
    static Object read(DataType type, String text, TimeTexts times) {
        if (type.kind() == DataType.Kind.STRING) {
            return text;
        }
        String t = trim(text);
        return switch (type.kind()) {
            case BYTE -> integral(t, Byte.MIN_VALUE, Byte.MAX_VALUE, v -> (byte) v);
            case SHORT -> integral(t, Short.MIN_VALUE, Short.MAX_VALUE, v -> (short) v);
            case INT -> integral(t, Integer.MIN_VALUE, Integer.MAX_VALUE, v -> (int) v);
            case LONG -> integral(t, Long.MIN_VALUE, Long.MAX_VALUE, v -> v);
            case FLOAT -> {
                Double d = floating(t);
                // Float's own parse: a float's shortest text (Float.toString) reads back to the same float
                yield d == null ? null : Double.isNaN(d) || Double.isInfinite(d) ? (Object) d.floatValue() : (Object) Float.parseFloat(t);
            }
            case DOUBLE -> floating(t);
            case DECIMAL -> decimal(t, type);
            case BOOLEAN -> switch (t.toLowerCase(Locale.ROOT)) {
                case "t", "true", "y", "yes", "1" -> Boolean.TRUE;
                case "f", "false", "n", "no", "0" -> Boolean.FALSE;
                default -> null;
            };
            case DATE -> times.days(t);
            case TIMESTAMP -> times.micros(t, true);
            case TIMESTAMP_NTZ -> times.micros(t, false);
            case BINARY -> {
                try {
                    yield Base64.getDecoder().decode(text);
                } catch (IllegalArgumentException e) {
                    yield null;
                }
            }
            default -> null;
        };
    }

    private interface Narrow {
        Object of(long v);
    }

    private static Object integral(String t, long min, long max, Narrow narrow) {
        if (t.isEmpty()) {
            return null;
        }
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            if ((c < '0' || c > '9') && !(i == 0 && (c == '-' || c == '+') && t.length() > 1)) {
                return null;
            }
        }
        try {
            long v = Long.parseLong(t.charAt(0) == '+' ? t.substring(1) : t);
            return v < min || v > max ? null : narrow.of(v);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static Double floating(String t) {
        switch (t.toLowerCase(Locale.ROOT)) {
            case "inf", "+inf", "infinity", "+infinity" -> {
                return Double.POSITIVE_INFINITY;
            }
            case "-inf", "-infinity" -> {
                return Double.NEGATIVE_INFINITY;
            }
            case "nan" -> {
                return Double.NaN;
            }
            default -> {
            }
        }
        char last = t.isEmpty() ? ' ' : Character.toLowerCase(t.charAt(t.length() - 1));
        if (!(last >= '0' && last <= '9') && last != '.' && last != 'd' && last != 'f' || t.toLowerCase(Locale.ROOT).contains("x")) {
            return null;
        }
        try {
            return Double.parseDouble(t);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static BigDecimal decimal(String t, DataType type) {
        try {
            BigDecimal d = new BigDecimal(t).setScale(type.scale(), RoundingMode.HALF_UP);
            return d.precision() - d.scale() > type.precision() - type.scale() ? null : d;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** Spark trims whitespace and control characters (code points up to U+0020) around text it casts. */
    private static String trim(String s) {
        int start = 0;
        int end = s.length();
        while (start < end && s.charAt(start) <= ' ') {
            start++;
        }
        while (end > start && s.charAt(end - 1) <= ' ') {
            end--;
        }
        return s.substring(start, end);
    }
}
