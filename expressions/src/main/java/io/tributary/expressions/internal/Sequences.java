package io.tributary.expressions.internal;

import io.tributary.schema.DataType;
import io.tributary.schema.DataType.Kind;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * {@code sequence(start, stop[, step])} as Spark 4.2 has it: whole numbers of the bounds' wider type by a whole step
 * (1 or -1 by default), or dates or timestamps by an interval (for dates, of months or at least a day; 1 day or -1 day
 * by default), each element the start plus a multiple of the step, up to and including the stop.
 */
final class Sequences {
    /** Spark's longest array (ByteArrayMethods.MAX_ROUNDED_ARRAY_LENGTH). */
    private static final long MAX_LENGTH = Integer.MAX_VALUE - 15;

    private Sequences() {
    }

    static void register(Consumer<FunctionDef> add) {
        add.accept(Fn.custom("sequence", 2, 3, "sequence(start, stop[, step]) → ARRAY (whole numbers, or DATEs or TIMESTAMPs by an interval)",
                FunctionDef.NULL_IN_NULL_OUT, "start, start + step ... up to stop; IllegalArgumentException (Spark's bare"
                        + " exception) when the step leads away from stop", Sequences::resolve));
    }

    private static Bound resolve(Analyzer.Call call, List<Bound> args) {
        Bound start = args.get(0);
        Bound stop = args.get(1);
        if (temporal(start.type()) || temporal(stop.type())) {
            return temporal(call, args);
        }
        DataType t = null;
        for (Bound b : args) {
            if (b.type() != null && !Types.integral(b.type())) {
                throw call.typeError("sequence needs whole numbers or dates, and '" + b.text() + "' is " + Types.name(b.type()));
            }
            t = Types.common(t, b.type());
        }
        DataType type = t == null ? DataType.INT : t;
        List<Bound> cast = args.stream().map(b -> call.as(b, type)).toList();
        return call.apply(cast, Types.arrayOf(type), v -> {
            long a = ((Number) v[0]).longValue();
            long b = ((Number) v[1]).longValue();
            long step = v.length > 2 ? ((Number) v[2]).longValue() : a <= b ? 1 : -1;
            if (!(step > 0 && a <= b || step < 0 && a >= b || step == 0 && a == b)) {
                throw boundary(v[0], v[1], step);
            }
            long n = step == 0 ? 1 : 1 + (b - a) / step;
            if (n > MAX_LENGTH || n < 0) {
                throw Failure.of("COLLECTION_SIZE_LIMIT_EXCEEDED.PARAMETER", "sequence would have " + n + " elements");
            }
            List<Object> out = new ArrayList<>((int) n);
            for (long i = 0, x = a; i < n; i++, x += step) {
                out.add(switch (type.kind()) {
                    case BYTE -> (byte) x;
                    case SHORT -> (short) x;
                    case INT -> (int) x;
                    default -> x;
                });
            }
            return out;
        });
    }

    /**
     * Dates or timestamps (the bounds' common type) by an interval, as Spark's {@code TemporalSequenceImpl}: element i is
     * the start plus i times the step's months, then i times its microseconds (for dates, from the start's midnight, the
     * day it falls on); 1 day (or -1 day) by default.
     */
    private static Bound temporal(Analyzer.Call call, List<Bound> args) {
        DataType type = Types.common(args.get(0).type(), args.get(1).type());
        if (type == null || !(Types.is(type, Kind.DATE) || Types.is(type, Kind.TIMESTAMP) || Types.is(type, Kind.TIMESTAMP_NTZ))) {
            throw call.typeError("sequence needs whole numbers, dates or timestamps of one type, and '" + args.get(0).text() + "' is "
                    + Types.name(args.get(0).type()) + ", '" + args.get(1).text() + "' " + Types.name(args.get(1).type()));
        }
        boolean dates = Types.is(type, Kind.DATE);
        List<Bound> cast = new ArrayList<>(List.of(call.as(args.get(0), type), call.as(args.get(1), type)));
        if (args.size() == 3) {
            Bound step = args.get(2);
            if (!Intervals.isInterval(step.type()) && !CalendarIntervals.isCalendar(step.type())) {
                throw call.typeError("a sequence of " + (dates ? "dates" : "timestamps") + " steps by an interval (INTERVAL 1 DAY,"
                        + " INTERVAL 1 MONTH), and '" + step.text() + "' is " + Types.name(step.type()));
            }
            cast.add(step);
        }
        return call.apply(cast, Types.arrayOf(type), v -> {
            long scale = dates ? Dates.MICROS_PER_DAY : 1;
            long a = ((Number) v[0]).longValue() * scale;
            long b = ((Number) v[1]).longValue() * scale;
            Object step = v.length < 3 ? null : v[2]; // months (INT), microseconds (BIGINT) or both with days (a CALENDAR INTERVAL)
            int stepMonths = step instanceof Integer m ? m : step instanceof CalendarInterval c ? c.months() : 0;
            long stepMicros = step == null ? (a <= b ? 1 : -1) * Dates.MICROS_PER_DAY : step instanceof Long us ? us
                    : step instanceof CalendarInterval c ? c.micros() + c.days() * Dates.MICROS_PER_DAY : 0; // a day of UTC
            if (dates && stepMonths == 0 && stepMicros / Dates.MICROS_PER_DAY == 0) {
                throw Failure.of("_LEGACY_ERROR_TEMP_3242", "sequence step must be an interval day to second of day granularity"
                        + " if start and end values are dates");
            }
            long estimated = stepMicros + (long) stepMonths * 28 * Dates.MICROS_PER_DAY; // Spark's estimate: 28 days a month
            if (!(estimated > 0 && a <= b || estimated < 0 && a >= b || estimated == 0 && a == b)) {
                throw dates ? boundary(Dates.format((int) (a / scale)), Dates.format((int) (b / scale)), v.length < 3 ? stepMicros / scale : v[2])
                        : boundary(a, b, v.length < 3 ? stepMicros : v[2]);
            }
            List<Object> out = new ArrayList<>();
            for (long i = 0;; i++) {
                long x = at(a, i * stepMonths, i * stepMicros);
                if (estimated > 0 ? x > b : estimated < 0 ? x < b : i > 0) {
                    return out;
                }
                if (out.size() >= MAX_LENGTH) {
                    throw Failure.of("COLLECTION_SIZE_LIMIT_EXCEEDED.PARAMETER", "sequence would have more than " + MAX_LENGTH + " elements");
                }
                out.add(dates ? (Object) (int) Math.floorDiv(x, scale) : (Object) x);
            }
        });
    }

    /** The instant {@code micros} moved by whole months (in UTC, a month end kept in range) and then by microseconds. */
    private static long at(long micros, long months, long plusMicros) {
        long shifted = months == 0 ? micros : Dates.micros(Dates.dateTime(micros).plusMonths(months));
        return shifted + plusMicros;
    }

    private static boolean temporal(DataType t) {
        return Types.is(t, Kind.DATE) || Types.is(t, Kind.TIMESTAMP) || Types.is(t, Kind.TIMESTAMP_NTZ);
    }

    private static Failure boundary(Object start, Object stop, Object step) {
        return Failure.of("IllegalArgumentException", "Illegal sequence boundaries: " + start + " to " + stop + " by " + step
                + " (the step leads away from the stop)");
    }
}
