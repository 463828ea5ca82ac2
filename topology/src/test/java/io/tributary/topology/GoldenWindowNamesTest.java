package io.tributary.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.tributary.expressions.SelectItems;
import io.tributary.expressions.SqlQuery;
import io.tributary.schema.TributaryException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The names Spark 4.2 gives a query's window (the repository's golden/window-names: each query and the schema Spark's analysis
 * gave it, or its refusal): each query as {@code sql:} translates it, built over Spark's input, has Spark's columns; a query
 * Spark refuses is refused naming the expression Spark names. The one Spark takes at analysis and refuses when it starts
 * (a session window without a group-by column) is listed with the reason given.
 */
class GoldenWindowNamesTest {
    /** Spark's analysis accepts these; Tributary refuses them at start as Spark does when the query starts. */
    private static final Map<String, String> REFUSED_ON_PURPOSE = Map.of(
            "SELECT session_window(ts, '10 minutes') AS w, count(*) AS n FROM source GROUP BY session_window(ts, '10 minutes')",
            "Spark refuses a global aggregation with session window");

    static Stream<Arguments> cases() throws IOException {
        try (InputStream in = GoldenWindowNamesTest.class.getResourceAsStream("/golden/window-names/spark.tsv")) {
            assertThat(in).as("golden/window-names/spark.tsv").isNotNull();
            List<String> lines = Arrays.stream(new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n"))
                    .filter(l -> !l.isBlank()).toList();
            assertThat(lines).hasSize(30);
            return lines.stream().map(l -> l.split("\t")).map(f -> Arguments.of(f[0], f[1], f.length > 2 ? f[2] : ""));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void theWindowIsNamedAsSparkNamesIt(String query, String spark, String sparkMessage) {
        String onPurpose = REFUSED_ON_PURPOSE.entrySet().stream().filter(e -> query.startsWith(e.getKey())).map(Map.Entry::getValue)
                .findFirst().orElse(null);
        if (spark.startsWith("!") || onPurpose != null) {
            Throwable refused = catchThrowable(() -> spec(query));
            assertThat(refused).as("refused: %s", query).isInstanceOf(TributaryException.class);
            if (onPurpose != null) {
                assertThat(spark).as("Spark takes it").doesNotStartWith("!");
                assertThat(refused.getMessage()).contains(onPurpose);
            } else {
                String named = sparkMessage.replaceAll(".*name `([^`]*)`\\.`([^`]*)`.*", "$1.$2");
                named = named.equals(sparkMessage) ? "session_window(ts, '10 minutes')" : named; // MISSING_AGGREGATION: the window
                assertThat(refused.getMessage()).as("names what Spark names (%s)", sparkMessage).contains(named);
            }
            return;
        }
        assertThat(spec(query).outputSchema().toDdl()).as("Spark's columns (every one nullable in the table)")
                .isEqualTo(spark.replace(" NOT NULL", "").replaceAll(",(?! )", ", "));
    }

    /** The query as {@code sql:} translates it, over Spark's input with a 5-minute watermark, in append mode. */
    private static AggregateSpec spec(String sql) {
        SqlQuery.Aggregation query = SqlQuery.parse(sql).aggregation();
        AggregateSpec.Builder b = AggregateSpec.builder().eventTime(query.eventTime()).watermark(Duration.ofMinutes(5))
                .windowColumn(query.windowColumn()).groupBy(query.groupBy().stream().map(SelectItems::name).toList())
                .select(query.select()).having(query.having() == null ? null : query.having().text()).columns(query.columns())
                .outputMode(OutputMode.APPEND);
        return (query.session() == null ? b.window(Duration.ofMinutes(10)) : b.session(Duration.ofMinutes(10)))
                .build(AggregationDriver.seedSchema());
    }
}
