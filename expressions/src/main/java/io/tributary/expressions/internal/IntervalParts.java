package io.tributary.expressions.internal;

import io.tributary.schema.DataType;
import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;

/**
 * date_part and EXTRACT of an ANSI interval, as Spark's ExtractANSIInterval*: YEAR and MONTH of a year-month interval,
 * DAY, HOUR, MINUTE and SECOND of a day-time one, each only where the interval's type holds the field; a negative
 * interval gives negative parts.
 */
final class IntervalParts {
    private static final DataType SECONDS = DataType.decimal(8, 6);

    private IntervalParts() {
    }

    /** The field {@code written} (one of Spark's names for it) of {@code source}, an interval. */
    static Bound extract(Analyzer.Call call, String written, Bound source) {
        String name = written.toUpperCase(Locale.ROOT);
        DataType t = source.type();
        int start = -1 - t.precision();
        int end = t.scale();
        if (!Intervals.isDayTime(t)) {
            if (in(name, "YEAR", "Y", "YEARS", "YR", "YRS") && start == 0) {
                return call.apply(List.of(source), DataType.INT, (Kernel.Unary) m -> (Integer) m / 12);
            }
            if (in(name, "MONTH", "MON", "MONS", "MONTHS") && end == 1) {
                return call.apply(List.of(source), DataType.BYTE, (Kernel.Unary) m -> (byte) ((Integer) m % 12));
            }
        } else {
            if (in(name, "DAY", "D", "DAYS") && start == 0) {
                return call.apply(List.of(source), DataType.INT, (Kernel.Unary) us -> (int) ((Long) us / Dates.MICROS_PER_DAY));
            }
            if (in(name, "HOUR", "H", "HOURS", "HR", "HRS") && start <= 1 && end >= 1) {
                return call.apply(List.of(source), DataType.BYTE, (Kernel.Unary) us -> (byte) ((Long) us / 3_600_000_000L % 24));
            }
            if (in(name, "MINUTE", "M", "MIN", "MINS", "MINUTES") && start <= 2 && end >= 2) {
                return call.apply(List.of(source), DataType.BYTE, (Kernel.Unary) us -> (byte) ((Long) us / 60_000_000L % 60));
            }
            if (in(name, "SECOND", "S", "SEC", "SECONDS", "SECS") && end == 3) {
                return call.apply(List.of(source), SECONDS, (Kernel.Unary) us -> BigDecimal.valueOf((Long) us % 60_000_000L, 6));
            }
        }
        throw call.typeError("[INVALID_EXTRACT_FIELD] '" + written + "' is not a field of " + Types.name(t) + " that " + call.name()
                + " takes: YEAR or MONTH of a year-month interval, DAY, HOUR, MINUTE or SECOND of a day-time one, within its type's fields");
    }

    private static boolean in(String name, String... names) {
        return List.of(names).contains(name);
    }
}
