package io.tributary.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.schema.Durations;
import io.tributary.schema.Schema;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Spark 4.2's tables for the golden deduplication cases (golden/dedup): the same files in the same runs give
 * the same rows after every run, and the same micro-batches (batchId:numInputRows), for
 * {@code dropDuplicatesWithinWatermark}, {@code dropDuplicates} with a watermark (with and without the event
 * time among the keys) and without one.
 */
class GoldenDedupTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    static final Schema SCHEMA = Schema.parse("id INT, user STRING, amt DOUBLE, ts TIMESTAMP");

    @TempDir
    Path stateDir;

    /** The deduplication a golden case's {@code case.json} describes. */
    static DedupSpec spec(JsonNode c) {
        List<String> keys = new ArrayList<>();
        c.get("keys").forEach(k -> keys.add(k.asText()));
        Duration delay = c.has("watermark") ? Durations.parse(c.get("watermark").asText()).orElseThrow() : null;
        return DedupSpec.of(SCHEMA, keys, delay == null ? null : "ts", delay, c.get("operator").asText().equals("withinWatermark"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"within-watermark", "keys-and-watermark", "keys-with-event-time", "no-watermark", "late-within-watermark",
        "late-keys-not-event-time", "late-keys-with-event-time"})
    void eachRunLeavesSparksTable(String name) throws IOException {
        JsonNode c = JSON.readTree(text(name + "/case.json"));
        DedupSpec spec = spec(c);
        try (DedupDriver driver = new DedupDriver(spec, stateDir)) {
            SparkBatches ingest = new SparkBatches(driver, spec.delay());
            List<String> table = new ArrayList<>();
            int run = 0;
            for (JsonNode files : c.get("runs")) {
                run++;
                List<List<String>> batches = new ArrayList<>();
                files.forEach(f -> batches.add(lines(name + "/" + f.asText())));
                String played = ingest.run(batches);
                table.addAll(driver.rows());
                List<String> golden = lines(name + "/after-run" + run + ".txt");
                String sparkBatches = golden.stream().filter(l -> l.startsWith("batches ")).findFirst().orElseThrow().substring(8)
                        .replaceAll("@[^,]*", "");
                assertThat(played).as("%s run %d batches", name, run).isEqualTo(sparkBatches);
                assertThat(table.stream().sorted().toList()).as("%s after run %d", name, run)
                        .isEqualTo(golden.stream().filter(l -> !l.startsWith("#") && !l.startsWith("batches")).sorted().toList());
            }
        }
    }

    @Test
    void keysLeaveTheStoreOnceTheWatermarkPassesTheirFirstRowPlusTheDelay() {
        DedupSpec spec = DedupSpec.of(SCHEMA, List.of("id"), "ts", Duration.ofMinutes(10), true);
        try (DedupDriver driver = new DedupDriver(spec, stateDir)) {
            SparkBatches ingest = new SparkBatches(driver, spec.delay());
            ingest.run(List.of(List.of(row(1, "10:00"), row(2, "10:05"), row(1, "10:06"))));
            assertThat(driver.rows()).hasSize(2);
            assertThat(driver.keysInStore()).isEqualTo(2); // the watermark (09:55) passed neither 10:10 nor 10:15
            ingest.run(List.of(List.of(row(3, "10:30"))));
            assertThat(driver.keysInStore()).as("watermark 10:20 evicts 1 (10:10) and 2 (10:15)").isEqualTo(1);
            ingest.run(List.of(List.of(row(1, "10:31"), row(3, "10:32"))));
            assertThat(driver.rows()).containsExactly("3|u|1.0|2026-01-01 10:30:00", "1|u|1.0|2026-01-01 10:31:00");
            assertThat(driver.metric(AggregateMetrics.ROWS_TOTAL)).isEqualTo(2.0);
            assertThat(driver.markers()).last().asString().contains("\"numRowsTotal\":2");
        }
    }

    @Test
    void aKeyOfSeveralColumnsAndNullsDeduplicatesOnAllOfThem() {
        DedupSpec spec = DedupSpec.of(SCHEMA, List.of("user", "id"), null, null, false);
        try (DedupDriver driver = new DedupDriver(spec, stateDir)) {
            new SparkBatches(driver, null).run(List.of(List.of(
                    "{\"id\":1,\"user\":\"a\",\"amt\":1.0,\"ts\":null}", "{\"id\":1,\"user\":\"b\",\"amt\":2.0,\"ts\":null}",
                    "{\"id\":null,\"user\":\"a\",\"amt\":3.0,\"ts\":null}", "{\"id\":1,\"user\":\"a\",\"amt\":4.0,\"ts\":null}",
                    "{\"id\":null,\"user\":\"a\",\"amt\":5.0,\"ts\":null}")));
            assertThat(driver.rows()).containsExactly("1|a|1.0|null", "1|b|2.0|null", "null|a|3.0|null");
        }
    }

    @Test
    void refusalsNameTheKeyAndTheFix() {
        assertThatThrownBy(() -> DedupSpec.of(SCHEMA, List.of("nope"), null, null, false)).isInstanceOf(TributaryException.class)
                .hasMessageStartingWith("transform.dropDuplicates.keys: no column 'nope'; the rows have id INT");
        assertThatThrownBy(() -> DedupSpec.of(SCHEMA, List.of("id"), null, null, true))
                .hasMessageStartingWith("transform.dropDuplicates.withinWatermark: dropDuplicatesWithinWatermark needs a watermark");
        assertThatThrownBy(() -> DedupSpec.of(SCHEMA, List.of("id"), "user", Duration.ofMinutes(1), true))
                .hasMessageStartingWith("transform.dropDuplicates.eventTime: column 'user' is STRING");
        assertThatThrownBy(() -> DedupSpec.of(SCHEMA, List.of(), null, null, false))
                .hasMessageStartingWith("transform.dropDuplicates.keys: missing");
    }

    private static String row(int id, String time) {
        return "{\"id\":" + id + ",\"user\":\"u\",\"amt\":1.0,\"ts\":\"2026-01-01T" + time + ":00Z\"}";
    }

    static String text(String path) {
        try (InputStream in = GoldenDedupTest.class.getResourceAsStream("/golden/dedup/" + path)) {
            assertThat(in).as("fixture %s", path).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<String> lines(String path) {
        return Arrays.stream(text(path).split("\n")).filter(l -> !l.isBlank()).toList();
    }
}
