package io.tributary.expressions.internal;

import io.tributary.schema.DataType;
import io.tributary.schema.TimeTexts;
import java.time.ZoneId;
import java.util.Locale;

/**
 * Spark's datetime pattern options of its JSON, CSV and XML readers ({@code timestampFormat}, {@code timestampNTZFormat},
 * {@code dateFormat}; null for the default forms): a text that does not match its pattern reads as no value. With a {@code
 * zone} (the {@code timeZone} option, or the session's) a TIMESTAMP text without an offset is a time there and one with an
 * offset is read at it; without one (null) the text's time is read at UTC, its offset not read. Month and day names are read
 * in {@code locale} (the {@code locale} option, {@code en-US} by default).
 */
record PatternTimes(TimeTexts defaults, String timestampFormat, String timestampNtzFormat, String dateFormat, ZoneId zone, Locale locale)
        implements TimeTexts {
    PatternTimes(TimeTexts defaults, String timestampFormat, String timestampNtzFormat, String dateFormat) {
        this(defaults, timestampFormat, timestampNtzFormat, dateFormat, null, Locale.US);
    }

    @Override
    public Long micros(String text, boolean withZone) {
        String pattern = withZone ? timestampFormat : timestampNtzFormat;
        if (pattern == null) {
            return defaults.micros(text, withZone);
        }
        try {
            return (Long) DateFunctions.parse(text, pattern, withZone ? DataType.TIMESTAMP : DataType.TIMESTAMP_NTZ, zone, locale);
        } catch (Failure f) {
            return null;
        }
    }

    @Override
    public Integer days(String text) {
        if (dateFormat == null) {
            return defaults.days(text);
        }
        try {
            return (Integer) DateFunctions.parse(text, dateFormat, DataType.DATE, zone, locale);
        } catch (Failure f) {
            return null;
        }
    }

    @Override
    public String expectedTimestamp(boolean withZone) {
        String pattern = withZone ? timestampFormat : timestampNtzFormat;
        return pattern == null ? defaults.expectedTimestamp(withZone) : pattern;
    }

    @Override
    public String expectedDate() {
        return dateFormat == null ? defaults.expectedDate() : dateFormat;
    }
}
