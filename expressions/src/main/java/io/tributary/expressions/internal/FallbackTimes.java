package io.tributary.expressions.internal;

import io.tributary.schema.TimeTexts;

/**
 * Spark's CSV reading of a DATE or TIMESTAMP ({@code UnivocityParser}): by the pattern first ({@code dateFormat}, {@code
 * yyyy-MM-dd} by default; {@code timestampFormat}), then, where {@code enableDateTimeParsingFallback} allows it (by default
 * when no pattern is given), by Spark's lenient default forms ({@code 2024-1-2}); {@code strictDates} when no {@code dateFormat}
 * is given and the fallback is turned off.
 */
record FallbackTimes(TimeTexts patterns, TimeTexts defaults, boolean dateFallback, boolean timestampFallback, boolean strictDates)
        implements TimeTexts {
    private static final java.util.regex.Pattern STRICT_DATE = java.util.regex.Pattern.compile("\\d{4}-\\d{2}-\\d{2}");

    @Override
    public Long micros(String text, boolean withZone) {
        Long micros = patterns.micros(text, withZone);
        return micros == null && withZone && timestampFallback ? defaults.micros(text, true) : micros;
    }

    @Override
    public Integer days(String text) {
        if (strictDates && !STRICT_DATE.matcher(text).matches()) {
            return null; // yyyy-MM-dd, Spark's default pattern, without the fallback
        }
        Integer days = patterns.days(text);
        return days == null && dateFallback ? defaults.days(text) : days;
    }

    @Override
    public String expectedTimestamp(boolean withZone) {
        return patterns.expectedTimestamp(withZone);
    }

    @Override
    public String expectedDate() {
        return patterns.expectedDate();
    }
}
