package io.tributary.topology;

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
    private static final Duration DELAY = Duration.ofMinutes(5);
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path stateDir;

    @ParameterizedTest
    @ValueSource(strings = {"append-stats", "update-collect", "append-moments", "update-moments", "append-by", "update-by", "update-corr", "update-regr",
        "append-approx", "append-percentile", "update-mode", "update-hll", "append-hll", "update-hll-many",
        "append-percentile-approx", "update-vector", "update-listagg", "append-listagg",
        "update-theta", "append-theta", "update-theta-many", "update-percentile-approx-decimal", "update-variant-schema",
        "append-variant-schema"})
    void theFunctionsGiveSparksBatchesAndTable(String name) throws IOException {
        JsonNode c = JSON.readTree(String.join("\n", lines("aggregate-functions/" + name + "/case.json")));
        replay(name, c, c.get("query").asText(), sourceSchema(c), UnaryOperator.identity(), 1);
    }

    /**
     * The aggregates whose state is a whole collection, their rows packed 1,000 to an events record as file-ingest packs them,
     * so that a batch's rows fold into one state held in memory and encoded once at the commit: Spark's rows and table, to the bit.
     */
    @ParameterizedTest
    @ValueSource(strings = {"update-collect", "append-percentile", "update-mode", "update-hll", "append-hll", "update-hll-many",
        "append-percentile-approx", "update-listagg", "append-listagg", "update-theta", "append-theta", "update-theta-many", "update-kll",
        "append-kll", "update-kll-many", "update-percentile-approx-decimal"})
    void theCollectionStatesFoldedInMemoryGiveSparksBatchesAndTable(String name) throws IOException {
        JsonNode c = JSON.readTree(String.join("\n", lines("aggregate-functions/" + name + "/case.json")));
        replay(name, c, c.get("query").asText(), sourceSchema(c), UnaryOperator.identity(), 1000);
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
        replay("update-variant-schema", c, c.get("query").asText(), sourceSchema(c), UnaryOperator.identity(), 1);
    }

    /** A case's source schema: its {@code sourceSchema}, else the seed's. */
    private static io.tributary.schema.Schema sourceSchema(JsonNode c) {
        return c.has("sourceSchema") ? io.tributary.schema.Schema.parse(c.get("sourceSchema").asText()) : AggregationDriver.seedSchema();
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
        replay("update-hll-union", c, query, io.tributary.schema.Schema.parse("id INT, user STRING, amt DOUBLE, ts TIMESTAMP, s1 BINARY,"
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
        replay("update-theta-sets", c, query, io.tributary.schema.Schema.parse("id INT, user STRING, amt DOUBLE, ts TIMESTAMP,"
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
        replay(name, c, c.get("query").asText(), AggregationDriver.seedSchema(), UnaryOperator.identity(), 1);
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
        replay("update-kll-merge", c, query, io.tributary.schema.Schema.parse("id INT, user STRING, amt DOUBLE, ts TIMESTAMP, s1 BINARY,"
                + " s2 BINARY"), line -> { // the query's IF(id % 2 = 0, A, B) as s1 and IF(amt IS NULL, NULL, C) as s2
                    JsonNode r = readJson(line);
                    String s2 = r.get("amt").isNull() ? "null" : "\"" + sketches.get(2) + "\"";
                    return line.substring(0, line.lastIndexOf('}')) + ", \"s1\": \"" + (r.get("id").asInt() % 2 == 0 ? sketches.get(0)
                            : sketches.get(1)) + "\", \"s2\": " + s2 + "}";
                }, 1);
    }

    /** @param rowsPerRecord the rows packed into one events record (file-ingest's source.files.rowsPerRecord) */
    private void replay(String name, JsonNode c, String sql, io.tributary.schema.Schema input, UnaryOperator<String> line,
                        int rowsPerRecord) throws IOException {
        String text = sql;
        String schema = input.toDdl();
        for (Computed computed : COMPUTED.getOrDefault(name, List.of())) {
            text = text.replace(computed.text(), computed.column());
            schema += ", " + computed.column() + " " + computed.type();
        }
        SqlQuery.Aggregation query = SqlQuery.parse(text).aggregation();
        AggregateSpec spec = AggregateSpec.builder().eventTime(query.eventTime()).watermark(DELAY).window(Duration.ofMinutes(10))
                .windowColumn(query.windowColumn()).groupBy(query.groupBy().stream().map(SelectItems::name).toList())
                .select(query.select()).columns(query.columns()).having(query.having() == null ? null : query.having().text())
                .outputMode(OutputMode.parse(c.get("outputMode").asText()))
                .build(io.tributary.schema.Schema.parse(schema));
        assertThat(spec.outputSchema().toDdl()).as("Spark's columns").isEqualTo(c.get("schema").asText());
        List<Integer> sets = new ArrayList<>();
        for (int i = 0; i < spec.outputSchema().size(); i++) {
            if (query.select().getOrDefault(spec.outputSchema().field(i).name(), "").startsWith("collect_set(")) {
                sets.add(i);
            }
        }
        try (AggregationDriver driver = AggregationDriver.packing(spec, stateDir, rowsPerRecord)) {
            SparkBatches ingest = new SparkBatches(driver, DELAY);
            Map<String, String> table = new TreeMap<>(); // window|user -> row
            for (int run = 1; run <= 2; run++) {
                List<String> rows = lines(c.get("input").asText() + "/run" + run + ".json").stream().map(line).toList();
                String batches = ingest.run(List.of(computed(name, rows)));
                List<String> written = new ArrayList<>();
                List<String> pending = new ArrayList<>();
                for (AggregationDriver.Output o : driver.drain()) {
                    if (!o.marker()) {
                        pending.add(sparkRow(o.row(), sets));
                        continue;
                    }
                    long batch = JSON.readTree(o.value()).get("batchId").asLong();
                    for (String row : pending) {
                        written.add("out " + batch + "|" + row);
                        String[] f = row.split("\\|");
                        table.put(f[0] + "|" + f[1], row);
                    }
                    pending.clear();
                }
                List<String> golden = lines("aggregate-functions/" + name + "/after-run" + run + ".txt").stream()
                        .map(l -> sorted(l, sets)).toList();
                String sparkBatches = golden.stream().filter(l -> l.startsWith("batches ")).findFirst().orElseThrow().substring(8);
                assertThat(batches).as("%s run %d batches", name, run).isEqualTo(sparkBatches.replaceAll("@[^,]*", ""));
                if (!c.get("outputMode").asText().equals("complete")) { // complete: every group each batch, the table below
                    assertThat(written).as("%s run %d: each batch's rows", name, run)
                            .containsExactlyInAnyOrderElementsOf(golden.stream().filter(l -> l.startsWith("out ")).toList());
                }
                assertThat(new ArrayList<>(table.values())).as("%s after run %d", name, run)
                        .containsExactlyInAnyOrderElementsOf(golden.stream().filter(l -> l.startsWith("{")).toList());
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
            "update-kll", List.of(new Computed("CAST(id AS DOUBLE) / 4", "_agg_q", "DOUBLE", r -> r.get("id").asInt() / 4.0),
                    new Computed("CAST(amt AS FLOAT)", "_agg_f", "FLOAT", r -> r.get("amt").isNull() ? null : (float) r.get("amt").asDouble())));

    /** The input rows with the case's computed columns. */
    private static List<String> computed(String name, List<String> rows) throws IOException {
        List<Computed> columns = COMPUTED.getOrDefault(name, List.of());
        List<String> out = new ArrayList<>();
        for (String row : rows) {
            com.fasterxml.jackson.databind.node.ObjectNode r = (com.fasterxml.jackson.databind.node.ObjectNode) JSON.readTree(row);
            for (Computed c : columns) {
                r.set(c.column(), JSON.valueToTree(c.value().apply(r)));
            }
            out.add(JSON.writeValueAsString(r));
        }
        return out;
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

    /** A row as Spark's recorder prints it: {@code {start, end}|user|...}, doubles as Java prints them, arrays as {@code ArraySeq(...)}. */
    private static String sparkRow(Object[] row, List<Integer> sets) {
        Object[] w = (Object[]) row[0];
        StringBuilder s = new StringBuilder("{" + ts((Long) w[0]) + ", " + ts((Long) w[1]) + "}");
        for (int i = 1; i < row.length; i++) {
            String v = row[i] instanceof List<?> l ? "ArraySeq(" + l.stream().map(String::valueOf).collect(Collectors.joining(", ")) + ")"
                    : String.valueOf(row[i]);
            s.append('|').append(sets.contains(i) ? sortedArray(v) : v);
        }
        return s.toString();
    }

    /** A golden line with the collect_set columns' elements sorted. */
    private static String sorted(String line, List<Integer> sets) {
        if (sets.isEmpty() || !(line.startsWith("{") || line.startsWith("out "))) {
            return line;
        }
        int shift = line.startsWith("out ") ? 1 : 0;
        String[] f = line.split("\\|", -1);
        for (int i : sets) {
            f[i + shift] = sortedArray(f[i + shift]);
        }
        return String.join("|", f);
    }

    private static String sortedArray(String v) {
        if (!v.startsWith("ArraySeq(") || v.equals("ArraySeq()")) {
            return v;
        }
        return "ArraySeq(" + Arrays.stream(v.substring(9, v.length() - 1).split(", ")).sorted().collect(Collectors.joining(", ")) + ")";
    }

    private static JsonNode readJson(String line) {
        try {
            return JSON.readTree(line);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String ts(long micros) {
        return Timestamps.formatMicros(micros).replace('T', ' ').replace("Z", "");
    }

    private static List<String> lines(String path) {
        try (InputStream in = GoldenAggregateFunctionsTest.class.getResourceAsStream("/golden/" + path)) {
            assertThat(in).as("fixture %s", path).isNotNull();
            return Arrays.stream(new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")).filter(l -> !l.isBlank()).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
