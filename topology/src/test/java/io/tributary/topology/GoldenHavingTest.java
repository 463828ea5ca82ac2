package io.tributary.topology;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.expressions.SqlQuery;
import io.tributary.expressions.Transform;
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
    @ValueSource(strings = {"append-count", "update-sum", "append-late", "update-late"})
    void havingOverFourRunsGivesSparksBatchesAndTable(String name) throws IOException {
        JsonNode c = JSON.readTree(String.join("\n", lines("having/" + name + "/case.json")));
        SqlQuery.Aggregation query = SqlQuery.parse(c.get("query").asText()).aggregation();
        OutputMode mode = OutputMode.parse(c.get("outputMode").asText());
        AggregateSpec spec = AggregateSpec.builder().eventTime(query.eventTime()).watermark(DELAY).window(Duration.ofMinutes(10))
                .groupBy(query.groupBy().stream().map(Transform::itemName).toList()).select(query.select()).having(query.having().text()).outputMode(mode)
                .build(AggregationDriver.seedSchema());
        assertThat(spec.outputSchema().toDdl()).as("the hidden aggregates are not written")
                .isEqualTo("window STRUCT<start: TIMESTAMP, end: TIMESTAMP>, user STRING, t DOUBLE");
        try (AggregationDriver driver = AggregationDriver.of(spec, stateDir)) {
            SparkBatches ingest = new SparkBatches(driver, DELAY);
            Map<String, String> table = new TreeMap<>(); // window|user -> row
            for (int run = 1; run <= c.get("runs").asInt(); run++) {
                String batches = ingest.run(List.of(lines("windows/" + c.get("input").asText() + "/run" + run + ".json")));
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

    private static List<String> lines(String path) {
        try (InputStream in = GoldenHavingTest.class.getResourceAsStream("/golden/" + path)) {
            assertThat(in).as("fixture %s", path).isNotNull();
            return Arrays.stream(new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")).filter(l -> !l.isBlank()).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
