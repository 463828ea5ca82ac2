package io.tributary.expressions.internal;

import io.tributary.schema.DataType;
import io.tributary.schema.TimeTexts;

/**
 * Spark's datetime pattern options of its JSON and CSV readers ({@code timestampFormat}, {@code timestampNTZFormat}, {@code
 * dateFormat}; null for the default forms): a text that does not match its pattern reads as no value.
 */
record PatternTimes(TimeTexts defaults, String timestampFormat, String timestampNtzFormat, String dateFormat) implements TimeTexts {
    @Override
    public Long micros(String text, boolean withZone) {
        String pattern = withZone ? timestampFormat : timestampNtzFormat;
        if (pattern == null) {
            return defaults.micros(text, withZone);
        }
        try {
            return (Long) DateFunctions.parse(text, pattern, withZone ? DataType.TIMESTAMP : DataType.TIMESTAMP_NTZ);
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
            return (Integer) DateFunctions.parse(text, dateFormat, DataType.DATE);
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
