package io.tributary.topology;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.expressions.SqlQuery;
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
import java.util.function.UnaryOperator;

/**
 * Replays a case of the repository's golden/aggregate-functions through the topology: the case's query as an aggregation, its two
 * runs played as Spark's batches (none after the last in complete mode, where Spark runs no batch without data), and each batch's
 * rows and the table after each run required to be Spark's, to the bit.
 */
final class GoldenAggregateReplay {
    static final Duration DELAY = Duration.ofMinutes(5);
    private static final ObjectMapper JSON = new ObjectMapper();

    private GoldenAggregateReplay() {
    }

    /** A case's {@code case.json}. */
    static JsonNode golden(String name) throws IOException {
        return JSON.readTree(String.join("\n", lines("aggregate-functions/" + name + "/case.json")));
    }

    /** The case's sketches written {@code X'..'} in its query, base64 as a BINARY column of a JSON row holds them. */
    static List<String> sketches(JsonNode c) {
        java.util.regex.Matcher x = java.util.regex.Pattern.compile("X'([0-9A-F]+)'").matcher(c.get("query").asText());
        List<String> sketches = new ArrayList<>();
        while (x.find()) {
            sketches.add(java.util.Base64.getEncoder().encodeToString(java.util.HexFormat.of().parseHex(x.group(1))));
        }
        return sketches;
    }

    /** A case's source schema: its {@code sourceSchema}, else the seed's. */
    static io.tributary.schema.Schema sourceSchema(JsonNode c) {
        return c.has("sourceSchema") ? io.tributary.schema.Schema.parse(c.get("sourceSchema").asText()) : AggregationDriver.seedSchema();
    }

    /** @param rowsPerRecord the rows packed into one events record (file-ingest's source.files.rowsPerRecord) */
    static void replay(Path stateDir, String name, JsonNode c, String sql, io.tributary.schema.Schema input, UnaryOperator<String> line,
                        int rowsPerRecord) throws IOException {
        String text = sql;
        String schema = input.toDdl();
        for (Computed computed : COMPUTED.getOrDefault(name, List.of())) {
            text = text.replace(computed.text(), computed.column());
            schema += ", " + computed.column() + " " + computed.type();
        }
        SqlQuery.Aggregation query = SqlQuery.parse(text).aggregation();
        AggregateSpec spec = ReplayedRuns.spec(query).watermark(DELAY).window(Duration.ofMinutes(10))
                .outputMode(OutputMode.parse(c.get("outputMode").asText())).build(io.tributary.schema.Schema.parse(schema));
        assertThat(spec.outputSchema().toDdl()).as("Spark's columns").isEqualTo(c.get("schema").asText());
        List<Integer> sets = new ArrayList<>();
        for (int i = 0; i < spec.outputSchema().size(); i++) {
            if (query.select().getOrDefault(spec.outputSchema().field(i).name(), "").startsWith("collect_set(")) {
                sets.add(i);
            }
        }
        try (AggregationDriver driver = AggregationDriver.packing(spec, stateDir, rowsPerRecord)) {
            SparkBatches ingest = new SparkBatches(driver, DELAY);
            // a case Spark ran in update mode, replayed in complete mode: only its table after each run is Spark's
            boolean asComplete = spec.outputMode() == OutputMode.COMPLETE && !golden(name).get("outputMode").asText().equals("complete");
            if (spec.outputMode() == OutputMode.COMPLETE && !asComplete) {
                ingest.withoutNoDataBatches();
            }
            ReplayedRuns runs = new ReplayedRuns(driver, ingest, spec.outputSchema(), sets, 2, false); // window|user -> row
            for (int run = 1; run <= 2; run++) {
                List<String> rows = lines(c.get("input").asText() + "/run" + run + ".json").stream().map(line).toList();
                List<String> golden = ReplayedRuns.sorted(lines("aggregate-functions/" + name + "/after-run" + run + ".txt"), sets);
                String sparkFailed = ReplayedRuns.sparkFailed(golden);
                List<String> computedRows = computed(name, rows);
                ReplayedRuns.Run played = runs.play(() -> computedRows);
                if (sparkFailed != null) { // Spark's query failed in this run: the aggregation stops with Spark's condition
                    assertThat(played.failed()).as("%s run %d fails as Spark's query failed: %s", name, run, sparkFailed)
                            .isInstanceOf(io.tributary.schema.TributaryException.class);
                    assertThat(played.failed().getMessage()).as("%s run %d", name, run)
                            .contains(sparkFailed.substring(sparkFailed.indexOf('['), sparkFailed.indexOf(']') + 1));
                    return;
                }
                if (played.failed() != null) {
                    throw new AssertionError(name + " run " + run + " failed where Spark's query did not", played.failed());
                }
                assertThat(played.batches()).as("%s run %d batches", name, run).isEqualTo(ReplayedRuns.sparkBatches(golden));
                if (!asComplete) {
                    assertThat(played.written()).as("%s run %d: each batch's rows", name, run)
                            .containsExactlyInAnyOrderElementsOf(ReplayedRuns.sparkWritten(golden));
                }
                assertThat(runs.table()).as("%s after run %d", name, run)
                        .containsExactlyInAnyOrderElementsOf(ReplayedRuns.sparkTable(golden));
            }
        }
    }

    /** An aggregate's argument that the service computes into a column ({@code text} in the query), computed here as Spark does. */
    private record Computed(String text, String column, String type, java.util.function.Function<JsonNode, Object> value) {
    }

    /** An argument {@code text} computed as the source computes {@code computed} (the text itself unless given) over {@code schema}. */
    private static Computed sql(String text, String column, String schema, String computed) {
        io.tributary.schema.Schema input = io.tributary.schema.Schema.parse(schema);
        io.tributary.expressions.Expression e = io.tributary.expressions.Expression.compile(input, computed == null ? text : computed);
        io.tributary.schema.RowJson json = new io.tributary.schema.RowJson(input);
        List<String> names = input.fields().stream().map(io.tributary.schema.Field::name).toList();
        return new Computed(text, column, e.type().ddl(), r -> e.eval(json.parse(((com.fasterxml.jackson.databind.node.ObjectNode) r.deepCopy()).retain(names).toString())));
    }

    private static final String SEED = "id INT, user STRING, amt DOUBLE, ts TIMESTAMP";
    private static final String VARIANTS = "id INT, user STRING, js STRING, amt DOUBLE, ts TIMESTAMP";

    private static List<Computed> variantSchemas() {
        return List.of(sql("parse_json(js)", "_agg_a", VARIANTS, "schema_of_variant(parse_json(js))"),
                sql("to_variant_object(named_struct('i', id, 'u', user))", "_agg_c", VARIANTS,
                        "schema_of_variant(to_variant_object(named_struct('i', id, 'u', user)))"),
                sql("CAST(amt AS VARIANT)", "_agg_d", VARIANTS, "schema_of_variant(CAST(amt AS VARIANT))"));
    }

    private static final Map<String, List<Computed>> COMPUTED = Map.of(
            "update-percentile-approx-decimal", List.of(sql("CAST(amt AS DECIMAL(10,2))", "_agg_p", SEED, null),
                    sql("CAST(amt * 3.3 AS DECIMAL(12,4))", "_agg_q", SEED, null), sql("CAST(id / 3 AS DECIMAL(8,5))", "_agg_r", SEED, null),
                    sql("CAST(99999999999999999 - id AS DECIMAL(17,0))", "_agg_s", SEED, null),
                    sql("CAST(amt / 10000 AS DECIMAL(12,6))", "_agg_t", SEED, null)),
            "update-variant-schema", variantSchemas(), "append-variant-schema", variantSchemas(),
            "append-percentile-approx", List.of(new Computed("amt * 2", "_agg_x", "DOUBLE",
                    r -> r.get("amt").isNull() ? null : r.get("amt").asDouble() * 2)),
            "update-vector", List.of(
                    new Computed("array(CAST(amt AS FLOAT), CAST(id / 3 AS FLOAT))", "_agg_s", "ARRAY<FLOAT>",
                            r -> Arrays.asList(r.get("amt").isNull() ? null : (float) r.get("amt").asDouble(), (float) (r.get("id").asInt() / 3.0))),
                    new Computed("array(CAST(amt / 7 AS FLOAT), CAST(id * 0.1 AS FLOAT))", "_agg_a", "ARRAY<FLOAT>",
                            r -> Arrays.asList(r.get("amt").isNull() ? null : (float) (r.get("amt").asDouble() / 7),
                                    new java.math.BigDecimal(r.get("id").asInt()).multiply(new java.math.BigDecimal("0.1")).floatValue()))),
            "update-tuple-casts", List.of(new Computed("to_date(ts)", "_agg_b", "DATE", r -> r.get("ts").asText().substring(0, 10)),
                    sql("id > 4", "_agg_c", SEED, null), sql("CAST(id AS STRING)", "_agg2_c", SEED, null),
                    sql("CAST(id AS BIGINT) * 3", "_agg2_e", SEED, null), sql("CAST(amt AS DECIMAL(10,2))", "_agg2_f", SEED, null),
                    sql("CAST(amt AS DECIMAL(6,2))", "_agg_g", SEED, null), sql("CAST(amt AS FLOAT)", "_agg2_g", SEED, null),
                    sql("array(amt, id * 1.5D)", "_agg_h", SEED, null)),
            "update-tuple-string", List.of(sql("IF(id > 8, user, NULL)", "_agg_a", SEED, null)),
            "update-moments-casts", List.of(sql("CAST(amt AS STRING)", "_agg_s", SEED, null), sql("CAST(id AS STRING)", "_agg_k", SEED, null)),
            "update-percentile-casts", List.of(sql("CAST(amt AS STRING)", "_agg_p", SEED, null), sql("CAST(id AS STRING)", "_agg_m", SEED, null)),
            "update-kll", List.of(new Computed("CAST(id AS DOUBLE) / 4", "_agg_q", "DOUBLE", r -> r.get("id").asInt() / 4.0),
                    new Computed("CAST(amt AS FLOAT)", "_agg_f", "FLOAT", r -> r.get("amt").isNull() ? null : (float) r.get("amt").asDouble())));

    /** The input rows with the case's computed columns. */
    private static List<String> computed(String name, List<String> rows) {
        List<Computed> columns = COMPUTED.getOrDefault(name, List.of());
        List<String> out = new ArrayList<>();
        for (String row : rows) {
            com.fasterxml.jackson.databind.node.ObjectNode r = (com.fasterxml.jackson.databind.node.ObjectNode) readJson(row);
            for (Computed c : columns) {
                r.set(c.column(), JSON.valueToTree(c.value().apply(r)));
            }
            try {
                out.add(JSON.writeValueAsString(r));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return out;
    }

    static JsonNode readJson(String line) {
        try {
            return JSON.readTree(line);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<String> lines(String path) {
        try (InputStream in = GoldenAggregateFunctionsTest.class.getResourceAsStream("/golden/" + path)) {
            assertThat(in).as("fixture %s", path).isNotNull();
            return Arrays.stream(new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")).filter(l -> !l.isBlank()).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
