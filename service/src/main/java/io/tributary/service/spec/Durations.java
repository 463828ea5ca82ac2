package io.tributary.service.spec;

import io.tributary.schema.TributaryException;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Spark-style interval strings: {@code 5 minutes}, {@code 1 hour}, {@code 30 seconds}, {@code 500 ms}. */
public final class Durations {
    private static final Pattern INTERVAL = Pattern.compile("\\s*(?:interval\\s+)?(\\d+)\\s*([a-z]+)\\s*", Pattern.CASE_INSENSITIVE);

    private Durations() {
    }

    public static Duration parse(String key, String text) {
        Matcher m = INTERVAL.matcher(text == null ? "" : text);
        if (m.matches()) {
            long n = Long.parseLong(m.group(1));
            switch (m.group(2).toLowerCase(Locale.ROOT)) {
                case "ms", "milli", "millis", "millisecond", "milliseconds":
                    return Duration.ofMillis(n);
                case "s", "sec", "secs", "second", "seconds":
                    return Duration.ofSeconds(n);
                case "m", "min", "mins", "minute", "minutes":
                    return Duration.ofMinutes(n);
                case "h", "hour", "hours":
                    return Duration.ofHours(n);
                case "d", "day", "days":
                    return Duration.ofDays(n);
                case "w", "week", "weeks":
                    return Duration.ofDays(7 * n);
                default:
                    break;
            }
        }
        throw new TributaryException("key '" + key + "' is '" + text
                + "'; expected a duration, written as Spark does, e.g. \"5 minutes\", \"1 hour\", \"30 seconds\"");
    }

    /** The duration as Spark prints intervals: {@code 5 minutes}. */
    public static String format(Duration d) {
        long s = d.toSeconds();
        if (d.toMillis() % 1000 != 0) {
            return d.toMillis() + " milliseconds";
        }
        if (s % 3600 == 0 && s > 0) {
            return plural(s / 3600, "hour");
        }
        if (s % 60 == 0 && s > 0) {
            return plural(s / 60, "minute");
        }
        return plural(s, "second");
    }

    private static String plural(long n, String unit) {
        return n + " " + unit + (n == 1 ? "" : "s");
    }
}
