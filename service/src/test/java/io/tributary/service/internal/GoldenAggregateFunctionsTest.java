package io.tributary.service.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import io.tributary.service.spec.PipelineSpec;
import io.tributary.topology.AggregateSpec;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Spark 4.2's aggregate functions in a windowed streaming aggregation (the repository's golden/aggregate-functions): each query
 * as a pipeline's {@code sql:} has the columns Spark's analysis gave it, in its order, or is refused where Spark refuses it to
 * start; where Tributary refuses what Spark runs, the refusal is the one docs/transform.md lists.
 */
class GoldenAggregateFunctionsTest {
    private static final Schema FILES = Schema.parse("id INT, user STRING, amt DOUBLE, ts TIMESTAMP");
    /** Queries Spark runs and Tributary refuses, by a text of the query, and what the refusal says. */
    private static final Map<String, String> NOT_SUPPORTED = Map.of();

    @TempDir
    Path dir;

    static Stream<Arguments> cases() {
        return lines("aggregate-functions/spark.tsv").stream().map(l -> l.split("\t")).map(f -> Arguments.of(f[0], f[1]));
    }

    private static final java.util.regex.Pattern TIME_ARGUMENT = java.util.regex.Pattern.compile(
            "\\b(stddev|var_pop|skewness|kurtosis|corr|regr_slope|regr_avgx|percentile|median)\\((amt, )?ts\\b|ORDER BY ts\\)");

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void theTableHasTheColumnsSparkGivesOrIsRefusedAsSparkRefuses(String query, String spark) throws IOException {
        String unsupported = NOT_SUPPORTED.keySet().stream().filter(query::contains).findFirst().orElse(null);
        if (spark.startsWith("!") || unsupported != null) {
            Throwable refused = catchThrowable(() -> spec(query));
            assertThat(refused).as("refused: %s", query).isInstanceOf(TributaryException.class);
            if (spark.startsWith("!_LEGACY_ERROR_TEMP_3102")) {
                assertThat(refused).hasMessageContaining("distinct aggregations are not supported on streaming DataFrames/Datasets");
            }
            if (spark.startsWith("!") && (query.contains("listagg(") || query.contains("string_agg("))) { // Spark's condition, named
                String condition = spark.substring(1);
                assertThat(refused).hasMessageContaining(condition.startsWith("WRONG_NUM_ARGS") ? "listagg is not written as Spark takes it"
                        : condition.substring(condition.lastIndexOf('.') + 1));
            }
            if (spark.startsWith("!") && TIME_ARGUMENT.matcher(query).find()) { // a TIMESTAMP Spark casts for sum and avg alone
                assertThat(refused).hasMessageContaining(spark.substring(1));
            }
            if (unsupported != null) {
                assertThat(spark).as("Spark runs it").doesNotStartWith("!");
                assertThat(refused).hasMessageContaining(NOT_SUPPORTED.get(unsupported));
            }
            return;
        }
        assertThat(spec(query).outputSchema().toDdl()).as("Spark's columns (every one nullable in the table)")
                .isEqualTo(spark.replace(" NOT NULL", "").replaceAll(",(?![ \\d])", ", "));
    }

    @Test
    void anAggregateOfAnExpressionInsideAnotherIsComputedOnceFromAColumnTheSourceAdds() throws IOException {
        String group = " FROM source GROUP BY window(ts, '10 minutes'), user";
        AggregateSpec spec = spec("SELECT window(ts, '10 minutes') AS w, user, sum(amt * id) AS t, sum(amt*id) / count(*) AS x,"
                + " round(avg(amt * 1.1), 2) AS r" + group + " HAVING max(amt * 1.1) > 3");
        assertThat(spec.aggregates()).extracting(a -> a.name() + " = " + a.expression()).as("the select list's t, then the hidden ones")
                .containsExactly("t = sum(`_agg_t`)", "_having_0 = max(`_agg_0`)", "_having_1 = count(*)", "_having_2 = avg(`_agg_0`)");
        assertThat(spec.projection()).containsExactly("`w`", "`user`", "`t`", "`t` / `_having_1`", "round(`_having_2`, 2)");
        assertThat(spec.having()).isEqualTo("`_having_0` > 3");
        PipelineSpec pipeline = pipeline("SELECT window(ts, '10 minutes') AS w, user, sum(amt * id) AS t, sum(amt*id) / count(*) AS x,"
                + " round(avg(amt * 1.1), 2) AS r" + group + " HAVING max(amt * 1.1) > 3");
        assertThat(PipelineParts.ingestConfig(pipeline, FILES, null).outputSchema().toDdl())
                .as("each argument computed once by the file source, whatever its spelling").isEqualTo(
                        "id INT, user STRING, amt DOUBLE, ts TIMESTAMP, _agg_t DOUBLE, _agg_0 DOUBLE");
    }

    @Test
    void schemaOfVariantAggReadsEachRowsSchemaOfVariantTheSourceComputes() throws IOException {
        String query = "SELECT window(ts, '10 minutes') AS w, user, schema_of_variant_agg(parse_json(user)) AS s,"
                + " length(schema_of_variant_agg(CAST(amt AS VARIANT))) AS n FROM source GROUP BY window(ts, '10 minutes'), user";
        AggregateSpec spec = spec(query);
        assertThat(spec.aggregates()).extracting(a -> a.name() + " = " + a.expression()).containsExactly(
                "s = schema_of_variant_agg(`_agg_s`)", "_having_0 = schema_of_variant_agg(`_agg_0`)");
        assertThat(spec.outputSchema().toDdl()).isEqualTo("w STRUCT<start: TIMESTAMP, end: TIMESTAMP>, user STRING, s STRING, n INT");
        assertThat(PipelineParts.ingestConfig(pipeline(query), FILES, null).outputSchema().toDdl())
                .as("each VARIANT's schema as text: no topic carries a VARIANT").isEqualTo(
                        "id INT, user STRING, amt DOUBLE, ts TIMESTAMP, _agg_s STRING, _agg_0 STRING");
        assertThat(catchThrowable(() -> PipelineParts.ingestConfig(pipeline(query.replace("parse_json(user)", "user")), FILES, null)))
                .as("a STRING is no VARIANT, as Spark refuses it").isInstanceOf(TributaryException.class)
                .hasMessageContaining("schema_of_variant");
    }

    @Test
    void eitherArgumentOfMaxByAndMinByMayBeAnExpression() throws IOException {
        String query = "SELECT window(ts, '10 minutes') AS w, user, max_by(user, amt * id) AS top, min_by(id * 2, amt) AS low,"
                + " max_by(id, amt * id) - 1 AS x FROM source GROUP BY window(ts, '10 minutes'), user HAVING min_by(amt, id + 1) > 0";
        AggregateSpec spec = spec(query);
        assertThat(spec.aggregates()).extracting(a -> a.name() + " = " + a.expression()).containsExactly(
                "top = max_by(`user`, `_agg2_top`)", "low = min_by(`_agg_low`, `amt`)", "_having_0 = min_by(`amt`, `_agg_0`)",
                "_having_1 = max_by(`id`, `_agg2_top`)");
        assertThat(spec.outputSchema().toDdl()).isEqualTo("w STRUCT<start: TIMESTAMP, end: TIMESTAMP>, user STRING, top STRING, low INT,"
                + " x INT");
        assertThat(PipelineParts.ingestConfig(pipeline(query), FILES, null).outputSchema().toDdl())
                .as("amt * id computed once for both").isEqualTo("id INT, user STRING, amt DOUBLE, ts TIMESTAMP, _agg2_top DOUBLE,"
                        + " _agg_low INT, _agg_0 INT");
    }

    @Test
    void approxCountDistinctsConstantStaysAsWrittenWhileAnExpressionIsComputed() throws IOException {
        String query = "SELECT window(ts, '10 minutes') AS w, user, approx_count_distinct(amt * id, 0.01) AS n,"
                + " approx_count_distinct(user, 1e-1) + regr_count(amt, id * 2) AS m FROM source GROUP BY window(ts, '10 minutes'), user"
                + " HAVING approx_count_distinct(amt, 0.2) > 1";
        AggregateSpec spec = spec(query);
        assertThat(spec.aggregates()).extracting(a -> a.name() + " = " + a.expression()).containsExactly(
                "n = approx_count_distinct(`_agg_n`, 0.01)", "_having_0 = approx_count_distinct(`amt`, 0.2)",
                "_having_1 = approx_count_distinct(`user`, 1e-1)", "_having_2 = regr_count(`amt`, `_agg_0`)");
        assertThat(spec.outputSchema().toDdl()).isEqualTo("w STRUCT<start: TIMESTAMP, end: TIMESTAMP>, user STRING, n BIGINT, m BIGINT");
        assertThat(PipelineParts.ingestConfig(pipeline(query), FILES, null).outputSchema().toDdl())
                .as("the arguments that are expressions, never the constants").isEqualTo(
                        "id INT, user STRING, amt DOUBLE, ts TIMESTAMP, _agg_n DOUBLE, _agg_0 INT");
        assertThat(catchThrowable(() -> spec(query.replace("0.01", "amt")))).isInstanceOf(TributaryException.class)
                .hasMessageContaining("the second argument should be a double literal");
    }

    @Test
    void aTupleSketchReadsItsKeyAndSummaryFromColumnsAndKeepsItsConstantsAsWritten() throws IOException {
        String query = "SELECT window(ts, '10 minutes') AS w, user, tuple_sketch_agg_double(id * 2, amt + 1, 10, 'max') AS t,"
                + " tuple_sketch_estimate_double(tuple_union_agg_integer(CAST(user AS BINARY), 12, 'min')) AS e FROM source"
                + " GROUP BY window(ts, '10 minutes'), user HAVING tuple_sketch_summary_double(tuple_sketch_agg_double(id, amt, 5)) > 0";
        AggregateSpec spec = spec(query);
        assertThat(spec.aggregates()).extracting(a -> a.name() + " = " + a.expression()).containsExactly(
                "t = tuple_sketch_agg_double(`_agg_t`, `_agg2_t`, 10, 'max')", "_having_0 = tuple_sketch_agg_double(`id`, `amt`, 5)",
                "_having_1 = tuple_union_agg_integer(`_agg_0`, 12, 'min')");
        assertThat(spec.outputSchema().toDdl()).isEqualTo("w STRUCT<start: TIMESTAMP, end: TIMESTAMP>, user STRING, t BINARY, e DOUBLE");
        assertThat(PipelineParts.ingestConfig(pipeline(query), FILES, null).outputSchema().toDdl()).as("a column for each expression, none for a constant")
                .isEqualTo("id INT, user STRING, amt DOUBLE, ts TIMESTAMP, _agg_t INT, _agg2_t DOUBLE, _agg_0 BINARY");
    }

    @Test
    void anOrderStatisticReadsAnExpressionFromAColumnAndKeepsItsConstantsAsWritten() throws IOException {
        String query = "SELECT window(ts, '10 minutes') AS w, user, percentile_cont(0.5) WITHIN GROUP (ORDER BY amt * 2 DESC) AS c,"
                + " percentile(id * 2, array(0.1, 0.9), id) AS p, median(amt * id) + 1 AS m, array_join(collect_list(user), ',') AS l"
                + " FROM source GROUP BY window(ts, '10 minutes'), user HAVING mode(amt * 2, true) > 0";
        AggregateSpec spec = spec(query);
        assertThat(spec.aggregates()).extracting(a -> a.name() + " = " + a.expression()).contains(
                "c = percentile_cont(0.5) WITHIN GROUP (ORDER BY `_agg_c` DESC)", "p = percentile(`_agg_p`, array(0.1, 0.9), `id`)");
        assertThat(spec.aggregates()).extracting(a -> a.expression()).as("the HAVING's mode reads amt * 2 from c's column")
                .contains("mode(`_agg_c`, true)");
        assertThat(spec.outputSchema().toDdl()).isEqualTo("w STRUCT<start: TIMESTAMP, end: TIMESTAMP>, user STRING, c DOUBLE,"
                + " p ARRAY<DOUBLE>, m DOUBLE, l STRING");
        assertThat(PipelineParts.ingestConfig(pipeline(query), FILES, null).outputSchema().toDdl()).as("no column for a constant")
                .isEqualTo("id INT, user STRING, amt DOUBLE, ts TIMESTAMP, _agg_c DOUBLE, _agg_p INT, _agg_0 DOUBLE");
    }

    @Test
    void listaggReadsItsValuesAndKeysFromColumnsAndKeepsItsDelimiterAsWritten() throws IOException {
        String query = "SELECT window(ts, '10 minutes') AS w, user, listagg(user, concat('<', '>')) WITHIN GROUP (ORDER BY amt * 2 DESC,"
                + " id) AS l, upper(string_agg(CAST(id AS STRING) || 'x', '-')) AS u FROM source GROUP BY window(ts, '10 minutes'), user"
                + " HAVING listagg(user, ',') WITHIN GROUP (ORDER BY amt * 2 DESC NULLS FIRST) IS NOT NULL";
        AggregateSpec spec = spec(query);
        assertThat(spec.aggregates()).extracting(a -> a.name() + " = " + a.expression()).containsExactly(
                "l = listagg(`user`, concat('<', '>')) WITHIN GROUP (ORDER BY `_agg3_l` DESC NULLS LAST, `id` ASC NULLS FIRST)",
                "_having_0 = listagg(`user`, ',') WITHIN GROUP (ORDER BY `_agg3_l` DESC NULLS FIRST)",
                "_having_1 = string_agg(`_agg_0`, '-')");
        assertThat(spec.outputSchema().toDdl()).isEqualTo("w STRUCT<start: TIMESTAMP, end: TIMESTAMP>, user STRING, l STRING, u STRING");
        assertThat(PipelineParts.ingestConfig(pipeline(query), FILES, null).outputSchema().toDdl()).as("no column for the delimiter")
                .isEqualTo("id INT, user STRING, amt DOUBLE, ts TIMESTAMP, _agg3_l DOUBLE, _agg_0 STRING");
    }

    @Test
    void theBlocksSelectTakesTheSameExpressions() throws IOException {
        Path f = dir.resolve("block.yaml");
        Files.writeString(f, """
                name: t
                source:
                  files:
                    path: in/
                    schema: "id INT, user STRING, amt DOUBLE, ts TIMESTAMP"
                aggregate:
                  eventTime: ts
                  watermark: 5 minutes
                  window: 10 minutes
                  groupBy: [user]
                  select: { x: "sum(amt * id) / count(*)", spread: "max(amt) - min(amt)", ids: "collect_list(id)", sd: "stddev(amt * 2)" }
                outputMode: update
                sink:
                  delta:
                    path: out/
                """);
        PipelineSpec block = PipelineSpec.load(f, Map.of(), Map.of());
        AggregateSpec spec = AggregationParts.aggregateSpec(block, PipelineParts.ingestConfig(block, FILES, null).outputSchema());
        assertThat(spec.outputSchema().toDdl()).isEqualTo("window STRUCT<start: TIMESTAMP, end: TIMESTAMP>, user STRING, x DOUBLE,"
                + " spread DOUBLE, ids ARRAY<INT>, sd DOUBLE");
        assertThat(spec.keyColumns()).containsExactly("window", "user");
        assertThat(PipelineParts.ingestConfig(block, FILES, null).outputSchema().toDdl())
                .isEqualTo("id INT, user STRING, amt DOUBLE, ts TIMESTAMP, _agg_sd DOUBLE, _agg_0 DOUBLE");
    }

    @Test
    void theBlocksSelectAndHavingTakeListagg() throws IOException {
        Path f = dir.resolve("listagg.yaml");
        Files.writeString(f, """
                name: t
                source:
                  files:
                    path: in/
                    schema: "id INT, user STRING, amt DOUBLE, ts TIMESTAMP"
                aggregate:
                  eventTime: ts
                  watermark: 5 minutes
                  window: 10 minutes
                  groupBy: [user]
                  select: { l: "listagg(upper(user), ', ') WITHIN GROUP (ORDER BY amt * 2 DESC NULLS FIRST)", n: "length(string_agg(user))" }
                  having: "listagg(user) IS NOT NULL"
                outputMode: update
                sink:
                  delta:
                    path: out/
                """);
        PipelineSpec block = PipelineSpec.load(f, Map.of(), Map.of());
        AggregateSpec spec = AggregationParts.aggregateSpec(block, PipelineParts.ingestConfig(block, FILES, null).outputSchema());
        assertThat(spec.outputSchema().toDdl()).isEqualTo("window STRUCT<start: TIMESTAMP, end: TIMESTAMP>, user STRING, l STRING, n INT");
        assertThat(spec.aggregates()).extracting(a -> a.name() + " = " + a.expression()).contains(
                "l = listagg(`_agg_l`, ', ') WITHIN GROUP (ORDER BY `_agg3_l` DESC NULLS FIRST)");
        assertThat(PipelineParts.ingestConfig(block, FILES, null).outputSchema().toDdl())
                .isEqualTo("id INT, user STRING, amt DOUBLE, ts TIMESTAMP, _agg_l STRING, _agg3_l DOUBLE");
    }

    @Test
    void theBlocksSelectAndHavingTakeTheRegressionsAndApproxCountDistinct() throws IOException {
        Path f = dir.resolve("regr.yaml");
        Files.writeString(f, """
                name: t
                source:
                  files:
                    path: in/
                    schema: "id INT, user STRING, amt DOUBLE, ts TIMESTAMP"
                aggregate:
                  eventTime: ts
                  watermark: 5 minutes
                  window: 10 minutes
                  groupBy: [user]
                  select: { s: "regr_slope(amt, id * 2)", n: "approx_count_distinct(amt * id, 0.01)", r2: "regr_r2(amt, id) * 100" }
                  having: "approx_count_distinct(user, 0.2) > 0"
                outputMode: update
                sink:
                  delta:
                    path: out/
                """);
        PipelineSpec block = PipelineSpec.load(f, Map.of(), Map.of());
        AggregateSpec spec = AggregationParts.aggregateSpec(block, PipelineParts.ingestConfig(block, FILES, null).outputSchema());
        assertThat(spec.outputSchema().toDdl()).isEqualTo("window STRUCT<start: TIMESTAMP, end: TIMESTAMP>, user STRING, s DOUBLE,"
                + " n BIGINT, r2 DOUBLE");
        assertThat(spec.aggregates()).extracting(a -> a.expression()).containsExactly("regr_slope(amt, `_agg2_s`)",
                "approx_count_distinct(`_agg_n`, 0.01)", "approx_count_distinct(`user`, 0.2)", "regr_r2(`amt`, `id`)");
        assertThat(PipelineParts.ingestConfig(block, FILES, null).outputSchema().toDdl())
                .isEqualTo("id INT, user STRING, amt DOUBLE, ts TIMESTAMP, _agg2_s INT, _agg_n DOUBLE");
    }

    private AggregateSpec spec(String query) throws IOException {
        PipelineSpec spec = pipeline(query);
        return AggregationParts.aggregateSpec(spec, PipelineParts.ingestConfig(spec, FILES, null).outputSchema());
    }

    private PipelineSpec pipeline(String query) throws IOException {
        Path f = dir.resolve("pipeline.yaml");
        Files.writeString(f, """
                name: t
                source:
                  files:
                    path: in/
                    schema: "id INT, user STRING, amt DOUBLE, ts TIMESTAMP"
                sql: "%s"
                aggregate:
                  watermark: 5 minutes
                outputMode: append
                sink:
                  delta:
                    path: out/
                """.formatted(query.replace("\\", "\\\\").replace("\"", "\\\"")));
        return PipelineSpec.load(f, Map.of(), Map.of());
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
