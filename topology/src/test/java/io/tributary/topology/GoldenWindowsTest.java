package io.tributary.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Spark 4.2's tables for the golden window cases (the repository's golden/windows, on the test
 * classpath): the same files, the same runs, the same rows after each run, and the same
 * micro-batches (batchId:numInputRows) in each run.
 */
class GoldenWindowsTest {
    private static final Duration DELAY = Duration.ofMinutes(5);

    @TempDir
    Path stateDir;

    static AggregateSpec goldenSpec() {
        return AggregateSpec.builder().eventTime("ts").watermark(DELAY).window(Duration.ofMinutes(10))
                .groupBy("user").select("t", "sum(amt)").outputMode(OutputMode.APPEND)
                .build(AggregationDriver.seedSchema());
    }

    @ParameterizedTest
    @ValueSource(strings = {"case-901", "case-902", "case-903"})
    void fourRunsOneFileEachGiveSparksTableAfterEveryRun(String name) {
        try (AggregationDriver driver = AggregationDriver.of(goldenSpec(), stateDir)) {
            SparkBatches ingest = new SparkBatches(driver, DELAY);
            List<String> table = new ArrayList<>();
            for (int run = 1; run <= 4; run++) {
                String batches = ingest.run(List.of(lines(name + "/run" + run + ".json")));
                table.addAll(driver.rows());
                Golden golden = golden(name + "/after-run" + run + ".txt");
                assertThat(batches).as("%s run %d batches", name, run).isEqualTo(golden.batches());
                assertThat(sorted(table)).as("%s after run %d", name, run).isEqualTo(golden.rows());
            }
        }
    }

    /**
     * The same runs with the events in binary rows, as file-ingest publishes them when the aggregation is their only reader,
     * and the results in binary rows, as the aggregation writes them for the Delta sink.
     */
    @ParameterizedTest
    @ValueSource(strings = {"case-901", "case-902", "case-903", "case-late-two-runs"})
    void eventsInBinaryRowsGiveSparksTableAfterEveryRun(String name) {
        try (AggregationDriver driver = AggregationDriver.binary(goldenSpec(), stateDir, false)) {
            SparkBatches ingest = new SparkBatches(driver, DELAY);
            List<String> table = new ArrayList<>();
            int runs = name.startsWith("case-late") ? 2 : 4;
            for (int run = 1; run <= runs; run++) {
                String batches = ingest.run(List.of(lines(name + "/run" + run + ".json")));
                table.addAll(driver.rows());
                Golden golden = golden(name + "/after-run" + run + ".txt");
                assertThat(batches).as("%s run %d batches", name, run).isEqualTo(golden.batches());
                assertThat(sorted(table)).as("%s after run %d", name, run).isEqualTo(golden.rows());
            }
        }
    }

    @Test
    void lateRowInTheRunAfterTheNoDataBatchIsDropped() {
        try (AggregationDriver driver = AggregationDriver.of(goldenSpec(), stateDir)) {
            SparkBatches ingest = new SparkBatches(driver, DELAY);
            List<String> table = new ArrayList<>();
            for (int run = 1; run <= 2; run++) {
                String batches = ingest.run(List.of(lines("case-late-two-runs/run" + run + ".json")));
                table.addAll(driver.rows());
                Golden golden = golden("case-late-two-runs/after-run" + run + ".txt");
                assertThat(batches).isEqualTo(golden.batches());
                assertThat(sorted(table)).isEqualTo(golden.rows());
            }
            assertThat(driver.metric(AggregateMetrics.ROWS_DROPPED)).isEqualTo(1.0);
        }
    }

    @Test
    void lateRowInTheNextDataBatchOfTheSameRunStillCounts() {
        try (AggregationDriver driver = AggregationDriver.of(goldenSpec(), stateDir)) {
            String batches = new SparkBatches(driver, DELAY).run(List.of(
                    lines("case-late-one-run/run1-file1.json"), lines("case-late-one-run/run1-file2.json")));
            Golden golden = golden("case-late-one-run/after-run1.txt");
            assertThat(batches).isEqualTo(golden.batches());
            assertThat(sorted(driver.rows())).isEqualTo(golden.rows());
            assertThat(driver.metric(AggregateMetrics.ROWS_DROPPED)).isEqualTo(0.0);
        }
    }

    /**
     * Why the ingest writes the no-data marker only when no data batch follows: written after
     * every batch that moved the watermark, it would drop row 4 that Spark counted (n = 56).
     */
    @Test
    void noDataMarkerBetweenTwoDataBatchesWouldLoseARowSparkCounted() {
        try (AggregationDriver driver = AggregationDriver.of(goldenSpec(), stateDir)) {
            new SparkBatches(driver, DELAY, true).run(List.of(
                    lines("case-late-one-run/run1-file1.json"), lines("case-late-one-run/run1-file2.json")));
            assertThat(driver.rows()).contains("{2026-10-06 09:10:00, 2026-10-06 09:20:00}|n|6.0")
                    .doesNotContain("{2026-10-06 09:10:00, 2026-10-06 09:20:00}|n|56.0");
        }
    }

    record Golden(String batches, List<String> rows) {
    }

    static Golden golden(String path) {
        List<String> lines = lines(path);
        String batches = lines.stream().filter(l -> l.startsWith("batches ")).findFirst().orElseThrow().substring(8);
        List<String> rows = lines.stream().filter(l -> l.startsWith("{")).toList();
        return new Golden(batches, sorted(rows));
    }

    static List<String> sorted(List<String> rows) {
        return rows.stream().sorted().toList();
    }

    static List<String> lines(String path) {
        try (InputStream in = GoldenWindowsTest.class.getResourceAsStream("/golden/windows/" + path)) {
            assertThat(in).as("fixture %s", path).isNotNull();
            return Arrays.stream(new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n"))
                    .filter(l -> !l.isBlank()).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
