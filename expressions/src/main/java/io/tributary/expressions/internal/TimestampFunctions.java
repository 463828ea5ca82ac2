package io.tributary.expressions.internal;

import static io.tributary.schema.DataType.INT;
import static io.tributary.schema.DataType.STRING;
import static io.tributary.schema.DataType.TIMESTAMP;
import static io.tributary.schema.DataType.TIMESTAMP_NTZ;

import io.tributary.schema.DataType;
import io.tributary.schema.DataType.Kind;
import io.tributary.schema.Timestamps;
import io.tributary.schema.TributaryException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.DateTimeException;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Spark's conversions to timestamps with and without a time zone, convert_timezone, make_timestamp and the try_ forms that give
 * null where the plain form fails the row.
 */
final class TimestampFunctions {
    private static final DataType SECONDS = DataType.decimal(16, 6);
    private static final String[] UNPARSED = {"CAST_INVALID_INPUT", "CANNOT_PARSE_TIMESTAMP"};

    private TimestampFunctions() {
    }

    /** Spark's TimestampAdd (DateTimeUtils.timestampAdd at the session zone UTC): the unit a word, the result of the timestamp's type. */
    private static Bound timestampAdd(Analyzer.Call call, List<Bound> args) {
        if (!(args.get(0) instanceof Bound.Literal lit) || !(lit.value() instanceof String unit) || !lit.text().equals(unit)
                || !SyntaxForms.UNITS.contains(unit)) {
            throw call.typeError("the unit of timestampadd is one of " + String.join(", ", SyntaxForms.UNITS.stream().sorted().toList())
                    + ", written as a word");
        }
        Bound at = args.get(2);
        DataType type = at.type() != null && at.type().kind() == Kind.TIMESTAMP_NTZ ? TIMESTAMP_NTZ : DataType.TIMESTAMP;
        List<Bound> cast = List.of(call.as(args.get(1), DataType.LONG), call.as(at, type));
        return call.apply(cast, type, (Kernel.Binary) (n, t) -> {
            long q = (Long) n;
            long micros = (Long) t;
            try {
                return switch (unit) {
                    case "MICROSECOND" -> Math.addExact(micros, q);
                    case "MILLISECOND" -> Math.addExact(micros, Math.multiplyExact(q, 1000L));
                    case "SECOND" -> Math.addExact(micros, Math.multiplyExact(q, Dates.MICROS_PER_SECOND));
                    case "MINUTE" -> Math.addExact(micros, Math.multiplyExact(q, 60 * Dates.MICROS_PER_SECOND));
                    case "HOUR" -> Math.addExact(micros, Math.multiplyExact(q, 3600 * Dates.MICROS_PER_SECOND));
                    case "DAY", "DAYOFYEAR" -> Dates.micros(Dates.dateTime(micros).plusDays(Math.toIntExact(q)));
                    case "WEEK" -> Dates.micros(Dates.dateTime(micros).plusDays(Math.toIntExact(Math.multiplyExact(q, 7L))));
                    case "MONTH" -> Dates.micros(Dates.dateTime(micros).plusMonths(Math.toIntExact(q)));
                    case "QUARTER" -> Dates.micros(Dates.dateTime(micros).plusMonths(Math.toIntExact(Math.multiplyExact(q, 3L))));
                    default -> Dates.micros(Dates.dateTime(micros).plusMonths(Math.toIntExact(Math.multiplyExact(q, 12L))));
                };
            } catch (ArithmeticException | java.time.DateTimeException e) {
                throw Failure.of("DATETIME_OVERFLOW", "timestampadd(" + unit + ", " + q + ", ...) is past the timestamp range");
            }
        });
    }

    static void register(Consumer<FunctionDef> add) {
        add.accept(Fn.custom("try_to_timestamp", 1, 2, "try_to_timestamp(x[, fmt STRING]) → TIMESTAMP", "null if x is null or not a timestamp",
                "to_timestamp, null where it fails", (call, args) -> args.size() == 1 && Types.fractional(args.get(0).type())
                        ? call.apply(List.of(args.get(0)), TIMESTAMP, (Kernel.Unary) TimestampFunctions::saturatedSeconds)
                        : tryOf(FunctionRegistry.get("to_timestamp").resolver().resolve(call, args), UNPARSED)));
        add.accept(Fn.custom("try_to_date", 1, 2, "try_to_date(x[, fmt STRING]) → DATE", "null if x is null or not a date",
                "to_date, null where it fails", (call, args) -> tryOf(FunctionRegistry.get("to_date").resolver().resolve(call, args), UNPARSED)));
        add.accept(Fn.custom("to_timestamp_ntz", 1, 2, "to_timestamp_ntz(x[, fmt STRING]) → TIMESTAMP_NTZ", FunctionDef.NULL_IN_NULL_OUT,
                "x as a timestamp without time zone: a cast, or text read with the datetime pattern fmt",
                (call, args) -> args.size() == 1 ? toNtz(call, args.get(0)) : DateFunctions.parsed(call, args, TIMESTAMP_NTZ)));
        add.accept(Fn.alias("to_timestamp_ltz", FunctionRegistry.get("to_timestamp")));
        add.accept(Fn.custom("timestampadd", 3, 3, "timestampadd(unit, n BIGINT, ts TIMESTAMP) → TIMESTAMP", FunctionDef.NULL_IN_NULL_OUT,
                "ts moved by n units (YEAR, QUARTER, MONTH, WEEK, DAY, DAYOFYEAR, HOUR, MINUTE, SECOND, MILLISECOND, MICROSECOND, a word);"
                        + " also DATEADD and DATE_ADD with a unit; DATETIME_OVERFLOW past the range", TimestampFunctions::timestampAdd));
        add.accept(Fn.custom("try_element_at", 2, 2, "try_element_at(arr, i INT) → element, try_element_at(map, key K) → value",
                FunctionDef.NULL_IN_NULL_OUT, "element_at, null for an index past the array's end",
                (call, args) -> {
                    if (args.get(1).type() == null && Types.is(args.get(0).type(), Kind.ARRAY)) {
                        throw call.typeError("the index or key of try_element_at is NULL, which has no type; cast it");
                    }
                    return tryOf(FunctionRegistry.get("element_at").resolver().resolve(call, args), "INVALID_ARRAY_INDEX_IN_ELEMENT_AT");
                }));
        add.accept(Fn.custom("convert_timezone", 2, 3, "convert_timezone([sourceTz STRING, ]targetTz STRING, t TIMESTAMP_NTZ) → TIMESTAMP_NTZ",
                FunctionDef.NULL_IN_NULL_OUT, "the wall-clock time t of sourceTz (the session time zone, UTC, by default) at targetTz",
                TimestampFunctions::convertTimezone));
        for (String prefix : List.of("", "try_")) {
            String doc = prefix.isEmpty() ? "; DATETIME_FIELD_OUT_OF_BOUNDS for a field out of range, INVALID_FRACTION_OF_SECOND for a"
                    + " second past 60" : ", null where make_timestamp fails";
            add.accept(make(prefix + "make_timestamp", TIMESTAMP, true, prefix.isEmpty(), "the timestamp of the fields (sec with its"
                    + " fraction; 60 is the next minute) at tz, the session time zone (UTC) by default" + doc));
            add.accept(make(prefix + "make_timestamp_ltz", TIMESTAMP, true, prefix.isEmpty(), "the same as make_timestamp" + doc));
            add.accept(make(prefix + "make_timestamp_ntz", TIMESTAMP_NTZ, false, prefix.isEmpty(), "the timestamp without time zone of"
                    + " the fields" + doc));
        }
    }

    /** Spark's cast of a FLOAT or DOUBLE to TIMESTAMP outside ANSI mode (try_to_timestamp's): null for NaN and the infinities, else saturating. */
    private static Object saturatedSeconds(Object v) {
        double d = ((Number) v).doubleValue();
        return Double.isNaN(d) || Double.isInfinite(d) ? null : (long) (d * Dates.MICROS_PER_SECOND);
    }

    /** {@code b} giving null where its own function fails the row with one of {@code conditions}. */
    private static Bound tryOf(Bound b, String... conditions) {
        if (!(b instanceof Bound.Apply a)) {
            return b;
        }
        Set<String> only = Set.of(conditions);
        Kernel k = a.kernel();
        Kernel guarded = values -> {
            try {
                return k.apply(values);
            } catch (Failure f) {
                if (only.contains(f.condition())) {
                    return null;
                }
                throw f;
            }
        };
        return new Bound.Apply(a.name(), a.args(), guarded, a.nullTolerant(), a.type(), a.text());
    }

    private static FunctionDef make(String name, DataType result, boolean zoned, boolean fails, String doc) {
        List<DataType> types = new ArrayList<>(List.of(INT, INT, INT, INT, INT, SECONDS));
        if (zoned) {
            types.add(STRING);
        }
        String sig = name + "(year INT, month INT, day INT, hour INT, min INT, sec DECIMAL(16,6)" + (zoned ? "[, tz STRING]" : "") + ") or "
                + name + "(date DATE[, time TIME" + (zoned ? "[, tz STRING]" : "") + "]) → " + result.ddl();
        return Fn.custom(name, 1, types.size(), sig, FunctionDef.NULL_IN_NULL_OUT, doc, (call, args) -> {
            if (args.size() < 6) {
                return TimeFunctions.makeTimestamp(call, args, result, zoned);
            }
            List<Bound> cast = new ArrayList<>();
            for (int i = 0; i < args.size(); i++) {
                cast.add(i == 5 ? seconds(call, args.get(i)) : call.as(args.get(i), types.get(i)));
            }
            Bound b = call.apply(cast, result, a -> makeTimestamp(a, zoned));
            return fails ? b : tryOf(b, "DATETIME_FIELD_OUT_OF_BOUNDS.WITH_SUGGESTION", "INVALID_FRACTION_OF_SECOND");
        });
    }

    /**
     * The seconds as DECIMAL(16,6) as Spark casts them for make_timestamp: a number rounded half up, a NaN or infinite double null,
     * NUMERIC_VALUE_OUT_OF_RANGE past the type.
     */
    private static Bound seconds(Analyzer.Call call, Bound sec) {
        DataType t = sec.type();
        if (t == null || !Types.numeric(t)) {
            return call.as(sec, SECONDS);
        }
        if (!Types.is(t, Kind.DOUBLE) && !Types.is(t, Kind.FLOAT)) {
            return call.castTo(sec, SECONDS);
        }
        return call.apply(List.of(sec), SECONDS, (Kernel.Unary) v -> {
            double d = ((Number) v).doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                return null;
            }
            BigDecimal r = new BigDecimal(Double.toString(d)).setScale(6, RoundingMode.HALF_UP);
            if (r.precision() > 16) {
                throw Failure.of("NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION", d + " does not fit in DECIMAL(16,6), the seconds of " + call.name());
            }
            return r;
        });
    }

    private static long makeTimestamp(Object[] a, boolean zoned) {
        long totalMicros = ((BigDecimal) a[5]).setScale(6).unscaledValue().longValue();
        long seconds = Math.floorDiv(totalMicros, Dates.MICROS_PER_SECOND);
        int nanos = (int) Math.floorMod(totalMicros, Dates.MICROS_PER_SECOND) * 1000;
        LocalDateTime t;
        try {
            if (seconds == 60) {
                if (nanos != 0) {
                    throw Failure.of("INVALID_FRACTION_OF_SECOND", "the second " + a[5] + " is past 60: only 60 itself (the next minute) is valid");
                }
                t = LocalDateTime.of((Integer) a[0], (Integer) a[1], (Integer) a[2], (Integer) a[3], (Integer) a[4], 0).plusMinutes(1);
            } else {
                t = LocalDateTime.of((Integer) a[0], (Integer) a[1], (Integer) a[2], (Integer) a[3], (Integer) a[4], (int) seconds, nanos);
            }
        } catch (DateTimeException e) {
            throw Failure.of("DATETIME_FIELD_OUT_OF_BOUNDS.WITH_SUGGESTION", e.getMessage());
        }
        if (!zoned || a.length < 7) {
            return Dates.micros(t);
        }
        long epochSeconds = t.atZone(zone((String) a[6])).toEpochSecond();
        return epochSeconds * Dates.MICROS_PER_SECOND + t.getNano() / 1000;
    }

    private static Bound convertTimezone(Analyzer.Call call, List<Bound> args) {
        List<Bound> cast = new ArrayList<>();
        if (args.size() == 2) {
            cast.add(new Bound.Literal("UTC", STRING, "'UTC'"));
        }
        for (int i = 0; i < args.size(); i++) {
            cast.add(i == args.size() - 1 ? toNtz(call, args.get(i)) : call.as(args.get(i), STRING));
        }
        return call.apply(cast, TIMESTAMP_NTZ, a -> {
            LocalDateTime t = Dates.dateTime((Long) a[2]);
            try {
                return Dates.micros(t.atZone(zone((String) a[0])).withZoneSameInstant(zone((String) a[1])).toLocalDateTime());
            } catch (ArithmeticException e) { // past the range at the target zone: Spark's bare ArithmeticException too
                throw Failure.bareArithmetic("long overflow");
            }
        });
    }

    /**
     * {@code x} as a TIMESTAMP_NTZ as Spark casts it: a TIMESTAMP or DATE at its wall-clock time in the session time zone (UTC), text
     * with a zone at its written time, the zone ignored.
     */
    private static Bound toNtz(Analyzer.Call call, Bound x) {
        if (x.type() == null || !(Types.is(x.type(), Kind.TIMESTAMP) || Types.is(x.type(), Kind.DATE) || Types.is(x.type(), Kind.STRING))) {
            return call.as(x, TIMESTAMP_NTZ);
        }
        return call.castTo(x, TIMESTAMP_NTZ);
    }

    /** The zone {@code id} names as Spark reads one: a region, an offset ({@code +05:30}, {@code -8:00}), UTC or a short id. */
    static ZoneId zone(String id) {
        try {
            return Timestamps.sessionZone(id, "the time zone of a function");
        } catch (TributaryException e) {
            throw Failure.of("INVALID_TIMEZONE", "'" + id + "' is not a time zone (a region such as America/New_York, or an offset such as"
                    + " +05:30)");
        }
    }
}
