package io.tributary.schema;

import java.time.ZoneId;

/** {@link TimeTexts#of}: Spark's default forms of {@link Timestamps} in a session zone. */
record SessionTimeTexts(ZoneId zone) implements TimeTexts {
    @Override
    public Long micros(String text, boolean withZone) {
        return Timestamps.parseMicros(text, withZone, zone);
    }

    @Override
    public Integer days(String text) {
        return Timestamps.parseDays(text);
    }

    @Override
    public String expectedTimestamp(boolean withZone) {
        return "e.g. 2026-01-01T10:00:00Z or 2026-01-01 10:00:00";
    }

    @Override
    public String expectedDate() {
        return "yyyy-MM-dd";
    }
}
