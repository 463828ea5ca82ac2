package io.tributary.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.schema.Schema;
import io.tributary.settings.Values;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code sql:} as the ingest takes it: the same joins, where and select as the transform block, one evaluator, refusals placed in the query. */
class SqlTransformTest {
    static final Schema STREAM = Schema.parse("id INT, user STRING, amt DOUBLE");
    static final List<Object[]> ROWS = List.of(new Object[] {1, "ann", 5.0}, new Object[] {2, "cy", 1.0}, new Object[] {3, "ann", -1.0},
            new Object[] {4, null, 2.0});

    private static Values sql(String query) {
        return Values.localized(List.of(TransformSettings.SQL, TransformSettings.JOIN_MAX_ROWS), s -> s, Map.of("sql", query)::get,
                (s, t, e) -> e);
    }

    private static IngestConfig bySql(String query, StaticTable table) {
        return IngestConfig.builder("p", Path.of("in"), STREAM).transform(sql(query)).staticTables(location -> table).build();
    }

    /** Each row joined, then where and select: the rows the ingest publishes. */
    private static List<String> published(IngestConfig config) {
        Joins joins = config.joins();
        joins.refresh();
        List<String> out = new ArrayList<>();
        for (Object[] row : ROWS) {
            for (Object[] joined : joins.apply(row)) {
                Object[] o = config.transform().apply(joined);
                if (o != null) {
                    out.add(Arrays.toString(o));
                }
            }
        }
        return out;
    }

    @Test
    void aQueryPublishesTheRowsOfTheSameTransformBlock() {
        JoinSpecsTest.MemoryTable table = new JoinSpecsTest.MemoryTable();
        IngestConfig query = bySql("SELECT s.id, upper(s.user) AS user, u.segment\n"
                + "FROM source s LEFT JOIN delta.`users` u ON s.user = u.name\nWHERE s.amt > 0", table);
        IngestConfig block = IngestConfig.builder("p", Path.of("in"), STREAM)
                .joins(List.of(new JoinSpec("users", "u", "user = u.name", "left", "transform.join.0")), 1_000_000)
                .transform("amt > 0", List.of("id", "upper(user) AS user", "u.segment"))
                .staticTables(location -> table).build();

        assertThat(query.outputSchema().toDdl()).isEqualTo("id INT, user STRING, segment STRING").isEqualTo(block.outputSchema().toDdl());
        assertThat(published(query)).containsExactly("[1, ANN, gold]", "[2, CY, null]", "[4, null, null]")
                .isEqualTo(published(block));
    }

    @Test
    void starIsEveryColumnAndTheStreamsStarItsOwn() {
        JoinSpecsTest.MemoryTable table = new JoinSpecsTest.MemoryTable();
        assertThat(bySql("SELECT * FROM source s JOIN delta.`users` u ON s.user = u.name", table).outputSchema().toDdl())
                .isEqualTo("id INT, user STRING, amt DOUBLE, name STRING, segment STRING");
        assertThat(bySql("SELECT s.*, u.segment FROM source s JOIN delta.`users` u ON s.user = u.name", table).outputSchema().toDdl())
                .isEqualTo("id INT, user STRING, amt DOUBLE, segment STRING");
        IngestConfig anti = bySql("SELECT * FROM source LEFT ANTI JOIN delta.`users` u ON user = u.name WHERE amt > 0", table);
        assertThat(published(anti)).containsExactly("[2, cy, 1.0]", "[4, null, 2.0]");
        assertThat(bySql("SELECT source.amt FROM source", table).outputSchema().toDdl()).isEqualTo("amt DOUBLE");
    }

    @Test
    void aTableFunctionReadsTheJoinedTablesColumns() {
        JoinSpecsTest.MemoryTable table = new JoinSpecsTest.MemoryTable();
        IngestConfig comma = bySql("SELECT s.id, u.segment, t.c FROM source s JOIN delta.`users` u ON s.user = u.name,"
                + " LATERAL explode(array(s.user, u.segment)) t(c) WHERE t.c <> 'ann'", table);
        IngestConfig joined = bySql("SELECT s.id, u.segment, t.c FROM source s JOIN delta.`users` u ON s.user = u.name"
                + " JOIN LATERAL explode(array(s.user, u.segment)) AS t(c) ON t.c <> 'ann'", table);

        assertThat(comma.outputSchema().toDdl()).isEqualTo("id INT, segment STRING, c STRING").isEqualTo(joined.outputSchema().toDdl());
        assertThat(generated(comma)).containsExactly("[1, gold, gold]", "[3, gold, gold]").isEqualTo(generated(joined));
        assertThatThrownBy(() -> bySql("SELECT * FROM source s JOIN LATERAL explode(array(s.user)) t JOIN delta.`users` u"
                + " ON t.col = u.name", table)).hasMessageContaining("a join of a Delta table after a table function");
    }

    @Test
    void twoTableFunctionsColumnsOfOneNameAreToldApartByTheirAliases() {
        JoinSpecsTest.MemoryTable table = new JoinSpecsTest.MemoryTable();
        IngestConfig c = bySql("SELECT s.id, t.col AS a, c.col AS b FROM source s, LATERAL explode(array(s.user)) t,"
                + " LATERAL explode(array(s.id, 0)) c WHERE s.id = 1", table);
        assertThat(c.outputSchema().toDdl()).isEqualTo("id INT, a STRING, b INT");
        assertThat(generated(c)).containsExactly("[1, ann, 1]", "[1, ann, 0]");
        assertThatThrownBy(() -> bySql("SELECT * FROM source s, LATERAL explode(array(s.user)) t, LATERAL explode(array(s.id)) c", table))
                .hasMessageContaining("makes column 'col' twice");
    }

    /** As {@link #published}, each joined row making the rows of the transform's table functions. */
    private static List<String> generated(IngestConfig config) {
        Joins joins = config.joins();
        joins.refresh();
        List<String> out = new ArrayList<>();
        for (Object[] row : ROWS) {
            for (Object[] joined : joins.apply(row)) {
                config.transform().rows(joined).forEach(o -> out.add(Arrays.toString(o)));
            }
        }
        return out;
    }

    @Test
    void theAggregationsComputedColumnsFollowTheQuerysSelectList() {
        IngestConfig c = IngestConfig.builder("p", Path.of("in"), STREAM).transform(sql("SELECT s.id, upper(s.user) AS u FROM source s"))
                .alsoSelect(List.of("amt * 2 AS `_agg_t`"), "aggregate.select").build();
        assertThat(c.outputSchema().toDdl()).isEqualTo("id INT, u STRING, _agg_t DOUBLE");
        assertThat(c.transform().apply(new Object[] {1, "ann", 5.0})).containsExactly(1, "ANN", 10.0);
    }

    @Test
    void aRefusalNamesItsPlaceInTheQuery() {
        JoinSpecsTest.MemoryTable table = new JoinSpecsTest.MemoryTable();
        assertThatThrownBy(() -> bySql("SELECT s.id\nFROM source s\nWHERE s.amt > 0 AND s.usr IS NOT NULL", table))
                .hasMessageStartingWith("sql (WHERE at line 3, column 7 of the query): expression \"s.amt > 0 AND s.usr IS NOT NULL\"")
                .hasMessageContaining("no column 'usr'");
        assertThatThrownBy(() -> bySql("SELECT s.id, nosuch(s.user) AS x FROM source s", table))
                .hasMessageStartingWith("sql (SELECT at line 1, column 8 of the query): expression \"nosuch(s.user) AS x\"");
        assertThatThrownBy(() -> bySql("SELECT * FROM source s JOIN delta.`users` u\n  ON s.user = u.nam", table))
                .hasMessageStartingWith("sql (the join of delta.`users`, ON at line 2, column 6 of the query): expression \"s.user = u.nam\"");
        assertThatThrownBy(() -> bySql("SELECT * FROM source s ORDER BY id", table))
                .hasMessageStartingWith("sql: ORDER BY at line 1, column 24 of the query is not supported");
        JoinSpecsTest.MemoryTable none = new JoinSpecsTest.MemoryTable();
        none.version = -1;
        assertThatThrownBy(() -> bySql("SELECT * FROM source s JOIN delta.`nowhere` u ON s.user = u.name", none))
                .hasMessageStartingWith("sql (the join of delta.`nowhere`, ON at line 1, column 50 of the query): there is no Delta table at 'nowhere'");
    }

    @Test
    void aUnionAllPublishesEachQuerysRowsInTheQueriesOrderInTheWiderTypes() {
        JoinSpecsTest.MemoryTable table = new JoinSpecsTest.MemoryTable();
        IngestConfig union = bySql("SELECT id, 'big' AS size FROM source WHERE amt > 1\nUNION ALL\n(SELECT amt, u.segment FROM source s"
                + " JOIN delta.`users` u ON s.user = u.name)", table);
        assertThat(union.outputSchema().toDdl()).isEqualTo("id DOUBLE, size STRING");
        union.joins().refresh();
        assertThat(union.joins().unionAll()).hasSize(1);
        List<String> out = new ArrayList<>();
        for (Object[] row : ROWS) {
            union.transform().rows(row).forEach(o -> out.add(Arrays.toString(o)));
            for (UnionBranch b : union.joins().unionAll()) {
                b.joins().apply(row).forEach(j -> b.transform().rows(j).forEach(o -> out.add(Arrays.toString(o))));
            }
        }
        assertThat(out).containsExactly("[1.0, big]", "[5.0, gold]", "[-1.0, gold]", "[4.0, big]");
    }

    @Test
    void aUnionAllWhoseQueriesDoNotMeetIsRefusedNamingTheQueryAndSparksErrorClass() {
        JoinSpecsTest.MemoryTable table = new JoinSpecsTest.MemoryTable();
        assertThatThrownBy(() -> bySql("SELECT id, user FROM source\nUNION ALL SELECT id FROM source", table))
                .hasMessageContainingAll("sql (UNION ALL at line 2, column 1 of the query): [NUM_COLUMNS_MISMATCH]",
                        "query 2 has 1 and the first query 2");
        assertThatThrownBy(() -> bySql("SELECT amt AS x FROM source UNION ALL SELECT id = 1 AS b FROM source", table))
                .hasMessageContainingAll("sql (UNION ALL at line 1, column 29 of the query): [INCOMPATIBLE_COLUMN_TYPE]",
                        "column 1 (b) of query 2 is BOOLEAN, which does not meet DOUBLE");
        assertThatThrownBy(() -> bySql("SELECT id FROM source UNION ALL SELECT nope FROM source", table))
                .hasMessageContainingAll("SELECT at line 1, column 40 of the query", "nope");
    }

    @Test
    void limitIsRefusedWhereNoCountIsKeptWithTheProgress() {
        IngestConfig limited = bySql("SELECT id FROM source WHERE amt > 0\nLIMIT 2", new JoinSpecsTest.MemoryTable());
        assertThat(limited.limit()).isEqualTo(2);
        assertThat(bySql("SELECT id FROM source", new JoinSpecsTest.MemoryTable()).limit()).isEqualTo(-1);
        assertThatThrownBy(() -> RowTransforms.compile(sql("SELECT id FROM source WHERE amt > 0\nLIMIT 2"), STREAM, location -> null))
                .hasMessageStartingWith("LIMIT 2 at line 2, column 1 of the query is not supported") // a spec frames it: sql: ...
                .hasMessageContaining("a Delta table or a Kafka topic");
        assertThatThrownBy(() -> new InputFiles(limited))
                .hasMessageStartingWith("sql: LIMIT 2 is not supported by the Kafka Connect source connector").hasMessageContaining("tributary run");
    }
}
