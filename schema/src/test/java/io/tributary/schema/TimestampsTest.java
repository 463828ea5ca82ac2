package io.tributary.schema;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class TimestampsTest {
    private static final long TEN_UTC = micros("2026-01-01T10:00:00Z");

    private static long micros(String instant) {
        return ChronoUnit.MICROS.between(Instant.EPOCH, Instant.parse(instant));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "2026-01-01T10:00:00Z|2026-01-01T10:00:00Z",
            "2026-01-01 10:00:00|2026-01-01T10:00:00Z",
            "2026-01-01T10:00:00|2026-01-01T10:00:00Z",
            "2026-01-01T10:00|2026-01-01T10:00:00Z",
            "2026-01-01T10:00:00+01:00|2026-01-01T09:00:00Z",
            "2026-01-01T10:00:00+0100|2026-01-01T09:00:00Z",
            "2026-01-01T10:00:00-05|2026-01-01T15:00:00Z",
            "2026-01-01T10:00:00-05:30|2026-01-01T15:30:00Z",
            "2026-01-01T10:00:00+1:00|2026-01-01T09:00:00Z",
            "2026-01-01T10:00:00+01:0|2026-01-01T09:00:00Z",
            "2026-01-01T10:00:00+1|2026-01-01T09:00:00Z",
            "2026-01-01T10:00:00UTC|2026-01-01T10:00:00Z",
            "2026-01-01 10:00:00 UTC|2026-01-01T10:00:00Z",
            "2026-01-01T10:00:00 GMT|2026-01-01T10:00:00Z",
            "2026-01-01T10:00:00GMT+2|2026-01-01T08:00:00Z",
            "2026-01-01T10:00:00UTC+01:00|2026-01-01T09:00:00Z",
            "2026-01-01T10:00:00 Europe/Paris|2026-01-01T09:00:00Z",
            "2026-07-01T10:00:00Europe/Paris|2026-07-01T08:00:00Z",
            "2026-01-01T10:00:00 EST|2026-01-01T15:00:00Z",
            "2026-01-01|2026-01-01T00:00:00Z",
            "2026-1-2|2026-01-02T00:00:00Z",
            "2026-01|2026-01-01T00:00:00Z",
            "2026|2026-01-01T00:00:00Z",
            "2026-1-2 3:4:5|2026-01-02T03:04:05Z",
            "'  2026-01-01T10:00:00Z  '|2026-01-01T10:00:00Z",
            "1969-12-31T23:59:59Z|1969-12-31T23:59:59Z",
    })
    void sparkJsonReaderFormsAreRead(String text, String expected) {
        assertThat(Timestamps.parseMicros(text, true)).isEqualTo(micros(expected));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "2026-01-01T10:00:00.1Z|100000",
            "2026-01-01T10:00:00.12Z|120000",
            "2026-01-01T10:00:00.123Z|123000",
            "2026-01-01T10:00:00.1234Z|123400",
            "2026-01-01T10:00:00.12345Z|123450",
            "2026-01-01T10:00:00.123456Z|123456",
            "2026-01-01T10:00:00.1234567Z|123456",
            "2026-01-01T10:00:00.12345678Z|123456",
            "2026-01-01T10:00:00.123456789Z|123456",
            "2026-01-01 10:00:00.999999999|999999",
            "2026-01-01 10:00:00.5+01:00|-3599500000",
    })
    void fractionsAreTruncatedToMicroseconds(String text, long microsAfterTen) {
        assertThat(Timestamps.parseMicros(text, true)).isEqualTo(TEN_UTC + microsAfterTen);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "  ", "yesterday", "2026-13-01", "2026-02-30", "2026-01-01T25:00:00Z",
            "2026-01-01T10:61:00Z", "2026-01-01T10:00:60Z", "2026-01-01T10:00:00Mars/Olympus",
            "2026-01-01T10:00:00+25:00", "2026-01-01T10:00:00 garbage", "2026-01-01Z", "20260101",
            "26-01-01", "2026/01/01", "10:00:00", "2026-01-01T10", "2026-01-01T10:00:00ZZ", "1767261600"})
    void nonTimestampsAreRefused(String text) {
        assertThat(Timestamps.parseMicros(text, true)).isNull();
        assertThat(Timestamps.parseMicros(text, false)).isNull();
    }

    @Test
    void timestampNtzReadsLocalTimesAndRefusesZones() {
        assertThat(Timestamps.parseMicros("2026-01-01T10:00:00", false)).isEqualTo(TEN_UTC);
        assertThat(Timestamps.parseMicros("2026-01-01 10:00:00.25", false)).isEqualTo(TEN_UTC + 250_000);
        assertThat(Timestamps.parseMicros("2026-01-01", false)).isEqualTo(micros("2026-01-01T00:00:00Z"));
        for (String zoned : new String[] {"2026-01-01T10:00:00Z", "2026-01-01T10:00:00+01:00", "2026-01-01 10:00:00 UTC",
                "2026-01-01T10:00:00Europe/Paris"}) {
            assertThat(Timestamps.parseMicros(zoned, false)).as(zoned).isNull();
        }
    }

    @Test
    void regionZoneFollowsDaylightSavingTime() {
        long winter = Timestamps.parseMicros("2026-01-15T12:00:00 Europe/Paris", true);
        long summer = Timestamps.parseMicros("2026-07-15T12:00:00 Europe/Paris", true);
        assertThat(winter).isEqualTo(micros("2026-01-15T11:00:00Z"));
        assertThat(summer).isEqualTo(micros("2026-07-15T10:00:00Z"));
        LocalDateTime local = LocalDateTime.of(2026, 7, 15, 12, 0);
        assertThat(summer).isEqualTo(local.atZone(ZoneId.of("Europe/Paris")).toEpochSecond() * 1_000_000L);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "2026-01-01|2026-01-01", "2026-1-2|2026-01-02", "2026-01|2026-01-01", "2026|2026-01-01",
            "2026-01-01T10:00:00|2026-01-01", "2026-01-01 23:59:59.999|2026-01-01", "2026-01-01T10:00:00Z|2026-01-01",
            "1970-01-01|1970-01-01", "1969-12-31|1969-12-31"})
    void datesAreReadAndATimePartIsIgnored(String text, String expected) {
        assertThat(Timestamps.parseDays(text)).isEqualTo((int) LocalDate.parse(expected).toEpochDay());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "today", "2026-02-30", "2026-13-01", "2026-01-01Z", "2026/01/01", "01-01-2026", "2023-02-29",
        "2026-00-10", "2026-01-00", "0000-00-00", "2026-01-3x"})
    void nonDatesAreRefused(String text) {
        assertThat(Timestamps.parseDays(text)).isNull();
    }

    @Test
    void daysOfYearsZeroToTenThousandAreWrittenAndReadAsLocalDateDoes() {
        long first = LocalDate.of(0, 1, 1).toEpochDay();
        long last = LocalDate.of(10_000, 12, 31).toEpochDay();
        long fromEvery = LocalDate.of(1800, 1, 1).toEpochDay();
        long toEvery = LocalDate.of(2200, 12, 31).toEpochDay();
        for (long d = first; d <= last; d += d >= fromEvery && d <= toEvery ? 1 : 37) {
            String iso = LocalDate.ofEpochDay(d).toString();
            if (!Timestamps.formatDays((int) d).equals(iso)) {
                assertThat(Timestamps.formatDays((int) d)).isEqualTo(iso);
            }
            Integer read = Timestamps.parseDays(iso);
            if (read == null || read != d) {
                assertThat(read).as(iso).isEqualTo((int) d);
            }
        }
    }

    @Test
    void formatIsIsoUtcWithMicrosOnlyWhenNeeded() {
        assertThat(Timestamps.formatMicros(TEN_UTC)).isEqualTo("2026-01-01T10:00:00Z");
        assertThat(Timestamps.formatMicros(TEN_UTC + 1)).isEqualTo("2026-01-01T10:00:00.000001Z");
        assertThat(Timestamps.formatMicros(TEN_UTC + 123_000)).isEqualTo("2026-01-01T10:00:00.123000Z");
        assertThat(Timestamps.formatMicros(0)).isEqualTo("1970-01-01T00:00:00Z");
        assertThat(Timestamps.formatMicros(-1)).isEqualTo("1969-12-31T23:59:59.999999Z");
        assertThat(Timestamps.formatMicrosNtz(TEN_UTC + 5)).isEqualTo("2026-01-01T10:00:00.000005");
        assertThat(Timestamps.formatDays(0)).isEqualTo("1970-01-01");
        assertThat(Timestamps.formatDays(-1)).isEqualTo("1969-12-31");
    }

    @ParameterizedTest
    @ValueSource(longs = {0L, 1L, -1L, 1_767_261_600_000_000L, 1_767_261_600_123_456L, -62_135_596_800_000_000L,
            253_402_300_799_999_999L, 253_402_300_800_000_000L, -62_135_596_800_000_001L})
    void formattedTimestampsParseBackToTheSameMicros(long micros) {
        assertThat(Timestamps.parseMicros(Timestamps.formatMicros(micros), true)).isEqualTo(micros);
        assertThat(Timestamps.parseMicros(Timestamps.formatMicrosNtz(micros), false)).isEqualTo(micros);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, -1, 20_454, -719_162, 2_932_896, 2_932_897})
    void formattedDatesParseBackToTheSameDays(int days) {
        assertThat(Timestamps.parseDays(Timestamps.formatDays(days))).isEqualTo(days);
    }

    @Test
    void randomTimestampsFormatAsJavaTimeDoesAndParseBack() {
        java.util.Random random = new java.util.Random(42);
        java.time.format.DateTimeFormatter micros = java.time.format.DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSS'Z'");
        java.time.format.DateTimeFormatter seconds = java.time.format.DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss'Z'");
        for (int i = 0; i < 20_000; i++) {
            long value = random.nextLong() % 400_000_000_000_000_000L;
            if (i % 3 == 0) {
                value -= Math.floorMod(value, 1_000_000L); // whole seconds
            }
            LocalDateTime t = LocalDateTime.ofEpochSecond(Math.floorDiv(value, 1_000_000L),
                    (int) Math.floorMod(value, 1_000_000L) * 1000, java.time.ZoneOffset.UTC);
            String expected = (Math.floorMod(value, 1_000_000L) == 0 ? seconds : micros).format(t);
            assertThat(Timestamps.formatMicros(value)).as("%d", value).isEqualTo(expected);
            assertThat(Timestamps.parseMicros(expected, true)).as(expected).isEqualTo(value);
            String spaced = expected.replace('T', ' ');
            assertThat(Timestamps.parseMicros(spaced, true)).as(spaced).isEqualTo(value);
            assertThat(Timestamps.parseMicros(spaced.substring(0, spaced.length() - 1), false)).as(spaced).isEqualTo(value);
            assertThat(Timestamps.parseMicros(spaced, false)).as(spaced).isNull();
        }
    }

    @Test
    void everyDayAndEveryOutOfRangeFieldOfTheCommonFormIsJudgedAsJavaTimeJudgesIt() {
        for (int year : new int[] {0, 1, 4, 100, 400, 1600, 1700, 1900, 1969, 1970, 2000, 2023, 2024, 2100, 9999}) {
            for (int month = 0; month <= 13; month++) {
                for (int day = 0; day <= 32; day++) {
                    for (String time : new String[] {"00:00:00", "23:59:59", "24:00:00", "23:60:00", "23:59:60"}) {
                        String text = String.format("%04d-%02d-%02dT%sZ", year, month, day, time);
                        Long expected;
                        try {
                            expected = LocalDateTime.parse(String.format("%04d-%02d-%02dT%s", year, month, day, time))
                                    .toEpochSecond(java.time.ZoneOffset.UTC) * 1_000_000L;
                        } catch (java.time.DateTimeException e) {
                            expected = null;
                        }
                        assertThat(Timestamps.parseMicros(text, true)).as(text).isEqualTo(expected);
                    }
                }
            }
        }
    }

    @Test
    void timestampsAroundTheFourDigitYearsFormatAsJavaTimeDoes() {
        java.time.format.DateTimeFormatter micros = java.time.format.DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSS'Z'");
        java.time.format.DateTimeFormatter seconds = java.time.format.DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss'Z'");
        for (String edge : new String[] {"0000-01-01T00:00:00Z", "0000-02-29T23:59:59Z", "0000-03-01T00:00:00Z", "1970-01-01T00:00:00Z",
            "2000-02-29T12:00:00Z", "2100-03-01T00:00:00Z", "9999-12-31T23:59:59Z", "+10000-01-01T00:00:00Z"}) {
            long base = java.time.Instant.parse(edge).getEpochSecond() * 1_000_000L;
            for (long delta : new long[] {-86_400_000_001L, -1_000_000, -1, 0, 1, 999_999, 1_000_000, 86_400_000_000L}) {
                long value = base + delta;
                LocalDateTime t = LocalDateTime.ofEpochSecond(Math.floorDiv(value, 1_000_000L),
                        (int) Math.floorMod(value, 1_000_000L) * 1000, java.time.ZoneOffset.UTC);
                String expected = (Math.floorMod(value, 1_000_000L) == 0 ? seconds : micros).format(t);
                assertThat(Timestamps.formatMicros(value)).as("%d", value).isEqualTo(expected);
                assertThat(Timestamps.formatMicrosNtz(value)).as("%d", value).isEqualTo(expected.substring(0, expected.length() - 1));
            }
        }
    }
}
