package io.tributary.topology;

import static io.tributary.topology.GoldenAggregateReplay.lines;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.expressions.SqlQuery;
import io.tributary.schema.TributaryException;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Spark 4.2's select list after a windowed aggregation (the repository's golden/aggregate-select): each query as {@code sql:}
 * translates it has the columns Spark's analysis gave it, in its order, or is refused where Spark refuses it; the case
 * {@code append-avg} (expressions over aggregates and a group column, over two runs) writes Spark's rows.
 */
class GoldenAggregateSelectTest {
    private static final Duration DELAY = Duration.ofMinutes(5);
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path stateDir;

    static Stream<Arguments> cases() {
        return lines("aggregate-select/spark.tsv").stream().map(l -> l.split("\t")).map(f -> Arguments.of(f[0], f[1]));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void theTableHasTheColumnsSparksSelectListGives(String query, String spark) {
        if (spark.startsWith("!")) {
            assertThat(catchThrowable(() -> spec(query, OutputMode.APPEND))).as("refused as Spark refuses it: %s", query)
                    .isInstanceOf(TributaryException.class);
            return;
        }
        assertThat(spec(query, OutputMode.APPEND).outputSchema().toDdl()).as("Spark's columns (every one nullable in the table)")
                .isEqualTo(spark.replace(" NOT NULL", "").replaceAll(",(?![ \\d])", ", ")); // DECIMAL(23,1) as written
    }

    @Test
    void expressionsOverAggregatesWriteSparksRows() throws IOException {
        assertThat(writesSparksRows("append-avg").outputSchema().toDdl())
                .isEqualTo("window STRUCT<start: TIMESTAMP, end: TIMESTAMP>, u STRING, a DOUBLE, spread DOUBLE");
    }

    /** {@code append-view}: a WHERE over a subquery in FROM that aggregates filters the aggregation's rows, as Spark's HAVING. */
    @Test
    void aWhereOverAnAggregatingSubqueryWritesSparksRows() throws IOException {
        writesSparksRows("append-view");
    }

    /**
     * Case {@code name} of golden/aggregate-select over the two runs of windows/case-late-two-runs: Spark's columns
     * ({@code case.json}'s {@code schema}) and Spark's table after each run.
     */
    private AggregateSpec writesSparksRows(String name) throws IOException {
        JsonNode c = JSON.readTree(String.join("\n", lines("aggregate-select/" + name + "/case.json")));
        AggregateSpec spec = spec(c.get("query").asText(), OutputMode.APPEND);
        assertThat(spec.outputSchema().toDdl()).isEqualTo(c.get("schema").asText());
        try (AggregationDriver driver = AggregationDriver.of(spec, stateDir)) {
            SparkBatches ingest = new SparkBatches(driver, DELAY);
            List<String> table = new ArrayList<>();
            for (int run = 1; run <= 2; run++) {
                ingest.run(List.of(lines("windows/case-late-two-runs/run" + run + ".json")));
                driver.drain().stream().filter(o -> !o.marker()).forEach(o -> table.add(o.line()));
                List<String> golden = lines("aggregate-select/" + name + "/after-run" + run + ".txt");
                assertThat(table).as("%s after run %d", name, run).containsExactlyInAnyOrderElementsOf(
                        golden.stream().filter(l -> l.startsWith("{")).toList());
            }
        }
        return spec;
    }

    @Test
    void aColumnThatFailsOnAGroupStopsTheAggregationNamingItAndTheGroup() throws IOException {
        AggregateSpec spec = spec("SELECT window(ts, '10 minutes') AS window, user, 10 / (count(*) - 1) AS x FROM source"
                + " GROUP BY window(ts, '10 minutes'), user", OutputMode.APPEND);
        try (AggregationDriver driver = AggregationDriver.of(spec, stateDir)) {
            SparkBatches ingest = new SparkBatches(driver, DELAY);
            ingest.run(List.of(lines("windows/case-902/run1.json")));
            driver.drain();
            Throwable failed = catchThrowable(() -> ingest.run(List.of(lines("windows/case-902/run2.json"))));
            while (failed != null && !(failed instanceof TributaryException)) { // Kafka Streams wraps what the processor threw
                failed = failed.getCause();
            }
            assertThat(failed).as("a window of one row closes: the aggregation stops, as Spark fails the query").isNotNull();
            assertThat(failed.getMessage()).startsWith("aggregate.columns \"10 / (count(*) - 1)\" failed on the group window"
                    + " {2026-10-05T07:00:00Z, 2026-10-05T07:10:00Z}, user a, count(*) 1: DIVIDE_BY_ZERO");
            assertThat(driver.drain()).as("no row written").noneMatch(o -> !o.marker());
        }
    }

    @Test
    void updateModeKeysTheTableByTheColumnsThatHoldTheGroup() {
        String group = " FROM source GROUP BY window(ts, '10 minutes'), user";
        AggregateSpec moved = spec("SELECT user, sum(amt) / count(*) AS a, window(ts, '10 minutes') AS w" + group, OutputMode.UPDATE);
        assertThat(moved.keyColumns()).containsExactly("w", "user");
        assertThat(moved.outputSchema().toDdl()).isEqualTo("user STRING, a DOUBLE, w STRUCT<start: TIMESTAMP, end: TIMESTAMP>");
        AggregateSpec renamed = AggregateSpec.builder().eventTime("ts").watermark(DELAY).window(Duration.ofMinutes(10)).groupBy("user")
                .columns(List.of("window AS w", "user AS who", "sum(amt) / count(*) AS a")).outputMode(OutputMode.UPDATE)
                .build(AggregationDriver.seedSchema());
        assertThat(renamed.keyColumns()).as("the columns that hold the window and the group, by their names").containsExactly("w", "who");
        assertThat(moved.aggregates()).as("the aggregates only the expression reads, computed and not written")
                .extracting(Aggregate::expression).containsExactly("sum(`amt`)", "count(*)");
        assertThat(catchThrowable(() -> spec("SELECT window(ts, '10 minutes') AS w, sum(amt) AS t" + group, OutputMode.UPDATE)))
                .hasMessageContaining("outputMode update: the select list does not have the column 'user'")
                .hasMessageContaining("upserted by the window and the group-by columns");
        assertThat(catchThrowable(() -> spec("SELECT window.start AS s, user, sum(amt) AS t" + group, OutputMode.COMPLETE)))
                .hasMessageContaining("outputMode complete: the select list does not have the column 'window'");
        assertThat(spec("SELECT user, sum(amt) AS t" + group, OutputMode.APPEND).keyColumns()).as("append mode writes rows").isNull();
    }

    @Test
    void havingAndTheSelectListShareAHiddenAggregate() {
        AggregateSpec spec = spec("SELECT window(ts, '10 minutes'), user, sum(amt) / count(*) AS a FROM source"
                + " GROUP BY window(ts, '10 minutes'), user HAVING count(*) >= 2", OutputMode.APPEND);
        assertThat(spec.aggregates()).extracting(Aggregate::expression).containsExactly("count(*)", "sum(`amt`)");
        assertThat(spec.outputSchema().toDdl()).isEqualTo("window STRUCT<start: TIMESTAMP, end: TIMESTAMP>, user STRING, a DOUBLE");
    }

    @Test
    void theBlocksSelectTakesExpressionsOverItsAggregates() {
        AggregateSpec spec = AggregateSpec.builder().eventTime("ts").watermark(DELAY).window(Duration.ofMinutes(10)).groupBy("user")
                .select("t", "sum(amt)").select("avg", "t / count(*)").select("r", "round(avg(amt), 1)").outputMode(OutputMode.UPDATE)
                .build(AggregationDriver.seedSchema());
        assertThat(spec.outputSchema().toDdl()).as("the block's order: the window, the groups, then select")
                .isEqualTo("window STRUCT<start: TIMESTAMP, end: TIMESTAMP>, user STRING, t DOUBLE, avg DOUBLE, r DOUBLE");
        assertThat(spec.keyColumns()).containsExactly("window", "user");
        assertThat(spec.projection()).containsExactly("`window`", "`user`", "`t`", "t / `_having_0`", "round(`_having_1`, 1)");
    }

    /** The query as {@code sql:} translates it, over Spark's input with a 5-minute watermark. */
    private static AggregateSpec spec(String sql, OutputMode mode) {
        SqlQuery.Aggregation query = SqlQuery.parse(sql).aggregation();
        AggregateSpec.Builder b = ReplayedRuns.spec(query).watermark(DELAY).outputMode(mode);
        return (query.session() == null ? b.window(Duration.ofMinutes(10)) : b.session(Duration.ofMinutes(10)))
                .build(AggregationDriver.seedSchema());
    }
}
