package io.tributary.service.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import io.tributary.service.spec.PipelineSpec;
import io.tributary.topology.AggregateSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A {@code sql:} query with GROUP BY over a window: the same aggregation, and rows into the events topic, as the aggregate: block. */
class SqlGroupByTest {
    private static final Schema FILES = Schema.parse("id INT, user STRING, amt DOUBLE, qty INT, ts TIMESTAMP");
    private static final String HEAD = """
            name: t
            source:
              files:
                path: in/
                schema: "id INT, user STRING, amt DOUBLE, qty INT, ts TIMESTAMP"
            """;
    private static final String TAIL = "outputMode: append\nsink:\n  delta:\n    path: out/\n";

    @TempDir
    Path dir;

    private PipelineSpec spec(String body) throws IOException {
        Path f = dir.resolve("pipeline.yaml");
        Files.writeString(f, HEAD + body + TAIL);
        return PipelineSpec.load(f, Map.of(), Map.of());
    }

    private static String described(PipelineSpec spec) {
        AggregateSpec a = AggregationParts.aggregateSpec(spec, PipelineParts.ingestConfig(spec, FILES, null).outputSchema());
        return a + " -> " + a.outputSchema().toDdl();
    }

    @Test
    void aWindowedGroupByIsTheAggregateBlock() throws IOException {
        PipelineSpec block = spec("""
                transform:
                  where: "amt > 0"
                aggregate:
                  eventTime: ts
                  watermark: 5 minutes
                  window: 10 minutes
                  groupBy: [user, "lower(user) AS lu"]
                  select: { t: "sum(amt * qty)", n: "count(*)", big: "count_if(amt > 100)" }
                """);
        PipelineSpec query = spec("""
                sql: |
                  SELECT window(s.ts, '10 minutes') AS window, s.user, lower(user) AS lu,
                         sum(amt * qty) AS t, count(*) AS n, count_if(amt > 100) AS big
                  FROM source s
                  WHERE s.amt > 0
                  GROUP BY window(ts, '10 minutes'), user, lower(user)
                aggregate:
                  watermark: 5 minutes
                """);
        assertThat(described(query)).isEqualTo(described(block));
        assertThat(PipelineParts.ingestConfig(query, FILES, null).outputSchema())
                .isEqualTo(PipelineParts.ingestConfig(block, FILES, null).outputSchema());
        assertThat(PipelineParts.ingestConfig(query, FILES, null).outputSchema().toDdl()).as("the events topic's rows: the input's and the"
                + " computed columns").isEqualTo("id INT, user STRING, amt DOUBLE, qty INT, ts TIMESTAMP, lu STRING, _agg_t DOUBLE, _agg_big BOOLEAN");
        assertThat(query.origin("aggregate.window")).endsWith("line 6 (sql: GROUP BY at line 5, column 1 of the query)");
    }

    @Test
    void aSessionWindowAndASlidingWindow() throws IOException {
        PipelineSpec sessions = spec("""
                sql: "SELECT session_window(ts, '30 minutes'), user, max(amt) AS m FROM source GROUP BY user, session_window(ts, '30 minutes')"
                aggregate:
                  watermark: 10 minutes
                """);
        assertThat(AggregationParts.aggregateSpec(sessions, FILES).outputSchema().toDdl()).startsWith("session_window STRUCT<start: TIMESTAMP");
        assertThat(AggregationParts.aggregateSpec(sessions, FILES).session()).hasMinutes(30);
        PipelineSpec sliding = spec("""
                sql: "SELECT window(ts, '10 minutes', '5 minutes'), sum(amt) AS t FROM source GROUP BY window(ts, '10 minutes', '5 minutes')"
                aggregate:
                  watermark: 10 minutes
                """);
        assertThat(AggregationParts.aggregateSpec(sliding, FILES).slide()).hasMinutes(5);
    }

    @Test
    void aWindowsAliasNamesItsColumnInTheQueryAndInTheBlock() throws IOException {
        PipelineSpec query = spec("""
                sql: |
                  SELECT session_window(ts, '30 minutes') AS window, user, count(*) AS n FROM source
                  GROUP BY window, user HAVING session_window.end > TIMESTAMP '2026-01-01 10:00:00'
                aggregate:
                  watermark: 10 minutes
                """);
        PipelineSpec block = spec("""
                aggregate:
                  eventTime: ts
                  watermark: 10 minutes
                  session: 30 minutes
                  windowColumn: window
                  groupBy: [user]
                  select: { n: count(*) }
                  having: "session_window.end > TIMESTAMP '2026-01-01 10:00:00'"
                """);
        assertThat(described(query)).isEqualTo(described(block))
                .endsWith("-> window STRUCT<start: TIMESTAMP, end: TIMESTAMP>, user STRING, n BIGINT");
        assertThat(AggregationParts.aggregateSpec(query, FILES).windowColumn()).isEqualTo("window");
        assertThatThrownBy(() -> spec("""
                sql: "SELECT window(ts, '1 hour') AS w, sum(amt) AS t FROM source GROUP BY window(ts, '1 hour')"
                aggregate:
                  watermark: 10 minutes
                  windowColumn: x
                """)).isInstanceOf(TributaryException.class).hasMessageContaining("key 'aggregate.windowColumn' and the query of sql");
    }

    @Test
    void withoutAWatermarkOrWithTheBlocksOwnKeysItIsRefusedNamingThem() {
        assertThatThrownBy(() -> spec("sql: \"SELECT window(ts, '1 hour'), sum(amt) AS t FROM source GROUP BY window(ts, '1 hour')\"\n"))
                .isInstanceOf(TributaryException.class).hasMessageContaining("pipeline.yaml line 6: sql: the GROUP BY at line 1, column 56")
                .hasMessageContaining("aggregate.watermark: 10 minutes");
        assertThatThrownBy(() -> spec("""
                sql: "SELECT window(ts, '1 hour'), sum(amt) AS t FROM source GROUP BY window(ts, '1 hour')"
                aggregate:
                  watermark: 10 minutes
                  select: { n: count(*) }
                """)).isInstanceOf(TributaryException.class).hasMessageContaining("line 9: key 'aggregate.select.n' and the query of sql");
    }

    @Test
    void havingIsAggregateHavingAndKeepsItsHiddenAggregateOutOfTheTable() throws IOException {
        PipelineSpec block = spec("""
                aggregate:
                  eventTime: ts
                  watermark: 5 minutes
                  window: 10 minutes
                  groupBy: [user]
                  select: { t: "sum(amt * qty)" }
                  having: "sum(amt * qty) > 10 AND count(*) >= 2"
                """);
        PipelineSpec query = spec("""
                sql: |
                  SELECT window(s.ts, '10 minutes') AS window, s.user, sum(amt * qty) AS t
                  FROM source s
                  GROUP BY window(ts, '10 minutes'), user
                  HAVING sum(s.amt * s.qty) > 10 AND count(*) >= 2
                aggregate:
                  watermark: 5 minutes
                """);
        assertThat(described(query)).isEqualTo(described(block))
                .contains("having `t` > 10 AND `_having_0` >= 2").endsWith("-> window STRUCT<start: TIMESTAMP, end: TIMESTAMP>, user STRING, t DOUBLE");
        assertThat(query.origin("aggregate.having")).endsWith("line 6 (sql: HAVING at line 4, column 8 of the query)");
    }

    @Test
    void aHavingOverAColumnTheTableHasNotOrThatIsNotABooleanIsRefusedAtItsLine() throws IOException {
        PipelineSpec unknown = spec("""
                sql: |
                  SELECT window(ts, '10 minutes') AS window, user, sum(amt) AS t FROM source
                  GROUP BY window(ts, '10 minutes'), user
                  HAVING amt > 1
                aggregate:
                  watermark: 5 minutes
                """);
        assertThatThrownBy(() -> described(unknown)).isInstanceOf(TributaryException.class)
                .hasMessageContaining("pipeline.yaml line 6 (sql: HAVING at line 3, column 8 of the query): aggregate.having: expression \"amt > 1\"")
                .hasMessageContaining("no column 'amt'");
        PipelineSpec notBoolean = spec("""
                aggregate:
                  eventTime: ts
                  watermark: 5 minutes
                  window: 10 minutes
                  select: { t: "sum(amt)" }
                  having: "t * 2"
                """);
        assertThatThrownBy(() -> described(notBoolean)).isInstanceOf(TributaryException.class)
                .hasMessageContaining("pipeline.yaml line 11: aggregate.having: \"t * 2\" is a DOUBLE, not a BOOLEAN");
    }
}
