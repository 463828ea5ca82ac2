package io.tributary.schema;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Base64;

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
        String t = TextCasts.trim(text);
        return switch (type.kind()) {
            case BYTE -> narrow(TextCasts.integral(t, Byte.MIN_VALUE, Byte.MAX_VALUE), Long::byteValue);
            case SHORT -> narrow(TextCasts.integral(t, Short.MIN_VALUE, Short.MAX_VALUE), Long::shortValue);
            case INT -> narrow(TextCasts.integral(t, Integer.MIN_VALUE, Integer.MAX_VALUE), Long::intValue);
            case LONG -> TextCasts.integral(t, Long.MIN_VALUE, Long.MAX_VALUE);
            case FLOAT -> {
                Double d = TextCasts.floating(t);
                // Float's own parse: a float's shortest text (Float.toString) reads back to the same float
                yield d == null ? null : Double.isNaN(d) || Double.isInfinite(d) ? (Object) d.floatValue() : (Object) Float.parseFloat(t);
            }
            case DOUBLE -> TextCasts.floating(t);
            case DECIMAL -> decimal(t, type);
            case BOOLEAN -> TextCasts.bool(t);
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

    private static Object narrow(Long v, java.util.function.Function<Long, Object> to) {
        return v == null ? null : to.apply(v);
    }

    private static BigDecimal decimal(String t, DataType type) {
        try {
            BigDecimal d = new BigDecimal(t).setScale(type.scale(), RoundingMode.HALF_UP);
            return d.precision() - d.scale() > type.precision() - type.scale() ? null : d;
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
