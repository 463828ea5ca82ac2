package io.tributary.expressions.internal;

import io.tributary.schema.DataType;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Spark 4.2's functions of the TIME type ({@link Times}) as a user has them by default: {@code make_timestamp(date, time[, tz])}
 * and its cousins join a date and a time; the functions that make or take a TIME of their own (make_time, to_time, time_trunc
 * ...) are refused, as Spark refuses them with UNSUPPORTED_TIME_TYPE while {@code spark.sql.timeType.enabled} is false.
 */
final class TimeFunctions {
    private static final String REFUSED = "refused at start, as Spark 4.2 refuses it by default (UNSUPPORTED_TIME_TYPE:"
            + " spark.sql.timeType.enabled is false)";

    private TimeFunctions() {
    }

    static void register(Consumer<FunctionDef> add) {
        refused(add, "make_time", 3, "make_time(hour INT, minute INT, second DECIMAL(16,6)) → TIME(6)", "the time of the fields");
        refused(add, "to_time", 2, "to_time(str STRING[, fmt STRING]) → TIME(6)", "str read as a time, with the datetime pattern fmt");
        refused(add, "try_to_time", 2, "try_to_time(str STRING[, fmt STRING]) → TIME(6)", "to_time, null where it fails");
        refused(add, "time", 1, "time(x) → TIME(6)", "CAST(x AS TIME)");
        refused(add, "time_trunc", 2, "time_trunc(unit STRING, t TIME) → TIME", "t truncated to unit");
        refused(add, "time_diff", 3, "time_diff(unit STRING, start TIME, end TIME) → BIGINT", "the units from start to end");
        for (String unit : List.of("seconds", "millis", "micros")) {
            refused(add, "time_from_" + unit, 1, "time_from_" + unit + "(n) → TIME(6)", "the time n " + unit + " after midnight");
            refused(add, "time_to_" + unit, 1, "time_to_" + unit + "(t TIME) → " + (unit.equals("seconds") ? "DECIMAL" : "BIGINT"),
                    "the " + unit + " since midnight of t");
        }
    }

    private static void refused(Consumer<FunctionDef> add, String name, int max, String signature, String what) {
        add.accept(Fn.custom(name, 1, max, signature, FunctionDef.NULL_IN_NULL_OUT, what + "; " + REFUSED, (call, args) -> {
            throw call.unsupportedTime("the function " + name);
        }));
    }

    /**
     * {@code make_timestamp(date DATE[, time TIME[, tz STRING]])} and its cousins: the date at the time (midnight without one) in tz
     * (the session time zone, UTC, by default, and ignored by a TIMESTAMP_NTZ); null when the date or the time is null.
     */
    static Bound makeTimestamp(Analyzer.Call call, List<Bound> args, DataType result, boolean zoned) {
        if (args.size() > (zoned ? 3 : 2)) {
            throw call.typeError(call.name() + " takes (year, month, day, hour, min, sec" + (zoned ? "[, tz]" : "") + ") or (date[, time"
                    + (zoned ? "[, tz]" : "") + "]), not " + args.size() + " arguments (Spark's WRONG_NUM_ARGS)");
        }
        Bound date = args.get(0);
        if (date.type() != null && !Types.is(date.type(), DataType.Kind.DATE)) {
            throw call.typeError("the first argument of " + call.name() + "(date, time) is a DATE, and '" + date.text() + "' is "
                    + Types.name(date.type()) + " (Spark's DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE); cast it: CAST(x AS DATE)");
        }
        Bound time = args.size() > 1 ? args.get(1) : new Bound.Literal(0L, Times.TIME, "TIME '00:00'");
        if (time.type() != null && !Times.isTime(time.type())) {
            throw call.typeError("the second argument of " + call.name() + "(date, time) is a TIME, and '" + time.text() + "' is "
                    + Types.name(time.type()) + " (Spark's DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE); write a literal: TIME '12:00'");
        }
        if (date.type() == null || time.type() == null) {
            return new Bound.Literal(null, result, call.text());
        }
        List<Bound> values = new ArrayList<>(List.of(date, time));
        if (args.size() > 2) {
            values.add(call.as(args.get(2), DataType.STRING));
        }
        return call.apply(values, result, a -> {
            LocalDateTime t = Dates.date((Integer) a[0]).atStartOfDay().plusNanos((Long) a[1]);
            if (!zoned || a.length < 3) {
                return Dates.micros(t);
            }
            return t.atZone(TimestampFunctions.zone((String) a[2])).toEpochSecond() * Dates.MICROS_PER_SECOND + t.getNano() / 1000;
        });
    }
}
