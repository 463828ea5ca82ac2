package io.tributary.schema;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DurationsTest {
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "500 ms|PT0.5S",
            "2 millis|PT0.002S",
            "30 seconds|PT30S",
            "1s|PT1S",
            "5 minutes|PT5M",
            "10 mins|PT10M",
            "1 hour|PT1H",
            "168h|PT168H",
            "7d|PT168H",
            "interval 1 week|PT168H",
            "INTERVAL 2 Weeks|PT336H",
            "  3 days  |PT72H"})
    void parsesSparkCliAndDeltaSpellings(String text, String iso) {
        assertThat(Durations.parse(text)).contains(Duration.parse(iso));
    }

    @ParameterizedTest(name = "\"{0}\"")
    @ValueSource(strings = {"", "5", "five minutes", "5 fortnights", "-1 hour", "1.5 hours", "99999999999999999999 ms",
            "999999999999999999 weeks"})
    void refusesWhatIsNotADuration(String text) {
        assertThat(Durations.parse(text)).isEmpty();
        assertThat(Durations.parse(null)).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {"PT5M|5 minutes", "PT1H|1 hour", "PT1.5S|1500 milliseconds", "PT90S|90 seconds", "PT0S|0 seconds"})
    void formatsAsSparkPrintsIntervals(String iso, String text) {
        assertThat(Durations.format(Duration.parse(iso))).isEqualTo(text);
        assertThat(Durations.parse(text)).contains(Duration.parse(iso));
    }
}
