package io.tributary.expressions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Spark's functions of the current time in a stream: every row of a batch reads the batch's start, in UTC. */
class BatchTimeTest {
    private static final Schema INPUT = Schema.parse("id INT, ts TIMESTAMP");
    private static final List<String> ALL = List.of("current_timestamp() AS a", "now() AS b", "current_date() AS c", "curdate() AS d",
            "localtimestamp() AS e", "current_timezone() AS f");

    @Test
    void typesAreSparks() {
        Transform t = Transform.compile(INPUT, null, ALL);
        assertThat(t.output().toDdl()).isEqualTo("a TIMESTAMP, b TIMESTAMP, c DATE, d DATE, e TIMESTAMP_NTZ, f STRING");
        assertThat(t.readsBatchTime()).isTrue();
        assertThat(Transform.compile(INPUT, "id > 0", List.of("id")).readsBatchTime()).isFalse();
    }

    @Test
    void typesAreWhatSpark42Gave() throws Exception {
        List<String> lines;
        try (InputStream in = BatchTimeTest.class.getClassLoader().getResourceAsStream("golden/batch-time/spark-types.tsv")) {
            lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().filter(l -> !l.isBlank()).toList();
        }
        assertThat(lines).hasSize(9);
        for (String line : lines) {
            String[] cols = line.split("\t");
            Transform t = Transform.compile(INPUT, null, List.of(cols[0] + " AS x"));
            assertThat(t.output().toDdl()).as(cols[0]).isEqualTo("x " + cols[1]);
        }
    }

    @Test
    void everyRowOfABatchReadsItsStartAndTheNextBatchItsOwn() {
        Transform t = Transform.compile(INPUT, null, ALL);
        Instant first = Instant.parse("2026-12-06T23:59:59.123456789Z");
        t.startBatch(first);
        Object[] r1 = t.apply(new Object[] {1, 0L});
        Object[] r2 = t.apply(new Object[] {2, 0L});
        long micros = 1_796_601_599_123_000L; // Spark's batch timestamp is in milliseconds
        int day = (int) LocalDate.parse("2026-12-06").toEpochDay();
        assertThat(r1).containsExactly(micros, micros, day, day, micros, "UTC");
        assertThat(r2).containsExactly(r1);
        t.startBatch(first.plusSeconds(1));
        assertThat(t.apply(new Object[] {3, 0L})).containsExactly(micros + 1_000_000L, micros + 1_000_000L, day + 1, day + 1,
                micros + 1_000_000L, "UTC");
    }

    @Test
    void aFilterOnTheLastDayReadsTheBatchsStart() {
        Transform t = Transform.compile(INPUT, "ts > current_timestamp() - INTERVAL 1 DAY", List.of("id"));
        t.startBatch(Instant.parse("2026-12-06T12:00:00Z"));
        long noon = Instant.parse("2026-12-06T12:00:00Z").toEpochMilli() * 1000L;
        assertThat(t.apply(new Object[] {1, noon - 3_600_000_000L})).containsExactly(1);
        assertThat(t.apply(new Object[] {2, noon - 25 * 3_600_000_000L})).isNull();
        t.startBatch(Instant.parse("2026-12-07T12:00:00Z"));
        assertThat(t.apply(new Object[] {1, noon - 3_600_000_000L})).as("a day later, the same row is too old").isNull();
    }

    @Test
    void argumentsAndPlacesWithoutABatchAreRefused() {
        assertThatThrownBy(() -> Transform.compile(INPUT, null, List.of("current_date(1)")))
                .isInstanceOf(TributaryException.class).hasMessageContaining("current_date takes 0 argument(s), not 1");
        assertThatThrownBy(() -> Expression.compile(INPUT, "now()"))
                .isInstanceOf(TributaryException.class).hasMessageContaining("'now()' gives the start of the batch that runs it");
    }
}
