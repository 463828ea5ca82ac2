package io.tributary.tests;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.schema.Timestamps;
import io.tributary.sink.DeltaTables;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code source.files.timeZone}, Spark's {@code spark.sql.session.timeZone}: the table holds the
 * instants Spark would read from the same file with that session zone.
 */
@Tag("integration")
@Timeout(300)
class TimeZoneScenarioTest {
    static final String SPEC = """
            name: zones
            source:
              files:
                path: in/
                schema: "id INT, ts TIMESTAMP, local TIMESTAMP_NTZ"
                %s
            sink:
              delta:
                path: out/
            trigger: availableNow
            """;

    @TempDir
    Path dir;

    @Test
    void offsetLessTimestampsAreWallClockTimesOfTheSessionZone() {
        Workspace ws = new Workspace(dir, SPEC.formatted("timeZone: America/New_York"));
        ws.addFile("a.json",
                "{\"id\": 1, \"ts\": \"2026-01-15 10:00:00\", \"local\": \"2026-01-15 10:00:00\"}",
                "{\"id\": 2, \"ts\": \"2026-03-08T02:30:00\", \"local\": \"2026-03-08T02:30:00\"}",
                "{\"id\": 3, \"ts\": \"2026-11-01T01:30:00\"}",
                "{\"id\": 4, \"ts\": \"2026-01-15T10:00:00Z\"}",
                "{\"id\": 5, \"ts\": \"2026-01-15T10:00:00+01:00\"}");
        ws.tributary("run").assertOk();
        List<Object[]> rows = DeltaTables.readRows(dir.resolve("out").toString());
        rows.sort(Comparator.comparingInt(r -> (Integer) r[0]));
        assertThat(rows).extracting(r -> Timestamps.formatMicros((Long) r[1])).containsExactly(
                "2026-01-15T15:00:00Z",   // EST
                "2026-03-08T07:30:00Z",   // no 02:30 that night in New York: 03:30 EDT, as Spark reads it
                "2026-11-01T05:30:00Z",   // 01:30 comes twice: the earlier, EDT, as Spark reads it
                "2026-01-15T10:00:00Z",   // an explicit offset is not the session's
                "2026-01-15T09:00:00Z");
        assertThat(rows.subList(0, 2)).extracting(r -> Timestamps.formatMicrosNtz((Long) r[2])).as("TIMESTAMP_NTZ has no zone")
                .containsExactly("2026-01-15T10:00:00", "2026-03-08T02:30:00");
    }

    @Test
    void aZoneThatIsNoneStopsTheRunAtStartNamingTheKey() {
        Workspace ws = new Workspace(dir, SPEC.formatted(""));
        ws.addFile("a.json", "{\"id\": 1, \"ts\": \"2026-01-15 10:00:00\"}");
        Workspace.Result r = ws.tributary("run", "--set", "source.files.timeZone=Mars/Olympus");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).contains("source.files.timeZone: 'Mars/Olympus' is not a time zone; use a region such as America/New_York");
        assertThat(DeltaTables.exists(dir.resolve("out").toString())).as("no row written").isFalse();
    }
}
