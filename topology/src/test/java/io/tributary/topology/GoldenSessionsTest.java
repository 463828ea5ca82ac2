package io.tributary.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Spark 4.2's session windows for the golden cases of golden/sessions (on the test classpath): the same files
 * in the same batches and runs give the same batches, the same sessions written in each run and the same table
 * after each run; sessions merge within and across batches, a row extends a session backwards or bridges two,
 * and a row whose own session ended at the watermark is late even inside a session still open.
 */
class GoldenSessionsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path stateDir;

    static AggregateSpec spec(JsonNode c, OutputMode mode) {
        return AggregateSpec.builder().eventTime("ts").watermark(duration(c.get("watermark").asText()))
                .session(duration(c.get("gap").asText())).groupBy("user")
                .select("t", "sum(amt)").select("n", "count(*)").select("hi", "max(amt)")
                .outputMode(mode).build(AggregationDriver.seedSchema());
    }

    /** "10 minutes" as the golden case.json writes it. */
    static Duration duration(String text) {
        String[] p = text.split(" ");
        return Duration.ofMinutes(Long.parseLong(p[0]));
    }

    @ParameterizedTest
    @CsvSource({"append-file-batches, 2, 2", "append-run-batches, 2, 2", "append-late-runs, 1, 1"})
    void eachRunWritesSparksSessionsAndLeavesSparksTable(String name, double late, int open) throws IOException {
        JsonNode c = JSON.readTree(text(name + "/case.json"));
        AggregateSpec spec = spec(c, OutputMode.APPEND);
        try (AggregationDriver driver = AggregationDriver.of(spec, stateDir)) {
            SparkBatches ingest = new SparkBatches(driver, spec.watermark());
            List<String> table = new ArrayList<>();
            int run = 0;
            for (JsonNode files : c.get("runs")) {
                run++;
                List<List<String>> batches = new ArrayList<>();
                for (JsonNode f : files) {
                    batches.add(lines("input/" + f.asText()));
                }
                if (!c.has("maxFilesPerTrigger")) {
                    batches = List.of(batches.stream().flatMap(List::stream).toList()); // the run's files in one batch
                }
                String progress = ingest.run(batches);
                List<String> written = driver.rows();
                table.addAll(written);
                List<String> golden = lines(name + "/after-run" + run + ".txt");
                assertThat(progress).as("%s run %d batches", name, run).isEqualTo(batches(golden));
                assertThat(sorted(written)).as("%s run %d: the sessions written", name, run).isEqualTo(sorted(golden.stream()
                        .filter(l -> l.startsWith("out ")).map(l -> l.substring(l.indexOf('|') + 1)).toList()));
                assertThat(sorted(table)).as("%s after run %d", name, run)
                        .isEqualTo(sorted(golden.stream().filter(l -> l.startsWith("{")).toList()));
            }
            assertThat(driver.metric(AggregateMetrics.ROWS_DROPPED)).as("rows behind the watermark").isEqualTo(late);
            assertThat(driver.metric(AggregateMetrics.ROWS_TOTAL)).as("sessions still open").isEqualTo((double) open);
            assertThat(driver.sessionsInStore()).as("the open sessions in the store").isEqualTo(open);
        }
    }

    @Test
    void updateModeIsRefusedAsSparkRefusesIt() {
        String spark = text("update/refused.txt").strip();
        assertThat(spark).contains("Invalid streaming output mode: update. This output mode is not supported for session window streaming aggregations on streaming DataFrames/DataSets");
        assertThatThrownBy(() -> spec(JSON.readTree(text("update/case.json")), OutputMode.UPDATE))
                .hasMessageContaining("outputMode: update is not supported with aggregate.session")
                .hasMessageContaining("Invalid streaming output mode: update. This output mode is not supported for session window streaming aggregations on streaming DataFrames/DataSets");
    }

    /** Spark's progress {@code batchId:numInputRows}, without the watermarks. */
    private static String batches(List<String> golden) {
        String line = golden.stream().filter(l -> l.startsWith("batches ")).findFirst().orElseThrow().substring(8);
        return String.join(",", Arrays.stream(line.split(",")).map(b -> b.substring(0, b.indexOf('@'))).toList());
    }

    private static List<String> sorted(List<String> rows) {
        return rows.stream().sorted().toList();
    }

    static List<String> lines(String path) {
        return Arrays.stream(text(path).split("\n")).filter(l -> !l.isBlank()).toList();
    }

    static String text(String path) {
        try (InputStream in = GoldenSessionsTest.class.getResourceAsStream("/golden/sessions/" + path)) {
            assertThat(in).as("fixture %s", path).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
