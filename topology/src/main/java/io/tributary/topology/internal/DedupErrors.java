package io.tributary.topology.internal;

import io.tributary.schema.TributaryException;
import java.time.Duration;

/** The deduplication's user-facing errors: a {@code transform.dropDuplicates} that cannot run, each naming its key and the fix. */
public final class DedupErrors {
    private DedupErrors() {
    }

    public static TributaryException dedupWithoutKeys(String key) {
        return new TributaryException(key + ": missing; name the columns whose values make a row's key, e.g. keys: [id]"
                + " (Spark's dropDuplicates() over every column: list them all)");
    }

    public static TributaryException dedupKeyNotInSchema(String key, String column, String ddl) {
        return new TributaryException(key + ": no column '" + column + "'; the rows have " + ddl
                + " (after transform.select, when given)");
    }

    public static TributaryException dedupKeyNotGroupable(String key, String column, String ddl) {
        return new TributaryException(key + ": column '" + column + "' is " + ddl + "; a key column cannot be a MAP"
                + " (Spark refuses maps as keys too)");
    }

    public static TributaryException dedupKeyTwice(String key, String column) {
        return new TributaryException(key + ": column '" + column + "' is given twice; name each key column once");
    }

    public static TributaryException dedupNegativeDelay(String key, Duration delay) {
        return new TributaryException(key + ": the delay is negative (" + delay + "); give a delay of 0 or more, e.g. 10 minutes");
    }

    public static TributaryException dedupWatermarkWithoutEventTime(String key, String eventTimeKey) {
        return new TributaryException(key + ": a watermark needs its event-time column (Spark's withWatermark(column, delay));"
                + " set " + eventTimeKey + ", e.g. eventTime: ts");
    }

    public static TributaryException withinWatermarkWithoutEventTime(String key, String eventTimeKey) {
        return new TributaryException(key + ": dropDuplicatesWithinWatermark needs a watermark on an event-time column"
                + " (Spark's withWatermark(column, delay)); set " + eventTimeKey + ", e.g. eventTime: ts");
    }

    public static TributaryException dedupEventTimeNotTimestamp(String key, String column, String ddl) {
        return new TributaryException(key + ": column '" + column + "' is " + ddl + "; event time must be a TIMESTAMP column");
    }

    public static TributaryException dedupEventTimeWithoutDelay(String key, String withinKey, String watermarkKey) {
        return new TributaryException(key + ": an event-time column needs the watermark's delay; set " + withinKey
                + " (Spark's dropDuplicatesWithinWatermark) or " + watermarkKey + " (dropDuplicates after withWatermark)");
    }

    public static TributaryException bothDelays(String withinKey, String watermarkKey) {
        return new TributaryException(withinKey + " and " + watermarkKey + " are both set; a stream has one watermark:"
                + " give withinWatermark for Spark's dropDuplicatesWithinWatermark, or watermark for dropDuplicates over the"
                + " watermark's state");
    }
}
