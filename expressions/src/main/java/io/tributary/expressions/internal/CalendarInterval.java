package io.tributary.expressions.internal;

import java.math.BigDecimal;

/**
 * A value of Spark's legacy {@code CALENDAR INTERVAL} (the SQL type {@code INTERVAL}): months, days and microseconds held
 * apart, as a month and a day have no fixed length. {@link #toString()} is Spark's text of it, which {@code CAST(... AS
 * STRING)} and {@code to_json} write: {@code 1 years 2 months 3 days 4 hours 5 minutes 6.5 seconds}.
 */
public record CalendarInterval(int months, int days, long micros) {
    static final long MICROS_PER_HOUR = 3_600_000_000L;
    static final long MICROS_PER_MINUTE = 60_000_000L;

    @Override
    public String toString() {
        if (months == 0 && days == 0 && micros == 0) {
            return "0 seconds";
        }
        StringBuilder sb = new StringBuilder();
        if (months != 0) {
            unit(sb, months / 12, "years");
            unit(sb, months % 12, "months");
        }
        unit(sb, days, "days");
        if (micros != 0) {
            long rest = micros;
            unit(sb, rest / MICROS_PER_HOUR, "hours");
            rest %= MICROS_PER_HOUR;
            unit(sb, rest / MICROS_PER_MINUTE, "minutes");
            rest %= MICROS_PER_MINUTE;
            if (rest != 0) {
                sb.append(BigDecimal.valueOf(rest, 6).stripTrailingZeros().toPlainString()).append(" seconds ");
            }
        }
        sb.setLength(sb.length() - 1);
        return sb.toString();
    }

    private static void unit(StringBuilder sb, long value, String unit) {
        if (value != 0) {
            sb.append(value).append(' ').append(unit).append(' ');
        }
    }
}
