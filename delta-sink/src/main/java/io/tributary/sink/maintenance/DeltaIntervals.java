package io.tributary.sink.maintenance;

import io.tributary.schema.TributaryException;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Delta's interval table properties ({@code interval 1 week}, {@code interval 168 hours}) and the CLI's {@code 168h}. */
public final class DeltaIntervals {
    private static final Pattern P = Pattern.compile("\\s*(?:interval\\s+)?(\\d+)\\s*([a-z]+)\\s*", Pattern.CASE_INSENSITIVE);

    private DeltaIntervals() {
    }

    /** Parses {@code text}; {@code what} names it in the error. */
    public static Duration parse(String what, String text) {
        Matcher m = P.matcher(text == null ? "" : text);
        if (m.matches()) {
            long n = Long.parseLong(m.group(1));
            switch (m.group(2).toLowerCase(Locale.ROOT)) {
                case "ms", "millisecond", "milliseconds":
                    return Duration.ofMillis(n);
                case "s", "sec", "second", "seconds":
                    return Duration.ofSeconds(n);
                case "m", "min", "minute", "minutes":
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
        throw new TributaryException(what + ": '" + text + "' is not a duration; write e.g. 168h, 7d, or \"interval 1 week\"");
    }

    /** As Spark prints the hours in its vacuum message: {@code 168 hours}. */
    static String hours(Duration d) {
        return d.toHours() + " hours";
    }
}
