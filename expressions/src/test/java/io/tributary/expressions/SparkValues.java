package io.tributary.expressions;

import io.tributary.schema.DataType;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Values as compat/spark's {@code SparkExpressions.canonical} writes Spark's in the golden files ({@code \N} for null, text
 * escaped, decimals plain, timestamps ISO-8601, arrays, structs and maps by their elements), so a test compares Tributary's
 * value with Spark's as text; other modules' tests take it from this module's test-jar.
 */
public final class SparkValues {
    private SparkValues() {
    }

    /** Text as SparkExpressions writes it: backslash, tab and line breaks escaped, a leading {@code !} too (it marks a failure). */
    public static String escape(String s) {
        String e = s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r");
        return e.startsWith("!") ? "\\" + e : e;
    }

    /** A value as SparkExpressions writes Spark's: the same text for the same value. */
    public static String canonical(Object v, DataType type) {
        if (v == null) {
            return "\\N";
        }
        if (type == null) {
            return String.valueOf(v);
        }
        if (io.tributary.expressions.internal.Variants.isVariant(type)) {
            return escape(io.tributary.expressions.internal.Variants.json(v));
        }
        if (io.tributary.expressions.internal.CalendarIntervals.isCalendar(type)) {
            return v.toString(); // Spark's text of a CALENDAR INTERVAL: 1 years 2 months 3 days 4.5 seconds
        }
        if (io.tributary.expressions.internal.Intervals.isInterval(type)) {
            return io.tributary.expressions.internal.Intervals.canonical(v, type);
        }
        if (io.tributary.expressions.internal.Times.isTime(type)) {
            return java.time.LocalTime.ofNanoOfDay((Long) v).toString();
        }
        return switch (type.kind()) {
            case STRING -> escape((String) v);
            case DECIMAL -> ((BigDecimal) v).toPlainString();
            case DATE -> LocalDate.ofEpochDay((Integer) v).toString();
            case BINARY -> {
                StringBuilder sb = new StringBuilder("0x");
                for (byte b : (byte[]) v) {
                    sb.append(String.format("%02X", b));
                }
                yield sb.toString();
            }
            case TIMESTAMP -> Instant.ofEpochSecond(Math.floorDiv((Long) v, 1_000_000L), Math.floorMod((Long) v, 1_000_000L) * 1000).toString();
            case TIMESTAMP_NTZ -> LocalDateTime.ofEpochSecond(Math.floorDiv((Long) v, 1_000_000L),
                    (int) Math.floorMod((Long) v, 1_000_000L) * 1000, ZoneOffset.UTC).toString();
            case ARRAY -> {
                List<String> parts = new ArrayList<>();
                for (Object e : (List<?>) v) {
                    parts.add(canonical(e, type.element()));
                }
                yield "[" + String.join(", ", parts) + "]";
            }
            case STRUCT -> {
                List<String> parts = new ArrayList<>();
                Object[] fields = (Object[]) v;
                for (int i = 0; i < fields.length; i++) {
                    parts.add(canonical(fields[i], type.struct().field(i).type()));
                }
                yield "{" + String.join(", ", parts) + "}";
            }
            case MAP -> {
                List<String> parts = new ArrayList<>();
                for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                    parts.add(canonical(e.getKey(), type.keyType()) + " -> " + canonical(e.getValue(), type.element()));
                }
                yield "{" + String.join(", ", parts) + "}";
            }
            default -> v.toString();
        };
    }
}
