package io.tributary.expressions.internal;

import io.tributary.schema.DataType;
import io.tributary.schema.DataType.Kind;
import io.tributary.schema.TextCasts;
import io.tributary.schema.Timestamps;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Spark 4.2's ANSI {@code CAST} between the supported types, one kernel per pair of types: numbers
 * narrow with CAST_OVERFLOW, decimals round half up and fail with NUMERIC_VALUE_OUT_OF_RANGE, text
 * that does not read as the target fails with CAST_INVALID_INPUT. Null casts to null.
 */
public final class Casts {
    private static final long MICROS_PER_SECOND = 1_000_000L;
    private static final long MICROS_PER_DAY = 86_400_000_000L;
    /** A timestamp's text followed by a zone, which a cast to TIMESTAMP_NTZ checks and ignores. */
    private static final Pattern ZONED = Pattern.compile("(\\d{4,}-\\d{1,2}-\\d{1,2}[T ]\\d{1,2}:\\d{1,2}:\\d{1,2}(?:\\.\\d*)?)"
            + "\\s*([+-]\\d{1,2}(?::?\\d{2})?|[A-Za-z][A-Za-z_/]*(?:[+-]\\d{1,2}(?::?\\d{2})?)?)");

    private Casts() {
    }

    /** Whether Spark can cast {@code from} to {@code to} at all. */
    public static boolean canCast(DataType from, DataType to) {
        if (Variants.isVariant(from) || Variants.isVariant(to)) {
            return VariantCasts.canCast(from, to);
        }
        if (CalendarIntervals.isCalendar(from) || CalendarIntervals.isCalendar(to)) {
            return from == null || from.equals(to) || (CalendarIntervals.isCalendar(from) ? Types.is(to, Kind.STRING) : Types.is(from, Kind.STRING));
        }
        if (Times.isTime(from) || Times.isTime(to)) {
            return Times.isTime(from) && (from.equals(to) || Types.integral(to) || Types.isDecimal(to) || Types.is(to, Kind.STRING));
        }
        if (Intervals.isInterval(from) || Intervals.isInterval(to)) {
            return from == null || from.equals(to) || to.kind() == Kind.STRING && !to.isNested() || from.kind() == Kind.STRING && !Intervals.isInterval(from);
        }
        if (from == null || from.equals(to) || to.kind() == Kind.STRING) {
            return true;
        }
        Kind f = from.kind();
        Kind t = to.kind();
        boolean fromNumber = Types.numeric(from) || f == Kind.BOOLEAN;
        boolean toNumber = Types.numeric(to) || t == Kind.BOOLEAN;
        return switch (f) {
            case STRING -> t != Kind.STRUCT && t != Kind.ARRAY && t != Kind.MAP;
            case DATE -> t == Kind.TIMESTAMP || t == Kind.TIMESTAMP_NTZ;
            case TIMESTAMP -> Types.numeric(to) || t == Kind.DATE || t == Kind.TIMESTAMP || t == Kind.TIMESTAMP_NTZ;
            case TIMESTAMP_NTZ -> t == Kind.DATE || t == Kind.TIMESTAMP || t == Kind.TIMESTAMP_NTZ; // Spark casts no TIMESTAMP_NTZ to a number
            case BINARY -> false;
            case STRUCT, ARRAY, MAP -> false;
            default -> fromNumber && (toNumber || (t == Kind.TIMESTAMP && f != Kind.BOOLEAN));
        };
    }

    /** The kernel casting a value of {@code from} to {@code to} (both known castable). */
    public static Kernel.Unary kernel(DataType from, DataType to) {
        if (from == null || from.equals(to)) {
            return v -> v;
        }
        if (Variants.isVariant(from) || Variants.isVariant(to)) {
            return VariantCasts.kernel(from, to);
        }
        if (CalendarIntervals.isCalendar(from)) {
            return Object::toString;
        }
        if (CalendarIntervals.isCalendar(to)) {
            return v -> CalendarIntervalText.orNull((String) v);
        }
        if (Intervals.isInterval(from)) {
            return v -> IntervalText.format(v, from);
        }
        if (Times.isTime(from)) {
            return fromTime(to);
        }
        if (Intervals.isInterval(to)) {
            return v -> IntervalText.parse((String) v, to);
        }
        String target = to.ddl();
        return switch (to.kind()) {
            case STRING -> v -> toText(v, from);
            case BOOLEAN -> from.kind() == Kind.STRING ? v -> textToBoolean((String) v) : v -> toDouble(v, from) != 0;
            case BYTE, SHORT, INT, LONG -> integral(from, to, target);
            case FLOAT -> from.kind() == Kind.STRING ? v -> (float) textToDouble((String) v, target) : v -> (float) toDouble(v, from);
            case DOUBLE -> from.kind() == Kind.STRING ? v -> textToDouble((String) v, target) : v -> toDouble(v, from);
            case DECIMAL -> v -> {
                BigDecimal d = toDecimal(v, from, target);
                return d == null ? null : Decimals.fit(d, to);
            };
            case DATE -> from.kind() == Kind.STRING ? v -> textToDate((String) v) : v -> (int) Math.floorDiv((Long) v, MICROS_PER_DAY);
            case TIMESTAMP, TIMESTAMP_NTZ -> toTimestamp(from, to);
            case BINARY -> v -> ((String) v).getBytes(StandardCharsets.UTF_8);
            default -> throw new IllegalArgumentException("no cast to " + to);
        };
    }

    /** A TIME as text, as its whole seconds since midnight (CAST_OVERFLOW past the type), or as them with their fraction in a DECIMAL. */
    private static Kernel.Unary fromTime(DataType to) {
        if (to.kind() == Kind.STRING) {
            return v -> Times.format((Long) v);
        }
        if (to.kind() == Kind.DECIMAL) {
            return v -> Decimals.fit(Times.seconds((Long) v), to);
        }
        Kernel.Unary narrow = integral(DataType.LONG, to, to.ddl());
        return v -> narrow.apply1((Long) v / Times.NANOS_PER_SECOND);
    }

    private static Kernel.Unary integral(DataType from, DataType to, String target) {
        long min = switch (to.kind()) {
            case BYTE -> Byte.MIN_VALUE;
            case SHORT -> Short.MIN_VALUE;
            case INT -> Integer.MIN_VALUE;
            default -> Long.MIN_VALUE;
        };
        long max = -(min + 1);
        Kind t = to.kind();
        Kernel.Unary toLong = switch (from.kind()) {
            case STRING -> v -> textToLong((String) v, min, max, target);
            case BOOLEAN -> v -> (Boolean) v ? 1L : 0L;
            case BYTE, SHORT, INT, LONG -> v -> ((Number) v).longValue();
            case FLOAT, DOUBLE -> v -> {
                double d = ((Number) v).doubleValue();
                if (Double.isNaN(d) || d <= min - 1.0 || d >= max + 1.0) {
                    throw Failure.castOverflow(d, target);
                }
                return (long) d;
            };
            case DECIMAL -> v -> {
                BigDecimal d = ((BigDecimal) v).setScale(0, RoundingMode.DOWN);
                if (d.compareTo(BigDecimal.valueOf(min)) < 0 || d.compareTo(BigDecimal.valueOf(max)) > 0) {
                    throw Failure.castOverflow(v, target);
                }
                return d.longValue();
            };
            case TIMESTAMP, TIMESTAMP_NTZ -> v -> Math.floorDiv((Long) v, MICROS_PER_SECOND);
            default -> throw new IllegalArgumentException("no cast from " + from);
        };
        return v -> {
            long l = (Long) toLong.apply1(v);
            if (l < min || l > max) {
                throw Failure.castOverflow(v, target);
            }
            return switch (t) {
                case BYTE -> (byte) l;
                case SHORT -> (short) l;
                case INT -> (int) l;
                default -> l;
            };
        };
    }

    static double toDouble(Object v, DataType from) {
        return switch (from.kind()) {
            case BOOLEAN -> (Boolean) v ? 1 : 0;
            case TIMESTAMP, TIMESTAMP_NTZ -> (Long) v / (double) MICROS_PER_SECOND;
            default -> ((Number) v).doubleValue();
        };
    }

    private static BigDecimal toDecimal(Object v, DataType from, String target) {
        return switch (from.kind()) {
            case STRING -> {
                try {
                    yield new BigDecimal(TextCasts.trim((String) v));
                } catch (NumberFormatException e) {
                    throw Failure.invalidCast(v, target);
                }
            }
            case BOOLEAN -> (Boolean) v ? BigDecimal.ONE : BigDecimal.ZERO;
            case DECIMAL -> (BigDecimal) v;
            case FLOAT, DOUBLE -> {
                double d = ((Number) v).doubleValue();
                if (Double.isNaN(d) || Double.isInfinite(d)) {
                    yield null; // Spark's Decimal(d) throws NumberFormatException, which its cast turns into null, ANSI or not
                }
                yield new BigDecimal(Double.toString(d));
            }
            case TIMESTAMP, TIMESTAMP_NTZ -> BigDecimal.valueOf((Long) v, 6);
            default -> BigDecimal.valueOf(((Number) v).longValue());
        };
    }

    private static Kernel.Unary toTimestamp(DataType from, DataType to) {
        boolean zoned = to.kind() == Kind.TIMESTAMP;
        String target = to.ddl();
        return switch (from.kind()) {
            case STRING -> v -> {
                String text = TextCasts.trim((String) v);
                Long micros = Timestamps.parseMicros(text, zoned);
                if (micros == null && !zoned) {
                    Matcher m = ZONED.matcher(text);
                    micros = m.matches() && isZone(m.group(2)) ? Timestamps.parseMicros(m.group(1), false) : null;
                }
                if (micros == null) {
                    throw Failure.invalidCast(v, target);
                }
                return micros;
            };
            case DATE -> v -> {
                try {
                    return Math.multiplyExact((long) (Integer) v, MICROS_PER_DAY); // Spark's daysToMicros: a bare ArithmeticException
                } catch (ArithmeticException e) {
                    throw Failure.bareArithmetic("long overflow");
                }
            };
            case TIMESTAMP, TIMESTAMP_NTZ -> v -> v;
            case FLOAT, DOUBLE -> v -> {
                double d = ((Number) v).doubleValue();
                double micros = d * MICROS_PER_SECOND;
                if (Double.isNaN(d) || Double.isInfinite(d)) { // Spark's doubleToTimestampAnsi: malformed, not out of range
                    throw Failure.invalidCast(d, target);
                }
                if (micros >= 0x1p63 || micros < -0x1p63) {
                    throw Failure.castOverflow(d, target);
                }
                return (long) micros;
            };
            // Spark's decimalToTimestamp: the microseconds rounded to 34 digits (Scala's BigDecimal), the whole part wrapping to 64 bits
            case DECIMAL -> v -> ((BigDecimal) v).multiply(BigDecimal.valueOf(MICROS_PER_SECOND), java.math.MathContext.DECIMAL128).longValue();
            default -> v -> saturatedMicros(((Number) v).longValue());
        };
    }

    private static boolean isZone(String id) {
        try {
            return TimestampFunctions.zone(id) != null;
        } catch (Failure notZone) {
            return false;
        }
    }

    private static long saturatedMicros(long seconds) {
        if (seconds > Long.MAX_VALUE / MICROS_PER_SECOND) {
            return Long.MAX_VALUE;
        }
        if (seconds < Long.MIN_VALUE / MICROS_PER_SECOND) {
            return Long.MIN_VALUE;
        }
        return seconds * MICROS_PER_SECOND;
    }

    private static long textToLong(String v, long min, long max, String target) {
        Long l = TextCasts.integral(TextCasts.trim(v), min, max);
        if (l == null) {
            throw Failure.invalidCast(v, target);
        }
        return l;
    }

    static double textToDouble(String v, String target) {
        Double d = TextCasts.floating(TextCasts.trim(v));
        if (d == null) {
            throw Failure.invalidCast(v, target);
        }
        return d;
    }

    private static boolean textToBoolean(String v) {
        Boolean b = TextCasts.bool(TextCasts.trim(v));
        if (b == null) {
            throw Failure.invalidCast(v, "BOOLEAN");
        }
        return b;
    }

    static int textToDate(String v) {
        Integer days = Timestamps.parseDays(TextCasts.trim(v));
        if (days == null) {
            throw Failure.invalidCast(v, "DATE");
        }
        return days;
    }

    /** A value as Spark's cast to STRING writes it. */
    public static String toText(Object v, DataType type) {
        if (v == null) {
            return null;
        }
        if (CalendarIntervals.isCalendar(type)) {
            return v.toString();
        }
        return switch (type.kind()) {
            case DECIMAL -> ((BigDecimal) v).toPlainString();
            case DATE -> Dates.format((Integer) v);
            case TIMESTAMP, TIMESTAMP_NTZ -> Dates.formatTimestamp((Long) v);
            case BINARY -> new String((byte[]) v, StandardCharsets.UTF_8);
            case ARRAY -> {
                StringBuilder sb = new StringBuilder("[");
                for (Object e : (java.util.List<?>) v) {
                    sb.append(sb.length() > 1 ? ", " : "").append(e == null ? "null" : toText(e, type.element()));
                }
                yield sb.append(']').toString();
            }
            case STRUCT -> {
                StringBuilder sb = new StringBuilder("{");
                Object[] fields = (Object[]) v;
                for (int i = 0; i < fields.length; i++) {
                    sb.append(i > 0 ? ", " : "").append(fields[i] == null ? "null" : toText(fields[i], type.struct().field(i).type()));
                }
                yield sb.append('}').toString();
            }
            case MAP -> {
                StringBuilder sb = new StringBuilder("{");
                for (java.util.Map.Entry<?, ?> e : ((java.util.Map<?, ?>) v).entrySet()) {
                    sb.append(sb.length() > 1 ? ", " : "").append(toText(e.getKey(), type.keyType())).append(" -> ")
                            .append(e.getValue() == null ? "null" : toText(e.getValue(), type.element()));
                }
                yield sb.append('}').toString();
            }
            default -> v.toString();
        };
    }
}
