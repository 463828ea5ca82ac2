package io.tributary.expressions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.expressions.SqlQuery.Join;
import io.tributary.expressions.SqlQuery.Part;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code WITH} and subqueries in FROM of a {@code sql:} query, inlined into the query that reads them as Spark's optimizer merges
 * them (golden/sql holds Spark's tables of such queries; these check the translation and its refusals).
 */
class SqlViewsTest {
    @Test
    void aCommonTableExpressionIsInlinedIntoItsReaderWithItsWhereFirst() {
        SqlQuery q = SqlQuery.parse("""
                WITH clean AS (SELECT id, lower(trim(user)) AS user, amt, ts FROM source WHERE amt > 0)
                SELECT c.*, u.segment FROM clean c LEFT JOIN delta.`dims` u ON c.user = u.user WHERE c.user IS NOT NULL""");
        assertThat(q.sourceAlias()).isEqualTo("source");
        assertThat(q.joins()).containsExactly(new Join("dims", "u", "left", new Part("(lower(trim(user))) = u.user", 2, 64)));
        assertThat(q.where()).isEqualTo(new Part("(amt > 0) AND ((lower(trim(user))) IS NOT NULL)", 1, 80));
        assertThat(q.select()).extracting(Part::text).containsExactly("id", "lower(trim(user)) AS user", "amt", "ts", "u.segment");
    }

    @Test
    void aSubqueryInFromNestedTwiceNamesItsColumnsByTheirExpressions() {
        SqlQuery q = SqlQuery.parse("SELECT user, day, amt * 2 AS a2 FROM (SELECT * FROM (SELECT *, to_date(ts) AS day FROM source) a) t"
                + " WHERE day >= DATE'2024-01-01'");
        assertThat(q.where().text()).isEqualTo("(to_date(ts)) >= DATE'2024-01-01'");
        assertThat(q.select()).extracting(Part::text).containsExactly("user", "(to_date(ts)) AS `day`", "amt * 2 AS a2");
    }

    @Test
    void namesALambdaOrALateralViewShadowsAndBackquotedNamesAreRewrittenOnTheParseTree() {
        SqlQuery q = SqlQuery.parse("SELECT transform(tags, amt -> amt + 1) AS t1, `my amt` + 1 AS m, x.amt, 'amt' AS s FROM (SELECT"
                + " tags, amt * 2 AS `my amt`, amt FROM source) t LATERAL VIEW explode(tags) x AS amt");
        assertThat(q.select()).extracting(Part::text).containsExactly("transform(tags, amt -> amt + 1) AS t1", "(amt * 2) + 1 AS m",
                "x.`amt__x` AS `amt`", "'amt' AS s");
        assertThat(q.lateralViews()).extracting(Part::text).containsExactly("LATERAL VIEW explode(tags) x AS `amt__x`");
        SqlQuery v = SqlQuery.parse("SELECT t.`a b`.f AS f FROM (SELECT named_struct('f', id) AS `a b` FROM source) t");
        assertThat(v.select()).extracting(Part::text).containsExactly("(named_struct('f', id)).f AS f");
    }

    @Test
    void severalCommonTableExpressionsEachReadingTheOneBefore() {
        SqlQuery q = SqlQuery.parse("WITH a AS (SELECT id, amt * 2 AS a2 FROM source WHERE id > 1), b AS (SELECT id, a2 + 1 AS a3 FROM a"
                + " WHERE a2 > 0) SELECT * FROM b WHERE a3 < 100");
        assertThat(q.where().text()).isEqualTo("((id > 1) AND ((amt * 2) > 0)) AND (((amt * 2) + 1) < 100)");
        assertThat(q.select()).extracting(Part::text).containsExactly("id", "(amt * 2) + 1 AS a3");
    }

    @Test
    void aViewOfADeltaTableJoinedHasItsFilterInTheJoinsCondition() {
        SqlQuery q = SqlQuery.parse("WITH u AS (SELECT * FROM delta.`dims` d WHERE d.lim > 50 AND segment <> 'tin') SELECT s.id, u.segment"
                + " FROM source s LEFT JOIN u ON s.user = u.user");
        assertThat(q.joins()).singleElement().satisfies(j -> {
            assertThat(j.table()).isEqualTo("dims");
            assertThat(j.alias()).isEqualTo("u");
            assertThat(j.on().text()).isEqualTo("(s.user = u.user) AND (`u`.`lim` > 50 AND `u`.`segment` <> 'tin')");
        });
        SqlQuery cross = SqlQuery.parse("WITH d AS (SELECT * FROM delta.`dims` WHERE lim < 50) SELECT s.id, x.segment FROM source s, d x");
        assertThat(cross.joins().get(0).on().text()).isEqualTo("`x`.`lim` < 50");
    }

    @Test
    void overAnAggregatingViewTheReadersSelectListIsTheColumnsAndItsWhereTheHaving() {
        SqlQuery q = SqlQuery.parse("SELECT window.start, user, n FROM (SELECT window(ts, '10 minutes') AS window, user, count(*) AS n"
                + " FROM source WHERE amt > 0 GROUP BY window(ts, '10 minutes'), user) WHERE n > 2");
        SqlQuery.Aggregation a = q.aggregation();
        assertThat(q.where().text()).isEqualTo("amt > 0");
        assertThat(a.eventTime()).isEqualTo("ts");
        assertThat(a.window()).isEqualTo("10 minutes");
        assertThat(a.groupBy()).containsExactly("`user`");
        assertThat(a.select()).isEqualTo(Map.of("n", "count(*)"));
        assertThat(a.columns()).containsExactly("window.start", "user", "n");
        assertThat(a.having().text()).isEqualTo("n > 2");
    }

    @Test
    void aGroupByOverAViewReadsTheViewsInput() {
        SqlQuery q = SqlQuery.parse("WITH c AS (SELECT ts, lower(user) AS name, amt FROM source) SELECT window(ts, '5 minutes') AS w, name,"
                + " sum(amt) AS total FROM c GROUP BY window(ts, '5 minutes'), name");
        assertThat(q.aggregation().groupBy()).containsExactly("(lower(user)) AS `name`");
        assertThat(q.aggregation().select()).isEqualTo(Map.of("total", "sum(`amt`)"));
        refused("WITH c AS (SELECT to_timestamp(ts) AS t2 FROM source) SELECT window(t2, '5 minutes') AS w, count(*) AS n FROM c GROUP BY"
                + " window(t2, '5 minutes')", "the window's event-time column t2");
    }

    @Test
    void whatCannotBeInlinedIsRefusedByNameAndPlace() {
        refused("WITH x AS (SELECT id FROM source) SELECT * FROM x a JOIN x b ON a.id = b.id", "x read a second time at line 1, column 58");
        refused("WITH x AS (SELECT id FROM source) SELECT * FROM source s JOIN x ON s.id = x.id", "the view x joined at line 1, column 63");
        refused("WITH u AS (SELECT user FROM delta.`t`) SELECT * FROM source s JOIN u ON s.user = u.user",
                "a view of a Delta table other than SELECT * FROM delta.`path` [WHERE condition] at line 1, column 12");
        refused("WITH u AS (SELECT * FROM delta.`t`) SELECT * FROM u", "the view u of a Delta table in FROM at line 1, column 51");
        refused("SELECT amt FROM (SELECT id FROM source) t", "the column `amt`, which the view `t` does not select at line 1, column 8",
                "UNRESOLVED_COLUMN");
        refused("SELECT id FROM (SELECT id, amt AS id FROM source) t", "the column `id`, which the view `t` gives twice", "AMBIGUOUS_REFERENCE");
        assertThat(SqlQuery.parse("SELECT id FROM (SELECT *, id FROM source) t").select().get(0).text()).isEqualTo("id");
        refused("WITH a AS (SELECT id FROM source), A AS (SELECT id FROM source) SELECT * FROM a", "DUPLICATED_CTE_NAMES");
        refused("SELECT * FROM (SELECT * FROM source LIMIT 2) t", "LIMIT in a view, a subquery or a query of UNION ALL at line 1, column 37");
        refused("SELECT w.start FROM (SELECT window(ts, '1 hour') AS w, count(*) AS n FROM source GROUP BY window(ts, '1 hour')) t JOIN"
                + " delta.`d` u ON true", "a join over the view t, which aggregates");
        refused("SELECT *\nFROM (SELECT id FROM source) t JOIN delta.`d` u USING (id)", "USING in a join over the view t at line 2, column 49");
    }

    private static void refused(String sql, String... parts) {
        assertThatThrownBy(() -> SqlQuery.parse(sql)).as(sql).hasMessageContainingAll(parts).hasMessageContaining("is not supported");
    }
}
