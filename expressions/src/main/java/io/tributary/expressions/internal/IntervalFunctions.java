package io.tributary.expressions.internal;

import io.tributary.schema.DataType;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/** Spark's functions that make intervals: {@code make_dt_interval} and {@code make_ym_interval}. */
final class IntervalFunctions {
    private static final DataType SECONDS = DataType.decimal(18, 6);

    private IntervalFunctions() {
    }

    static void register(Consumer<FunctionDef> add) {
        add.accept(Fn.custom("make_dt_interval", 0, 4, "make_dt_interval([days INT[, hours INT[, mins INT[, secs DECIMAL(18,6)]]]]) → INTERVAL DAY TO SECOND",
                FunctionDef.NULL_IN_NULL_OUT, "the interval of days, hours, minutes and seconds (each may be negative or above its"
                        + " field's range), 0 for those left out; ARITHMETIC_OVERFLOW beyond 106751991 days", IntervalFunctions::makeDayTime));
        add.accept(Fn.custom("make_ym_interval", 0, 2, "make_ym_interval([years INT[, months INT]]) → INTERVAL YEAR TO MONTH",
                FunctionDef.NULL_IN_NULL_OUT, "the interval of years and months, 0 for those left out; ARITHMETIC_OVERFLOW beyond"
                        + " 178956970 years", IntervalFunctions::makeYearMonth));
    }

    private static List<Bound> args(Analyzer.Call call, List<Bound> args, List<DataType> types) {
        List<Bound> cast = new ArrayList<>();
        for (int i = 0; i < types.size(); i++) {
            DataType t = types.get(i);
            Bound b = i < args.size() ? args.get(i) : new Bound.Literal(t == SECONDS ? BigDecimal.ZERO.setScale(6) : (Object) 0, t, "0");
            cast.add(Types.numeric(b.type()) ? call.castTo(b, t) : call.as(b, t));
        }
        return cast;
    }

    private static Bound makeDayTime(Analyzer.Call call, List<Bound> args) {
        List<Bound> cast = args(call, args, List.of(DataType.INT, DataType.INT, DataType.INT, SECONDS));
        return call.apply(cast, Intervals.dayTime(0, 3), (Kernel) a -> {
            try {
                long micros = Math.multiplyExact((long) (Integer) a[0], Dates.MICROS_PER_DAY);
                micros = Math.addExact(micros, Math.multiplyExact((long) (Integer) a[1], 3_600_000_000L));
                micros = Math.addExact(micros, Math.multiplyExact((long) (Integer) a[2], 60_000_000L));
                return Math.addExact(micros, ((BigDecimal) a[3]).movePointRight(6).longValueExact());
            } catch (ArithmeticException e) {
                throw Failure.of("INTERVAL_ARITHMETIC_OVERFLOW.WITHOUT_SUGGESTION", "make_dt_interval overflows");
            }
        });
    }

    private static Bound makeYearMonth(Analyzer.Call call, List<Bound> args) {
        List<Bound> cast = args(call, args, List.of(DataType.INT, DataType.INT));
        return call.apply(cast, Intervals.yearMonth(0, 1), (Kernel.Binary) (y, m) -> {
            try {
                return Math.addExact(Math.multiplyExact((Integer) y, 12), (Integer) m);
            } catch (ArithmeticException e) {
                throw Failure.of("INTERVAL_ARITHMETIC_OVERFLOW.WITHOUT_SUGGESTION", "make_ym_interval overflows");
            }
        });
    }
}
