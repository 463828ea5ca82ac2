package io.tributary.schema;

import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations as the spec, the CLI and Delta's table properties write them: a whole number and a
 * unit, with or without a space and Spark's {@code interval} word ({@code 5 minutes},
 * {@code 500 ms}, {@code 168h}, {@code interval 1 week}). Callers word the error, since only they
 * know the key or option that held the text.
 */
public final class Durations {
    private static final Pattern INTERVAL = Pattern.compile("\\s*(?:interval\\s+)?(\\d+)\\s*([a-z]+)\\s*", Pattern.CASE_INSENSITIVE);

    private Durations() {
    }

    /** The duration {@code text} names; empty when it is null, not a duration, or longer than a {@link Duration} holds. */
    public static Optional<Duration> parse(String text) {
        Matcher m = INTERVAL.matcher(text == null ? "" : text);
        if (!m.matches() || m.group(1).length() > 18) {
            return Optional.empty();
        }
        long n = Long.parseLong(m.group(1));
        try {
            return Optional.ofNullable(switch (m.group(2).toLowerCase(Locale.ROOT)) {
                case "ms", "milli", "millis", "millisecond", "milliseconds" -> Duration.ofMillis(n);
                case "s", "sec", "secs", "second", "seconds" -> Duration.ofSeconds(n);
                case "m", "min", "mins", "minute", "minutes" -> Duration.ofMinutes(n);
                case "h", "hour", "hours" -> Duration.ofHours(n);
                case "d", "day", "days" -> Duration.ofDays(n);
                case "w", "week", "weeks" -> Duration.ofDays(Math.multiplyExact(7, n));
                default -> null;
            });
        } catch (ArithmeticException e) {
            return Optional.empty(); // more seconds than a long holds
        }
    }

    /** The duration as Spark prints intervals: {@code 5 minutes}, {@code 1 hour}, {@code 1500 milliseconds}. */
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
