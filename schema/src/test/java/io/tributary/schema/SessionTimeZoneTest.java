package io.tributary.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * Spark's {@code spark.sql.session.timeZone} ({@code source.files.timeZone}): a TIMESTAMP written
 * without an offset is a wall-clock time of the session zone, resolved as Spark's
 * {@code ZonedDateTime.of} resolves it across daylight-saving changes; an explicit offset, a
 * TIMESTAMP_NTZ and a DATE do not depend on it. The fast path and Jackson's path agree.
 */
class SessionTimeZoneTest {
    private static final ZoneId NEW_YORK = Timestamps.sessionZone("America/New_York", "source.files.timeZone");
    private static final Schema SCHEMA = Schema.parse("ts TIMESTAMP, ntz TIMESTAMP_NTZ, d DATE");

    private static long micros(String instant) {
        return ChronoUnit.MICROS.between(Instant.EPOCH, Instant.parse(instant));
    }

    @ParameterizedTest(name = "{0} in {1}")
    @CsvSource(delimiter = '|', value = {
            "2026-01-15T10:00:00|UTC|2026-01-15T10:00:00Z",
            "2026-01-15 10:00:00|America/New_York|2026-01-15T15:00:00Z",        // EST, UTC-5
            "2026-07-15T10:00:00.25|America/New_York|2026-07-15T14:00:00.250Z",   // EDT, UTC-4
            "2026-03-08T01:59:59|America/New_York|2026-03-08T06:59:59Z",          // the last second of EST
            "2026-03-08T02:30:00|America/New_York|2026-03-08T07:30:00Z",          // in the spring-forward gap: 03:30 EDT
            "2026-03-08T03:00:00|America/New_York|2026-03-08T07:00:00Z",          // the first second of EDT
            "2026-11-01T01:30:00|America/New_York|2026-11-01T05:30:00Z",          // twice that night: the earlier, EDT
            "2026-11-01T02:00:00|America/New_York|2026-11-01T07:00:00Z",          // EST again
            "2026-03-08|America/New_York|2026-03-08T05:00:00Z",                   // a bare date: midnight there (slow path)
            "2026-3-8 2:30|America/New_York|2026-03-08T07:30:00Z",                // the gap again, slow path
            "2026-01-15T10:00:00|+05:30|2026-01-15T04:30:00Z",
            "2026-01-15T10:00:00|-8|2026-01-15T18:00:00Z",
            "2026-01-15T10:00:00Z|America/New_York|2026-01-15T10:00:00Z",         // an explicit zone wins
            "2026-01-15T10:00:00+01:00|America/New_York|2026-01-15T09:00:00Z",
            "2026-07-15T10:00:00 Europe/Paris|America/New_York|2026-07-15T08:00:00Z",
    })
    void aTimestampWithoutAnOffsetIsAWallClockTimeOfTheSessionZone(String text, String zone, String instant) {
        ZoneId session = Timestamps.sessionZone(zone, "source.files.timeZone");
        long expected = micros(instant);
        assertThat(Timestamps.parseMicros(text, true, session)).isEqualTo(expected);
        RowJson json = new RowJson(SCHEMA, session);
        byte[] line = ("{\"ts\": \"" + text + "\"}").getBytes(StandardCharsets.UTF_8);
        assertThat(json.parse(line)[0]).as("fast path").isEqualTo(expected);
        assertThat(json.parseWithJackson(line, 0, line.length)[0]).as("Jackson's path").isEqualTo(expected);
    }

    @Test
    void theDefaultIsUtcAndWhatIsWrittenReadsBackTheSame() {
        assertThat(Timestamps.parseMicros("2026-01-15T10:00:00", true)).isEqualTo(micros("2026-01-15T10:00:00Z"));
        assertThat(Timestamps.sessionZone("UTC", "k")).isSameAs(ZoneOffset.UTC);
        assertThat(Timestamps.sessionZone(" Z ", "k")).isEqualTo(ZoneOffset.UTC);
        Object[] row = new RowJson(SCHEMA, NEW_YORK).parse("{\"ts\": \"2026-03-08 02:30:00\", \"ntz\": \"2026-03-08 02:30:00\"}");
        byte[] canonical = new RowJson(SCHEMA).write(row);
        assertThat(new String(canonical, StandardCharsets.UTF_8)).contains("\"2026-03-08T07:30:00Z\"", "\"2026-03-08T02:30:00\"");
        assertThat(new RowJson(SCHEMA).parse(canonical)).containsExactly(row);
    }

    @Test
    void timestampNtzAndDateDoNotDependOnTheZone() {
        String line = "{\"ntz\": \"2026-03-08T02:30:00\", \"d\": \"2026-11-01\"}";
        Object[] utc = new RowJson(SCHEMA).parse(line);
        Object[] ny = new RowJson(SCHEMA, NEW_YORK).parse(line);
        assertThat(ny).containsExactly(utc);
        assertThat(ny[1]).isEqualTo(micros("2026-03-08T02:30:00Z"));
        assertThat(ny[2]).isEqualTo((int) LocalDate.parse("2026-11-01").toEpochDay());
        assertThat(Timestamps.parseMicros("2026-03-08T02:30:00Z", false, NEW_YORK)).as("NTZ takes no zone").isNull();
    }

    @Test
    void aZoneThatIsNoneIsRefusedNamingTheSetting() {
        assertThatThrownBy(() -> Timestamps.sessionZone("Mars/Olympus", "source.files.timeZone"))
                .isInstanceOf(TributaryException.class)
                .hasMessage("source.files.timeZone: 'Mars/Olympus' is not a time zone; use a region such as America/New_York,"
                        + " an offset such as +01:00, or UTC");
        assertThat(Timestamps.sessionZone("+1:00", "k")).isEqualTo(ZoneOffset.ofHours(1));
        assertThat(Timestamps.sessionZone("EST", "k")).as("Spark's short ids").isEqualTo(ZoneOffset.ofHours(-5));
    }
}
