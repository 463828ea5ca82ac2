package io.tributary.topology;

import static io.tributary.topology.GoldenAggregateReplay.DELAY;
import static io.tributary.topology.GoldenAggregateReplay.lines;
import static io.tributary.topology.GoldenAggregateReplay.readJson;
import static io.tributary.topology.GoldenAggregateReplay.sourceSchema;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.expressions.SelectItems;
import io.tributary.expressions.SqlQuery;
import io.tributary.schema.Timestamps;
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
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Spark 4.2's values of the aggregate functions beyond sum and count (the repository's golden/aggregate-functions): stddev and
 * variance in their forms, collect_list, collect_set and any_value, over two runs in append mode (closed windows) and in update
 * mode (a window's state kept between runs and updated), max_by and min_by (ties across batches, HAVING), corr and the
 * covariances (merged across batches), percentile, median, percentile_cont, percentile_disc and mode (a frequency, WITHIN GROUP
 * in both directions, HAVING and an expression over them), hll_sketch_agg and hll_union_agg and the theta_ sketch aggregates (their
 * sketches byte for byte), percentile_approx (an array of INT, inside an expression, in HAVING), vector_sum and vector_avg (FLOAT
 * arrays merged across batches), percentile_approx of DECIMALs (Spark's decimal of the double estimate), schema_of_variant_agg (the
 * merged schema of VARIANT values, in update and append mode) and listagg and string_agg (unicode, empty strings, NULLs, BINARY, numbers cast to STRING,
 * WITHIN GROUP with DESC and NULLS orderings, in HAVING and inside expressions, values joined in arrival order across batches)
 * give each batch's rows and the table Spark gives, to the bit. A collect_set's elements
 * are compared in Spark's order sorted, as Spark gives no order.
 */
class GoldenAggregateFunctionsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path stateDir;

    @ParameterizedTest
    @ValueSource(strings = {"append-stats", "update-collect", "append-moments", "update-moments", "append-by", "update-by", "update-corr", "update-regr",
        "append-approx", "append-percentile", "update-mode", "update-hll", "append-hll", "update-hll-many",
        "append-percentile-approx", "update-vector", "update-listagg", "append-listagg",
        "update-theta", "append-theta", "update-theta-many", "update-percentile-approx-decimal", "update-variant-schema",
        "append-variant-schema", "update-moments-casts", "update-percentile-casts", "update-timestamp-sums",
        "update-tuple-string"})
    void theFunctionsGiveSparksBatchesAndTable(String name) throws IOException {
        JsonNode c = JSON.readTree(String.join("\n", lines("aggregate-functions/" + name + "/case.json")));
        GoldenAggregateReplay.replay(stateDir, name, c, c.get("query").asText(), sourceSchema(c), UnaryOperator.identity(), 1);
    }

    /**
     * The aggregates whose state is a whole collection, their rows packed 1,000 to an events record as file-ingest packs them,
     * so that a batch's rows fold into one state held in memory and encoded once at the commit: Spark's rows and table, to the bit.
     */
    @ParameterizedTest
    @ValueSource(strings = {"update-collect", "append-percentile", "update-mode", "update-hll", "append-hll", "update-hll-many",
        "append-percentile-approx", "update-listagg", "append-listagg", "update-theta", "append-theta", "update-theta-many", "update-kll",
        "append-kll", "update-kll-many", "update-percentile-approx-decimal", "update-percentile-casts"})
    void theCollectionStatesFoldedInMemoryGiveSparksBatchesAndTable(String name) throws IOException {
        JsonNode c = JSON.readTree(String.join("\n", lines("aggregate-functions/" + name + "/case.json")));
        GoldenAggregateReplay.replay(stateDir, name, c, c.get("query").asText(), sourceSchema(c), UnaryOperator.identity(), 1000);
    }

    /**
     * schema_of_variant_agg in complete mode: every group's schema written each batch, the table after each run Spark's table of
     * the same rows in update mode (the merged schemas of all the groups, the closed windows' too).
     */
    @org.junit.jupiter.api.Test
    void schemaOfVariantAggInCompleteModeGivesSparksTable() throws IOException {
        com.fasterxml.jackson.databind.node.ObjectNode c = (com.fasterxml.jackson.databind.node.ObjectNode) JSON.readTree(
                String.join("\n", lines("aggregate-functions/update-variant-schema/case.json")));
        c.put("outputMode", "complete");
        GoldenAggregateReplay.replay(stateDir, "update-variant-schema", c, c.get("query").asText(), sourceSchema(c), UnaryOperator.identity(), 1);
    }

    /**
     * hll_union_agg over sketches Spark's query picks with IF (X'..' of lgConfigK 12 or 4): the same sketches given as BINARY
     * columns, s1 and s2, give Spark's unions byte for byte, their estimates, and a null sketch skipped.
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 1000})
    void hllUnionAggOfSketchesGivesSparksUnionsAcrossBatches(int rowsPerRecord) throws IOException {
        JsonNode c = JSON.readTree(String.join("\n", lines("aggregate-functions/update-hll-union/case.json")));
        java.util.regex.Matcher x = java.util.regex.Pattern.compile("X'([0-9A-F]+)'").matcher(c.get("query").asText());
        List<String> sketches = new ArrayList<>(); // A, C, B, A as the query writes them
        while (x.find()) {
            sketches.add(java.util.Base64.getEncoder().encodeToString(java.util.HexFormat.of().parseHex(x.group(1))));
        }
        String query = "SELECT window(ts, '10 minutes') AS window, user, hex(hll_union_agg(s1, true)) AS a, hll_sketch_estimate("
                + "hll_union_agg(s2)) AS b, hex(hll_union_agg(s2)) AS c FROM source GROUP BY window(ts, '10 minutes'), user";
        GoldenAggregateReplay.replay(stateDir, "update-hll-union", c, query, io.tributary.schema.Schema.parse("id INT, user STRING, amt DOUBLE, ts TIMESTAMP, s1 BINARY,"
                + " s2 BINARY"), line -> { // the query's IF(id % 2 = 0, A, C) as s1 and IF(amt IS NULL, NULL, IF(id > 5, B, A)) as s2
                    JsonNode r = readJson(line);
                    int id = r.get("id").asInt();
                    String s2 = r.get("amt").isNull() ? "null" : "\"" + (id > 5 ? sketches.get(2) : sketches.get(3)) + "\"";
                    return line.substring(0, line.lastIndexOf('}')) + ", \"s1\": \"" + (id % 2 == 0 ? sketches.get(0) : sketches.get(1))
                            + "\", \"s2\": " + s2 + "}";
                }, rowsPerRecord);
    }

    /**
     * theta_union_agg and theta_intersection_agg over sketches Spark's query picks with IF (X'..' of 1..5, 0..999, 3..8 and 'a',
     * 'é'): the same sketches given as BINARY columns give Spark's unions and intersections byte for byte, and a null sketch skipped.
     */
    @org.junit.jupiter.api.Test
    void thetaUnionAndIntersectionAggOfSketchesGiveSparksAcrossBatches() throws IOException {
        JsonNode c = JSON.readTree(String.join("\n", lines("aggregate-functions/update-theta-sets/case.json")));
        java.util.regex.Matcher x = java.util.regex.Pattern.compile("X'([0-9A-F]+)'").matcher(c.get("query").asText());
        List<String> sketches = new ArrayList<>(); // A, C, B, S, B, S, A, B as the query writes them
        while (x.find()) {
            sketches.add(java.util.Base64.getEncoder().encodeToString(java.util.HexFormat.of().parseHex(x.group(1))));
        }
        String query = "SELECT window(ts, '10 minutes') AS window, user, hex(theta_union_agg(s1)) AS a, theta_sketch_estimate("
                + "theta_union_agg(s2, 5)) AS b, hex(theta_union_agg(s2, 5)) AS c, hex(theta_intersection_agg(s3)) AS d FROM source"
                + " GROUP BY window(ts, '10 minutes'), user";
        GoldenAggregateReplay.replay(stateDir, "update-theta-sets", c, query, io.tributary.schema.Schema.parse("id INT, user STRING, amt DOUBLE, ts TIMESTAMP,"
                + " s1 BINARY, s2 BINARY, s3 BINARY"), line -> { // IF(id % 2 = 0, A, C), IF(amt IS NULL, NULL, IF(id > 5, B, S)), IF(id % 2 = 0, A, B)
                    JsonNode r = readJson(line);
                    int id = r.get("id").asInt();
                    String s2 = r.get("amt").isNull() ? "null" : "\"" + (id > 5 ? sketches.get(2) : sketches.get(3)) + "\"";
                    return line.substring(0, line.lastIndexOf('}')) + ", \"s1\": \"" + (id % 2 == 0 ? sketches.get(0) : sketches.get(1))
                            + "\", \"s2\": " + s2 + ", \"s3\": \"" + (id % 2 == 0 ? sketches.get(0) : sketches.get(2)) + "\"}";
                }, 1);
    }

    /**
     * kll_sketch_agg_bigint, _float and _double (k from 8 to 65535) in update and append mode, over a few rows a group (every value
     * kept: Spark's sketches byte for byte) and over hundreds (update-kll-many: byte for byte at k 1000; compacted at random at k 200
     * and 8, in Spark as here, so their count, smallest and largest only), and scalars over them.
     */
    @ParameterizedTest
    @ValueSource(strings = {"update-kll", "append-kll", "update-kll-many"})
    void kllSketchesGiveSparksBatchesAndTable(String name) throws IOException {
        JsonNode c = JSON.readTree(String.join("\n", lines("aggregate-functions/" + name + "/case.json")));
        GoldenAggregateReplay.replay(stateDir, name, c, c.get("query").asText(), AggregationDriver.seedSchema(), UnaryOperator.identity(), 1);
    }

    /**
     * kll_merge_agg_bigint over sketches Spark's query picks with IF (X'..' of k 200 and 50): the same sketches given as BINARY
     * columns, s1 and s2, give Spark's merged sketches byte for byte (a given k, a null sketch skipped) and their counts.
     */
    @org.junit.jupiter.api.Test
    void kllMergeAggOfSketchesGivesSparksSketchesAcrossBatches() throws IOException {
        JsonNode c = JSON.readTree(String.join("\n", lines("aggregate-functions/update-kll-merge/case.json")));
        java.util.regex.Matcher x = java.util.regex.Pattern.compile("X'([0-9A-F]+)'").matcher(c.get("query").asText());
        List<String> sketches = new ArrayList<>(); // A, B, C, C as the query writes them
        while (x.find()) {
            sketches.add(java.util.Base64.getEncoder().encodeToString(java.util.HexFormat.of().parseHex(x.group(1))));
        }
        String query = "SELECT window(ts, '10 minutes') AS window, user, hex(kll_merge_agg_bigint(s1)) AS a, hex(kll_merge_agg_bigint(s2, 300))"
                + " AS b, kll_sketch_get_n_bigint(kll_merge_agg_bigint(s2)) AS c FROM source GROUP BY window(ts, '10 minutes'), user";
        GoldenAggregateReplay.replay(stateDir, "update-kll-merge", c, query, io.tributary.schema.Schema.parse("id INT, user STRING, amt DOUBLE, ts TIMESTAMP, s1 BINARY,"
                + " s2 BINARY"), line -> { // the query's IF(id % 2 = 0, A, B) as s1 and IF(amt IS NULL, NULL, C) as s2
                    JsonNode r = readJson(line);
                    String s2 = r.get("amt").isNull() ? "null" : "\"" + sketches.get(2) + "\"";
                    return line.substring(0, line.lastIndexOf('}')) + ", \"s1\": \"" + (r.get("id").asInt() % 2 == 0 ? sketches.get(0)
                            : sketches.get(1)) + "\", \"s2\": " + s2 + "}";
                }, 1);
    }

    /**
     * approx_count_distinct over 5,000 distinct values of three types, streamed in update mode over two runs of several batches:
     * the window's estimates after the last batch are the ones Spark gives for the same values (approx-distinct.tsv, N = 5000,
     * past linear counting at rsd 0.05 and 0.2), the registers merged across batches.
     */
    @org.junit.jupiter.api.Test
    void approxCountDistinctOfThousandsOfValuesIsSparksEstimateAcrossBatches() throws IOException {
        int count = 5000;
        Map<String, Long> spark = new TreeMap<>(); // column|rsd -> Spark's estimate
        for (String l : lines("aggregate-functions/approx-distinct.tsv")) {
            String[] f = l.split("\t");
            if (f[0].equals(String.valueOf(count))) {
                spark.put(f[1] + "|" + f[2], Long.parseLong(f[3]));
            }
        }
        Map<String, String> select = new java.util.LinkedHashMap<>();
        select.put("s", "approx_count_distinct(user)");
        select.put("n", "approx_count_distinct(id, 0.01)");
        select.put("d", "approx_count_distinct(amt, 0.2)");
        AggregateSpec spec = AggregateSpec.builder().eventTime("ts").watermark(DELAY).window(Duration.ofMinutes(10)).select(select)
                .outputMode(OutputMode.UPDATE).build(AggregationDriver.seedSchema());
        try (AggregationDriver driver = AggregationDriver.of(spec, stateDir)) {
            SparkBatches ingest = new SparkBatches(driver, DELAY);
            List<List<String>> batches = new ArrayList<>();
            for (int from = 0; from < count; from += 700) {
                List<String> rows = new ArrayList<>();
                for (int i = from; i < Math.min(count, from + 700); i++) { // the values of SparkApproxDistinct's row i
                    rows.add("{\"id\": " + i + ", \"user\": \"user-" + i + "x".repeat(i % 40) + "\", \"amt\": " + i / 7.0
                            + ", \"ts\": \"2026-10-06T09:05:00Z\"}");
                }
                batches.add(rows);
            }
            ingest.run(batches.subList(0, 4));
            ingest.run(batches.subList(4, batches.size()));
            Object[] last = null;
            for (AggregationDriver.Output o : driver.drain()) {
                last = o.marker() ? last : o.row();
            }
            assertThat(last).as("the window's row").isNotNull();
            assertThat(List.of(last[1], last[2], last[3])).as("user at 0.05, id at 0.01, amt at 0.2")
                    .containsExactly(spark.get("s|0.05"), spark.get("n|0.01"), spark.get("d|0.2"));
            assertThat(spark.get("s|0.05")).as("an estimate, not the count").isNotEqualTo((long) count);
        }
    }

}
