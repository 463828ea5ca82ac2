package io.tributary.expressions.internal;

import io.tributary.schema.DataType;
import io.tributary.schema.DataType.Kind;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * {@code sequence(start, stop[, step])} as Spark 4.2 has it: whole numbers of the bounds' wider type by a whole step
 * (1 or -1 by default), or dates by an interval of months or whole days (1 day or -1 day by default), each element
 * the start plus a multiple of the step, up to and including the stop.
 */
final class Sequences {
    /** Spark's longest array (ByteArrayMethods.MAX_ROUNDED_ARRAY_LENGTH). */
    private static final long MAX_LENGTH = Integer.MAX_VALUE - 15;

    private Sequences() {
    }

    static void register(Consumer<FunctionDef> add) {
        add.accept(Fn.custom("sequence", 2, 3, "sequence(start, stop[, step]) → ARRAY (whole numbers, or DATEs by an interval)",
                FunctionDef.NULL_IN_NULL_OUT, "start, start + step ... up to stop; IllegalArgumentException (Spark's bare"
                        + " exception) when the step leads away from stop", Sequences::resolve));
    }

    private static Bound resolve(Analyzer.Call call, List<Bound> args) {
        Bound start = args.get(0);
        Bound stop = args.get(1);
        if (Types.is(start.type(), Kind.DATE) || Types.is(stop.type(), Kind.DATE)) {
            return dates(call, args);
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
        return call.apply(cast, DataType.array(type), v -> {
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

    private static Bound dates(Analyzer.Call call, List<Bound> args) {
        Bound start = call.as(args.get(0), DataType.DATE);
        Bound stop = call.as(args.get(1), DataType.DATE);
        List<Bound> cast = new ArrayList<>(List.of(start, stop));
        boolean months = false;
        if (args.size() == 3) {
            Bound step = args.get(2);
            if (!Intervals.isInterval(step.type())) {
                throw call.typeError("a sequence of dates steps by an interval (INTERVAL 1 DAY, INTERVAL 1 MONTH), and '" + step.text() + "' is "
                        + Types.name(step.type()));
            }
            months = !Intervals.isDayTime(step.type());
            cast.add(step);
        }
        boolean byMonths = months;
        return call.apply(cast, DataType.array(DataType.DATE), v -> {
            int a = (Integer) v[0];
            int b = (Integer) v[1];
            long step;
            if (v.length < 3) {
                step = a <= b ? 1 : -1;
            } else if (byMonths) {
                step = (Integer) v[2];
            } else {
                long micros = (Long) v[2];
                if (micros % Dates.MICROS_PER_DAY != 0) {
                    throw Failure.of("SEQUENCE_WRONG_INPUT_TYPES", "a sequence of dates steps by whole days, not " + micros + " microseconds");
                }
                step = micros / Dates.MICROS_PER_DAY;
            }
            if (!(step > 0 && a <= b || step < 0 && a >= b || step == 0 && a == b)) {
                throw boundary(Dates.format(a), Dates.format(b), step);
            }
            List<Object> out = new ArrayList<>();
            for (long i = 0;; i++) {
                long x = byMonths ? Dates.addMonths(a, (int) (i * step)) : a + i * step;
                if (step > 0 ? x > b : step < 0 ? x < b : i > 0) {
                    return out;
                }
                if (out.size() >= MAX_LENGTH) {
                    throw Failure.of("COLLECTION_SIZE_LIMIT_EXCEEDED.PARAMETER", "sequence would have more than " + MAX_LENGTH + " elements");
                }
                out.add((int) x);
            }
        });
    }

    private static Failure boundary(Object start, Object stop, Object step) {
        return Failure.of("IllegalArgumentException", "Illegal sequence boundaries: " + start + " to " + stop + " by " + step
                + " (the step leads away from the stop)");
    }
}
