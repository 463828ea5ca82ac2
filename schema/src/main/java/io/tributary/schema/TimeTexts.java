package io.tributary.schema;

import java.time.ZoneId;

/**
 * How a reader turns the text of a TIMESTAMP, TIMESTAMP_NTZ or DATE value into the value
 * ({@link DataType}'s microseconds or days since the epoch). {@link #of} is Spark's JSON reader
 * by default: the lenient forms of {@link Timestamps}, a text without a zone read as a wall-clock
 * time of the session zone; it is what {@link RowJson} reads topics with. The file source adds
 * Spark's {@code timestampFormat} and {@code dateFormat} options ({@code TimeFormats} in
 * file-ingest).
 */
public interface TimeTexts {
    /** Spark's default forms ({@link Timestamps}), with {@code sessionZone} for a text without a zone. */
    static TimeTexts of(ZoneId sessionZone) {
        return new SessionTimeTexts(sessionZone);
    }

    /** Microseconds since the epoch of a TIMESTAMP ({@code withZone}) or TIMESTAMP_NTZ, or null if the text is not one. */
    Long micros(String text, boolean withZone);

    /** Days since the epoch of a DATE, or null if the text is not one. */
    Integer days(String text);

    /** What a TIMESTAMP (or TIMESTAMP_NTZ) text should look like, for an error message. */
    String expectedTimestamp(boolean withZone);

    /** What a DATE text should look like, for an error message. */
    String expectedDate();
}
