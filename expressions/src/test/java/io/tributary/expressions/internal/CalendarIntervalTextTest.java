package io.tributary.expressions.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Text read as a calendar interval as Spark's stringToInterval reads it, and written back as Spark's text of one. */
class CalendarIntervalTextTest {
    @Test
    void unitsAddUpInTheirOwnFieldsWhateverTheirCaseAndPlural() {
        CalendarInterval v = CalendarIntervalText.parse("Interval 1 YEAR 14 months 2 weeks -3 days 25 hours 61 Minutes 1.5 seconds 7 milliseconds 8 microsecond");
        assertThat(v).isEqualTo(new CalendarInterval(26, 11, 25 * 3_600_000_000L + 61 * 60_000_000L + 1_507_008L));
        assertThat(v.toString()).isEqualTo("2 years 2 months 11 days 26 hours 1 minutes 1.507008 seconds");
        assertThat(CalendarIntervalText.parse("- 1 day +2 hours")).isEqualTo(new CalendarInterval(0, -1, 7_200_000_000L));
        assertThat(CalendarIntervalText.parse(".5 seconds")).isEqualTo(new CalendarInterval(0, 0, 500_000L));
        assertThat(CalendarIntervalText.parse("1.123456789 seconds").micros()).as("nanoseconds cut to microseconds").isEqualTo(1_123_456L);
    }

    @Test
    void whatSparkReadsAsNoIntervalIsRefusedAndACastGivesNull() {
        for (String bad : new String[] {"", "interval", "intervals 1 day", "1", "1 day,", "1.5 days", "1day", "1 dayz", "1 sec",
                "1.1234567891 seconds", "2147483648 days", "1 second 5 nanoseconds"}) {
            assertThatThrownBy(() -> CalendarIntervalText.parse(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
            assertThat(CalendarIntervalText.orNull(bad)).as(bad).isNull();
        }
    }

    @Test
    void theTextOfAnIntervalIsSparks() {
        assertThat(new CalendarInterval(0, 0, 0)).hasToString("0 seconds");
        assertThat(new CalendarInterval(-13, 0, -500_000L)).hasToString("-1 years -1 months -0.5 seconds");
        assertThat(new CalendarInterval(0, 40, 1)).hasToString("40 days 0.000001 seconds");
    }
}
