package io.tributary.sink.maintenance;

import io.tributary.schema.Durations;
import java.time.Duration;

/** Delta's interval table properties ({@code interval 1 week}, {@code interval 168 hours}) and the CLI's {@code 168h}. */
public final class DeltaIntervals {
    private DeltaIntervals() {
    }

    /** Parses {@code text} ({@link Durations}); {@code what} names it in the error. */
    public static Duration parse(String what, String text) {
        return Durations.parse(text).orElseThrow(() ->
                MaintenanceErrors.notADuration(what, text));
    }

    /** As Spark prints the hours in its vacuum message: {@code 168 hours}. */
    static String hours(Duration d) {
        return d.toHours() + " hours";
    }
}
