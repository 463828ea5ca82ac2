package io.tributary.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.expressions.SelectItems;
import io.tributary.expressions.SqlQuery;
import io.tributary.schema.TributaryException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Spark 4.2's HAVING over windows (the repository's golden/having, on the test classpath): each case's query (its GROUP BY
 * and HAVING translated as {@code sql:} translates them) over a golden/windows input, four runs; after each run the rows
 * each batch wrote, the batch's marker counting exactly those (so the sink waits for no filtered row), and the table
 * (append: the rows appended; update: upserted by window and user, as the sink and Spark's MERGE do) are Spark's.
 */
class GoldenHavingTest {
    private static final Duration DELAY = Duration.ofMinutes(5);
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path stateDir;

    @ParameterizedTest
    @ValueSource(strings = {"append-count", "update-sum", "append-late", "update-late", "append-session"})
    void havingOverFourRunsGivesSparksBatchesAndTable(String name) throws IOException {
        JsonNode c = JSON.readTree(String.join("\n", lines("having/" + name + "/case.json")));
        AggregateSpec spec = spec(c);
        assertThat(spec.outputSchema().toDdl()).as("the hidden aggregates are not written; the window named as the query names it")
                .isEqualTo("window STRUCT<start: TIMESTAMP, end: TIMESTAMP>, user STRING, t DOUBLE");
        try (AggregationDriver driver = AggregationDriver.of(spec, stateDir)) {
            SparkBatches ingest = new SparkBatches(driver, DELAY);
            Map<String, String> table = new TreeMap<>(); // window|user -> row
            for (int run = 1; run <= runs(c).size(); run++) {
                String batches = ingest.run(List.of(runs(c).get(run - 1)));
                List<String> written = new ArrayList<>();
                List<String> pending = new ArrayList<>();
                for (AggregationDriver.Output o : driver.drain()) {
                    if (!o.marker()) {
                        pending.add(o.line());
                        continue;
                    }
                    JsonNode marker = JSON.readTree(o.value());
                    assertThat(marker.findValue(AggregateMetrics.MARKER_OUTPUT_ROWS).asLong())
                            .as("%s batch %s: the rows its marker counts", name, marker.get("batchId")).isEqualTo(pending.size());
                    for (String row : pending) {
                        written.add("out " + marker.get("batchId").asLong() + "|" + row);
                        table.put(row.substring(0, row.lastIndexOf('|')), row);
                    }
                    pending.clear();
                }
                List<String> golden = lines("having/" + name + "/after-run" + run + ".txt");
                String sparkBatches = golden.stream().filter(l -> l.startsWith("batches ")).findFirst().orElseThrow().substring(8);
                assertThat(batches).as("%s run %d batches", name, run).isEqualTo(sparkBatches.replaceAll("@[^,]*", ""));
                assertThat(written).as("%s run %d: each batch's rows", name, run)
                        .containsExactlyInAnyOrderElementsOf(golden.stream().filter(l -> l.startsWith("out ")).toList());
                assertThat(new ArrayList<>(table.values())).as("%s after run %d", name, run)
                        .containsExactlyInAnyOrderElementsOf(golden.stream().filter(l -> l.startsWith("{")).toList());
            }
        }
    }

    @Test
    void aHavingThatFailsOnAGroupStopsTheAggregationAsSparkFailsTheQuery() throws IOException {
        JsonNode c = JSON.readTree(String.join("\n", lines("having/append-divide-by-zero/case.json")));
        List<String> golden = lines("having/append-divide-by-zero/after-run2.txt");
        String sparkFailure = String.join("\n", golden.subList(golden.indexOf(golden.stream().filter(l -> l.startsWith("failed "))
                .findFirst().orElseThrow()), golden.size()));
        assertThat(sparkFailure).as("Spark's error: the class and the expression's place, no group")
                .contains("[DIVIDE_BY_ZERO] Division by zero").contains("HAVING 10 / (count(*) - 1) > 1");
        assertThat(lines("having/append-divide-by-zero/after-run1.txt")).as("run 1 closes no window").noneMatch(l -> l.startsWith("out "));
        try (AggregationDriver driver = AggregationDriver.of(spec(c), stateDir)) {
            SparkBatches ingest = new SparkBatches(driver, DELAY);
            assertThat(ingest.run(List.of(lines("windows/case-902/run1.json")))).isEqualTo("0:5,1:0");
            assertThat(driver.drain()).as("run 1: batch 0 and 1's markers").hasSize(2);
            List<String> run = lines("windows/case-902/run2.json");
            assertThat(golden).contains("batches 2:6@2026-10-05T07:09:51.000Z");
            Throwable failed = catchThrowable(() -> ingest.run(List.of(run)));
            while (failed != null && !(failed instanceof TributaryException)) { // Kafka Streams wraps what the processor threw
                failed = failed.getCause();
            }
            assertThat(failed).as("batch 3 closes windows of one row: the aggregation stops").isNotNull();
            assertThat(failed.getMessage()).as("the predicate, the group, the failure and its place in the predicate")
                    .startsWith("aggregate.having \"10 / (count(*) - 1) > 1\" failed on the group window {2026-10-05T07:00:00Z,"
                            + " 2026-10-05T07:10:00Z}, user a, t 17.0, count(*) 1: DIVIDE_BY_ZERO: division by zero in 10 / (count(*) - 1)")
                    .contains("Spark fails the query too; guard the predicate (try_divide, CASE WHEN ...)");
            List<AggregationDriver.Output> out = driver.drain();
            assertThat(out).as("no row written, as Spark's failed batch writes none").hasSize(1).allMatch(AggregationDriver.Output::marker);
            assertThat(JSON.readTree(out.get(0).value()).get("batchId").asLong()).as("batch 2 ended, batch 3 failed, as in Spark")
                    .isEqualTo(2);
        }
    }

    /** Each run's rows (one batch): {@code golden/windows/<input>/runN.json}, or the files a run lists in an input folder. */
    private static List<List<String>> runs(JsonNode c) {
        String input = c.get("input").asText();
        List<List<String>> runs = new ArrayList<>();
        if (c.get("runs").isInt()) {
            for (int run = 1; run <= c.get("runs").asInt(); run++) {
                runs.add(lines("windows/" + input + "/run" + run + ".json"));
            }
            return runs;
        }
        for (JsonNode files : c.get("runs")) {
            List<String> rows = new ArrayList<>();
            files.forEach(f -> rows.addAll(lines(input + "/" + f.asText())));
            runs.add(rows);
        }
        return runs;
    }

    /** The case's query as {@code sql:} translates it (a session window's {@code AS window} names its column, as in Spark). */
    private static AggregateSpec spec(JsonNode c) {
        SqlQuery.Aggregation query = SqlQuery.parse(c.get("query").asText()).aggregation();
        Duration gap = query.session() == null ? null : GoldenSessionsTest.duration(query.session());
        AggregateSpec.Builder b = AggregateSpec.builder().eventTime(query.eventTime()).watermark(DELAY).windowColumn(query.windowColumn())
                .groupBy(query.groupBy().stream().map(SelectItems::name).toList()).select(query.select()).having(query.having().text())
                .outputMode(OutputMode.parse(c.get("outputMode").asText()));
        return (gap == null ? b.window(Duration.ofMinutes(10)) : b.session(gap)).build(AggregationDriver.seedSchema());
    }

    private static List<String> lines(String path) {
        try (InputStream in = GoldenHavingTest.class.getResourceAsStream("/golden/" + path)) {
            assertThat(in).as("fixture %s", path).isNotNull();
            return Arrays.stream(new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")).filter(l -> !l.isBlank()).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
