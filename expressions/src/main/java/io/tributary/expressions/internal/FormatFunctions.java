package io.tributary.expressions.internal;

import static io.tributary.schema.DataType.STRING;
import static io.tributary.schema.DataType.TIMESTAMP;

import io.tributary.schema.DataType;
import java.math.BigDecimal;
import java.time.DateTimeException;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Formatter;
import java.util.IllegalFormatException;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * {@code format_string} (Java's {@link Formatter} over Spark's internal values, as Spark calls it) and the time zone
 * conversions {@code from_utc_timestamp} and {@code to_utc_timestamp}.
 */
final class FormatFunctions {
    private FormatFunctions() {
    }

    static void register(Consumer<FunctionDef> add) {
        FunctionDef format = Fn.custom("format_string", 1, -1, "format_string(fmt STRING, any, ...) → STRING", "null if fmt is null; a null"
                + " argument formats as null", "printf-style formatting with Java's Formatter (Locale.US); a DATE formats as its days since"
                + " 1970-01-01 and a TIMESTAMP as its microseconds, a DECIMAL only with %s, as in Spark; the Formatter's exception"
                + " (IllegalFormatConversionException ...) where the pattern does not fit", FormatFunctions::formatString);
        add.accept(format);
        add.accept(Fn.alias("printf", format));
        add.accept(zoned("from_utc_timestamp", "the UTC time ts as the wall-clock time of the zone tz (a region id, Europe/Paris, or an"
                + " offset, +02:00), given as a timestamp in UTC", true));
        add.accept(zoned("to_utc_timestamp", "the wall-clock time ts of the zone tz as the UTC time it is (a time in a DST gap moves"
                + " forward by the gap, one of an overlap takes the earlier offset)", false));
    }

    private static Bound formatString(Analyzer.Call call, List<Bound> args) {
        List<Bound> cast = new ArrayList<>(args);
        cast.set(0, call.as(args.get(0), STRING));
        return call.applyTolerant(cast, STRING, a -> {
            if (a[0] == null) {
                return null;
            }
            Object[] values = new Object[a.length - 1];
            for (int i = 1; i < a.length; i++) {
                values[i - 1] = a[i] instanceof BigDecimal d ? new SparkDecimal(d) : a[i];
            }
            StringBuilder sb = new StringBuilder();
            try (Formatter f = new Formatter(sb, Locale.US)) {
                f.format((String) a[0], values);
            } catch (IllegalFormatException e) {
                throw Failure.of(e.getClass().getSimpleName(), String.valueOf(e.getMessage()));
            }
            return sb.toString();
        });
    }

    /** What a DECIMAL is to the Formatter in Spark: an object of its own, which only %s (its text) formats. */
    private record SparkDecimal(BigDecimal value) {
        @Override
        public String toString() {
            return value.toString();
        }
    }

    /** from_utc_timestamp ({@code fromUtc}) or to_utc_timestamp; a zone written as a literal is looked up once. */
    private static FunctionDef zoned(String name, String doc, boolean fromUtc) {
        return Fn.custom(name, 2, 2, name + "(ts TIMESTAMP, tz STRING) → TIMESTAMP", FunctionDef.NULL_IN_NULL_OUT, doc, (call, args) -> {
            List<Bound> cast = List.of(call.as(args.get(0), TIMESTAMP), call.as(args.get(1), STRING));
            ZoneId fixed = null;
            if (cast.get(1) instanceof Bound.Literal l && l.value() instanceof String id) {
                try {
                    fixed = zone(id);
                } catch (Failure invalid) {
                    fixed = null; // each row fails, as in Spark
                }
            }
            ZoneId literal = fixed;
            return call.apply(cast, TIMESTAMP, (Kernel.Binary) (ts, tz) -> {
                ZoneId z = literal != null ? literal : zone((String) tz);
                long micros = (Long) ts;
                // from UTC: the instant moved by the zone's offset at that instant, which is convertTz's result, without its LocalDateTimes
                try { // past the range: Spark's bare ArithmeticException (its instantToMicros)
                    return fromUtc ? Math.addExact(micros, z.getRules().getOffset(Dates.instant(micros)).getTotalSeconds() * 1_000_000L)
                            : convert(micros, z, ZoneOffset.UTC);
                } catch (ArithmeticException e) {
                    throw Failure.bareArithmetic("long overflow");
                }
            });
        });
    }

    /** Spark's {@code DateTimeUtils.convertTz}: the wall-clock time of {@code micros} in {@code to}, read as a time of {@code from}. */
    static long convert(long micros, ZoneId from, ZoneId to) {
        LocalDateTime local = LocalDateTime.ofInstant(Dates.instant(micros), to);
        return Dates.micros(local.atZone(from).withZoneSameInstant(ZoneOffset.UTC).toLocalDateTime());
    }

    /** Spark's {@code getZoneId}: a region or offset id, short ids (PST) included, {@code +h:mm} and {@code +hh:m} too. */
    static ZoneId zone(String id) {
        String formatted = id.replaceFirst("(\\+|\\-)(\\d):", "$10$2:").replaceFirst("(\\+|\\-)(\\d\\d):(\\d)$", "$1$2:0$3");
        try {
            return ZoneId.of(formatted, ZoneId.SHORT_IDS);
        } catch (DateTimeException e) {
            throw Failure.of("INVALID_TIMEZONE", "the time zone '" + id + "' is not a region id (Europe/Paris) or an offset (+02:00)");
        }
    }
}
