package io.tributary.expressions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.expressions.SqlQuery.Join;
import io.tributary.expressions.SqlQuery.Part;
import io.tributary.schema.Schema;
import java.util.Arrays;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A {@code sql:} query translated into the transform it stands for, and what it cannot express refused by name and place. */
class SqlQueryTest {
    static final Schema STREAM = Schema.parse("id INT, user STRING, amt DOUBLE, ts TIMESTAMP");

    @Test
    void theQueryBecomesItsJoinsItsWhereAndItsSelectList() {
        SqlQuery q = SqlQuery.parse("""
                SELECT s.*, lower(trim(s.user)) AS name, to_date(s.ts) day, u.segment
                FROM source s LEFT JOIN delta.`../dims/users` u ON s.user = u.user
                WHERE s.amt > 0 AND s.user IS NOT NULL
                """);
        assertThat(q.sourceAlias()).isEqualTo("s");
        assertThat(q.joins()).containsExactly(new Join("../dims/users", "u", "left", new Part("s.user = u.user", 2, 52)));
        assertThat(q.where()).isEqualTo(new Part("s.amt > 0 AND s.user IS NOT NULL", 3, 7));
        assertThat(q.select()).extracting(Part::text)
                .containsExactly("s.*", "lower(trim(s.user)) AS name", "to_date(s.ts) day", "u.segment");
        assertThat(q.select().get(1).at()).isEqualTo("line 1, column 13");
    }

    @Test
    void everyJoinTypeOfAStreamStaticJoinAndUsing() {
        assertThat(type("JOIN")).isEqualTo("inner");
        assertThat(type("INNER JOIN")).isEqualTo("inner");
        assertThat(type("left join")).isEqualTo("left");
        assertThat(type("LEFT OUTER JOIN")).isEqualTo("left");
        assertThat(type("LEFT SEMI JOIN")).isEqualTo("left_semi");
        assertThat(type("SEMI JOIN")).isEqualTo("left_semi");
        assertThat(type("LEFT ANTI JOIN")).isEqualTo("left_anti");
        assertThat(type("ANTI JOIN")).isEqualTo("left_anti");
        SqlQuery using = SqlQuery.parse("SELECT * FROM source JOIN delta.`s3a://b/users` AS `the users` USING (user, `my id`)");
        assertThat(using.sourceAlias()).as("without an alias, the stream is named source").isEqualTo("source");
        assertThat(using.joins().get(0).table()).isEqualTo("s3a://b/users");
        assertThat(using.joins().get(0).on().text()).isEqualTo("`user` = `the users`.`user` AND `my id` = `the users`.`my id`");
        assertThat(using.where()).isNull();
    }

    private static String type(String join) {
        return SqlQuery.parse("SELECT * FROM source s " + join + " delta.`t` u ON s.id = u.id").joins().get(0).type();
    }

    @Test
    void theStreamsAliasQualifiesItsColumnsAsInSpark() {
        SqlQuery q = SqlQuery.parse("SELECT s.*, s.amt * 2 AS twice FROM source AS s WHERE s.id > 1");
        Transform t = Transform.compileAs(STREAM, q.sourceAlias(), q.where().text(), q.select().stream().map(Part::text).toList());
        assertThat(t.output().toDdl()).isEqualTo("id INT, user STRING, amt DOUBLE, ts TIMESTAMP, twice DOUBLE");
        assertThat(t.apply(new Object[] {1, "a", 1.0, 0L})).isNull();
        assertThat(Arrays.asList(t.apply(new Object[] {2, "a", 1.5, 0L}))).containsExactly(2, "a", 1.5, 0L, 3.0);
        assertThat(Transform.compileAs(STREAM, "source", null, List.of("SOURCE.user")).output().toDdl()).isEqualTo("user STRING");
        assertThatThrownBy(() -> Transform.compileAs(STREAM, "s", null, List.of("s.usr")))
                .hasMessageContaining("no column 'usr'");
    }

    @Test
    void theQuerysKeywordsStayColumnNamesInExpressions() {
        Schema s = Schema.parse("left INT, order INT, `group` INT, limit INT");
        Expression e = Expression.compile(s, "left + order + `group` + limit");
        assertThat(e.eval(new Object[] {1, 2, 3, 4})).isEqualTo(10);
        SqlQuery q = SqlQuery.parse("SELECT left, order AS o FROM source WHERE limit > 0");
        assertThat(q.select()).extracting(Part::text).containsExactly("left", "order AS o");
        assertThatThrownBy(() -> Expression.compile(s, "left IN (SELECT 1)")).hasMessageContaining("a subquery is not supported");
    }

    @Test
    void aUnionAllIsTheFirstQueryWithTheQueriesAfterItInOrder() {
        SqlQuery q = SqlQuery.parse("SELECT id, 'c' AS kind FROM source s WHERE amt > 1\nUNION ALL (SELECT id, 'v' FROM source WHERE amt <= 1)"
                + " UNION ALL SELECT s.id, u.segment FROM source s JOIN delta.`t` u ON s.user = u.user");
        assertThat(q.select()).extracting(Part::text).containsExactly("id", "'c' AS kind");
        assertThat(q.where().text()).isEqualTo("amt > 1");
        assertThat(q.sourceAlias()).isEqualTo("s");
        assertThat(q.unionAll()).extracting(u -> u.at().at()).containsExactly("line 2, column 1", "line 2, column 55");
        assertThat(q.unionAll().get(0).query().select()).extracting(Part::text).containsExactly("id", "'v'");
        assertThat(q.unionAll().get(0).query().where().text()).isEqualTo("amt <= 1");
        assertThat(q.unionAll().get(1).query().joins()).extracting(SqlQuery.Join::table).containsExactly("t");
        assertThat(q.unionAll()).allSatisfy(u -> assertThat(u.query().unionAll()).isEmpty());
        SqlQuery nested = SqlQuery.parse("(SELECT id FROM source UNION ALL SELECT id FROM source) UNION ALL SELECT id FROM source");
        assertThat(nested.unionAll()).hasSize(2);
        assertThat(SqlQuery.parse("SELECT id FROM source").unionAll()).isEmpty();
    }

    @Test
    void eachQueryOfAUnionAllReadsTheViewsOfItsWith() {
        SqlQuery q = SqlQuery.parse("WITH c AS (SELECT id, amt * 2 AS a FROM source WHERE amt > 1)\n"
                + "SELECT id, a FROM c UNION ALL SELECT id, amt FROM source WHERE amt <= 1");
        assertThat(q.select()).extracting(Part::text).containsExactly("id", "(amt * 2) AS `a`");
        assertThat(q.where().text()).isEqualTo("amt > 1");
        assertThat(q.unionAll()).hasSize(1);
        assertThat(q.unionAll().get(0).query().where().text()).isEqualTo("amt <= 1");
        SqlQuery both = SqlQuery.parse("WITH c AS (SELECT id, lower(user) AS u FROM source WHERE amt > 0)\n"
                + "SELECT id, u FROM c WHERE u IS NOT NULL UNION ALL SELECT id, 'none' FROM c WHERE u IS NULL");
        assertThat(both.where().text()).isEqualTo("(amt > 0) AND ((lower(user)) IS NOT NULL)");
        assertThat(both.unionAll().get(0).query().where().text()).isEqualTo("(amt > 0) AND ((lower(user)) IS NULL)");
        refused("WITH c AS (SELECT id FROM source) SELECT a.id FROM c a JOIN c b ON a.id = b.id UNION ALL SELECT id FROM c",
                "the common table expression c read a second time");
        refused("SELECT * FROM (SELECT id FROM source UNION ALL SELECT id FROM source) t", "UNION ALL in a view or a subquery in FROM"
                + " at line 1, column 38");
        refused("SELECT id FROM source UNION ALL (WITH c AS (SELECT id FROM source) SELECT id FROM c)", "WITH inside a query of UNION ALL"
                + " at line 1, column 34");
    }

    @Test
    void theWholeQuerysLimitIsKeptWithItsPlace() {
        SqlQuery q = SqlQuery.parse("SELECT id FROM source WHERE amt > 0\nLIMIT 4");
        assertThat(q.limit()).isEqualTo(new SqlQuery.Limit(4, new SqlQuery.Part("LIMIT 4", 2, 1)));
        assertThat(q.where().text()).isEqualTo("amt > 0");
        assertThat(SqlQuery.parse("SELECT id FROM source").limit()).isNull();
        assertThat(SqlQuery.parse("SELECT id FROM source LIMIT 0").limit().rows()).isZero();
        SqlQuery union = SqlQuery.parse("SELECT id FROM source UNION ALL SELECT id FROM source LIMIT 3");
        assertThat(union.limit().rows()).isEqualTo(3);
        assertThat(union.unionAll()).hasSize(1);
        assertThat(SqlQuery.parse("WITH c AS (SELECT id FROM source) SELECT id FROM c LIMIT 2").limit().rows()).isEqualTo(2);
        assertThat(SqlQuery.parse("SELECT id FROM source LIMIT ALL").limit()).as("Spark's no limit").isNull();
        assertThat(SqlQuery.parse("(SELECT id FROM source WHERE amt > 0) LIMIT 3").limit().rows()).isEqualTo(3);
        SqlQuery inParentheses = SqlQuery.parse("(SELECT id FROM source UNION ALL SELECT id FROM source) LIMIT 5");
        assertThat(inParentheses.limit().rows()).isEqualTo(5);
        assertThat(inParentheses.unionAll()).hasSize(1);
    }

    @Test
    void whatTheTransformCannotExpressIsRefusedNamingTheConstructAndItsPlace() {
        refused("SELECT * FROM source WHERE id > 1 OR id NOT IN (SELECT id FROM delta.`t`)", "a subquery at line 1, column 41");
        refused("SELECT (SELECT max(x) FROM delta.`t`) AS m FROM source", "a subquery at line 1, column 8");
        refused("SELECT * FROM source WHERE EXISTS (SELECT 1)", "a subquery at line 1, column 28");
        refused("SELECT * FROM source\nUNION ALL SELECT * FROM source UNION SELECT * FROM source", "UNION at line 2, column 32",
                "STREAMING_OUTPUT_MODE.UNSUPPORTED_OPERATION");
        refused("SELECT id FROM source UNION ALL (SELECT id FROM source EXCEPT SELECT id FROM source)", "EXCEPT at line 1, column 56");
        refused("SELECT id FROM source UNION ALL SELECT count(*) FROM source GROUP BY id", "GROUP BY in a query of UNION ALL at line 1,"
                + " column 61");
        refused("SELECT id FROM source UNION ALL SELECT id FROM source ORDER BY id", "ORDER BY at line 1, column 55");
        refused("SELECT id FROM source UNION ALL (SELECT id FROM source LIMIT 1)", "LIMIT in a view, a subquery or a query of UNION ALL at"
                + " line 1, column 56", "at the end of the whole query");
        refused("SELECT * FROM source UNION SELECT * FROM source", "UNION at line 1, column 22", "STREAMING_OUTPUT_MODE.UNSUPPORTED_OPERATION");
        refused("SELECT * FROM source ORDER BY id DESC", "ORDER BY at line 1, column 22");
        refused("SELECT * FROM source LIMIT 10 OFFSET 2", "OFFSET at line 1, column 31", "Offset is not supported on streaming");
        refused("SELECT * FROM source LIMIT id", "LIMIT id at line 1, column 22", "a whole number");
        refused("SELECT * FROM source LIMIT -1", "LIMIT -1 at line 1, column 22", "INVALID_LIMIT_LIKE_EXPRESSION.IS_NEGATIVE");
        refused("SELECT window(ts, '5 minutes') AS w, count(*) AS n FROM source GROUP BY window(ts, '5 minutes') LIMIT 3",
                "LIMIT with GROUP BY at line 1, column 97");
        refused("SELECT DISTINCT user FROM source", "SELECT DISTINCT at line 1, column 8", "dropDuplicates",
                "STREAMING_OUTPUT_MODE.UNSUPPORTED_OPERATION");
        refused("SELECT * FROM source s, LATERAL explode(array(1)) t, delta.`v` v", "a FROM item after a join or a table function at line 1,"
                + " column 54");
        refused("SELECT * FROM events", "the table events at line 1, column 15", "source", "delta.`");
        refused("SELECT * FROM delta.`t`", "the Delta table delta.`t` in FROM at line 1, column 15");
        refused("SELECT * FROM source s JOIN source t ON s.id = t.id", "source joined again at line 1, column 29");
        refused("SELECT * FROM source s JOIN users u ON s.id = u.id", "the table users at line 1, column 29");
        refused("SELECT user, count(*) AS n FROM source\nGROUP BY user", "GROUP BY without a window at line 2, column 1");
        refused("SELECT user FROM source HAVING user > 'a'", "HAVING without GROUP BY at line 1, column 25", "WHERE");
        refused("SELECT * FROM source s RIGHT JOIN delta.`t` u ON s.id = u.id", "RIGHT OUTER JOIN at line 1, column 24", "RightOuter join with a"
                + " streaming DataFrame/Dataset on the left and a static DataFrame/Dataset on the right is not supported");
        refused("SELECT * FROM source s FULL OUTER JOIN delta.`t` u ON s.id = u.id", "FULL OUTER JOIN at line 1, column 24");
        refused("SELECT * FROM source s NATURAL JOIN delta.`t` u", "NATURAL JOIN at line 1, column 24");
        refused("SELECT * FROM source s JOIN delta.`t` ON s.id = id", "a joined table without an alias at line 1, column 29");
        refused("SELECT * FROM source s JOIN delta.`t` S ON true", "the alias 'S' given twice");
        assertThatThrownBy(() -> SqlQuery.parse("SELECT * FROM source WHERE"))
                .hasMessageStartingWith("the query does not parse at line 1, column 27 near the end");
        assertThatThrownBy(() -> SqlQuery.parse("SELEC * FROM source")).hasMessageStartingWith("the query does not parse at line 1, column 1");
    }

    /**
     * A conjunct [NOT] EXISTS (SELECT ... FROM delta.`t` u [WHERE cond]) of WHERE is Spark's plan of it: a left semi (anti) join on cond;
     * x NOT IN (SELECT v ...) Spark's null-aware anti join.
     */
    @Test
    void existsOverADeltaTableIsASemiJoinAndNotExistsAnAntiJoin() {
        SqlQuery q = SqlQuery.parse("SELECT id FROM source s WHERE s.amt > 1 AND NOT EXISTS (SELECT 1 FROM delta.`t` u WHERE u.id = s.id)");
        assertThat(q.joins()).containsExactly(new Join("t", "u", "left_anti", new Part("u.id = s.id", 1, 89)));
        assertThat(q.where().text()).isEqualTo("s.amt > 1");
        assertThat(SqlQuery.parse("SELECT * FROM source WHERE lower(user) IN (SELECT u.name FROM delta.`t` u WHERE u.lim > 1)").joins())
                .extracting(Join::type, j -> j.on().text())
                .containsExactly(org.assertj.core.groups.Tuple.tuple("left_semi", "(lower(user)) = `u`.`name` AND (u.lim > 1)"));
        refused("SELECT * FROM source s WHERE EXISTS (SELECT 1 FROM delta.`t` u WHERE id = s.id)", "a subquery at line 1, column 30");
        assertThat(SqlQuery.parse("SELECT * FROM source WHERE amt > 1 AND user NOT IN (SELECT nullif(u.name, 'x') FROM delta.`t` u WHERE u.lim > 1)")
                .joins()).extracting(Join::type, j -> j.on().text()).containsExactly(org.assertj.core.groups.Tuple.tuple("left_anti",
                        "((user) = (nullif(u.name, 'x')) OR ((user) = (nullif(u.name, 'x'))) IS NULL) AND (u.lim > 1)"));
        refused("SELECT * FROM source s WHERE s.id NOT IN (SELECT v.id FROM delta.`t` u)", "a subquery at line 1, column 35");
        SqlQuery only = SqlQuery.parse("SELECT * FROM source WHERE EXISTS (SELECT * FROM delta.`t` AS u)");
        assertThat(only.joins()).extracting(Join::type, j -> j.on().text()).containsExactly(org.assertj.core.groups.Tuple.tuple("left_semi", "true"));
        assertThat(only.where()).isNull();
        refused("SELECT * FROM source s WHERE s.id > 1 OR EXISTS (SELECT 1 FROM delta.`t` u WHERE u.id = s.id)", "a subquery at line 1, column 42");
        refused("SELECT * FROM source s WHERE EXISTS (SELECT 1 FROM source t WHERE t.id = s.id)", "a subquery at line 1, column 30",
                "INVALID_SUBQUERY_EXPRESSION.STREAMING_QUERY");
    }

    /** Spark joins every row of the table to each row where a join has no condition: CROSS JOIN, JOIN without ON, a FROM item. */
    @Test
    void aJoinWithoutAConditionIsSparksCrossJoin() {
        for (String q : List.of("SELECT * FROM source s CROSS JOIN delta.`t` u", "SELECT * FROM source s JOIN delta.`t` u",
                "SELECT * FROM source s, delta.`t` AS u")) {
            assertThat(SqlQuery.parse(q).joins()).as(q).containsExactly(new Join("t", "u", "inner", new Part("true", 1, q.indexOf("delta") + 1)));
        }
        assertThat(SqlQuery.parse("SELECT * FROM source s JOIN delta.`t` u USING (a, `b c`)").joins().get(0).using()).containsExactly("a", "b c");
        assertThat(SqlQuery.parse("SELECT * FROM source;;").select()).extracting(Part::text).containsExactly("*");
    }

    /** FROM delta.`t` u [RIGHT] JOIN source s is Spark's join with the static side on the left: the stream's inner or left join. */
    @Test
    void aDeltaTableWrittenBeforeTheStreamIsJoinedToIt() {
        String sql = "SELECT s.id FROM delta.`t` u RIGHT OUTER JOIN source AS s ON s.id = u.id LEFT SEMI JOIN delta.`v` v ON v.id = s.id";
        SqlQuery q = SqlQuery.parse(sql);
        assertThat(q.sourceAlias()).isEqualTo("s");
        assertThat(q.joins()).containsExactly(new Join("t", "u", "left", new Part("s.id = u.id", 1, sql.indexOf("s.id =") + 1), List.of(), true),
                new Join("v", "v", "left_semi", new Part("v.id = s.id", 1, sql.indexOf("v.id =") + 1)));
        assertThat(SqlQuery.parse("SELECT * FROM delta.`t` u JOIN source s USING (id)").joins()).extracting(Join::type, Join::using, Join::first)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("inner", List.of("id"), true));
        refused("SELECT * FROM delta.`t` u LEFT JOIN source s ON s.id = u.id", "LEFT OUTER JOIN of the stream after a Delta table at line 1,"
                + " column 27", "LeftOuter join with a streaming DataFrame/Dataset on the right");
        refused("SELECT * FROM delta.`t` u FULL JOIN source s ON s.id = u.id", "FULL OUTER JOIN of the stream after a Delta table");
        refused("SELECT * FROM delta.`t` u LEFT SEMI JOIN source s ON s.id = u.id", "LEFT SEMI JOIN of the stream after a Delta table");
        refused("SELECT * FROM delta.`t` u NATURAL JOIN source s", "NATURAL JOIN at line 1, column 27");
        refused("SELECT * FROM delta.`t` u JOIN delta.`v` v ON u.id = v.id JOIN source s ON s.id = u.id", "the Delta table delta.`t` in FROM");
        refused("SELECT * FROM delta.`t` u JOIN source s ON s.id = u.id JOIN source t ON t.id = s.id", "source joined again");
        refused("WITH c AS (SELECT id FROM source) SELECT c.id FROM delta.`t` u JOIN c ON c.id = u.id", "the Delta table delta.`t` in FROM");
    }

    @Test
    void aGroupByOverAWindowIsTheAggregationBlock() {
        SqlQuery q = SqlQuery.parse("""
                SELECT window(s.ts, '10 minutes') AS window, s.user, lower(region) AS r, sum(s.amt) AS t, count(*) n, count_if(amt > 100) AS big
                FROM source s WHERE s.amt > 0
                GROUP BY s.user, WINDOW(ts, '10 minutes'), lower( region )
                """);
        SqlQuery.Aggregation a = q.aggregation();
        assertThat(a.eventTime()).isEqualTo("ts");
        assertThat(a.window()).isEqualTo("10 minutes");
        assertThat(a.slide()).isNull();
        assertThat(a.session()).isNull();
        assertThat(a.groupBy()).containsExactly("`user`", "lower(region) AS `r`");
        assertThat(a.select()).containsExactly(java.util.Map.entry("t", "sum(`amt`)"), java.util.Map.entry("n", "count(*)"),
                java.util.Map.entry("big", "count_if(amt > 100)"));
        assertThat(q.where().text()).isEqualTo("s.amt > 0");
        assertThat(a.at().at()).isEqualTo("line 3, column 1");

        SqlQuery.Aggregation sliding = SqlQuery.parse("SELECT window(ts, '10 minutes', '5 minutes'), user AS u, max(amt) AS m FROM source"
                + " GROUP BY window(ts, '10 minutes', '5 minutes'), u").aggregation();
        assertThat(sliding.slide()).isEqualTo("5 minutes");
        assertThat(sliding.groupBy()).containsExactly("`user` AS `u`");
        SqlQuery.Aggregation session = SqlQuery.parse("SELECT session_window(ts, '30 minutes') AS session_window, user, sum(amt) AS t"
                + " FROM source GROUP BY user, session_window(ts, '30 minutes')").aggregation();
        assertThat(session.session()).isEqualTo("30 minutes");
        assertThat(session.window()).isNull();
        assertThat(session.windowColumn()).isEqualTo("session_window");
        assertThat(sliding.windowColumn()).as("no alias: Spark's own name").isNull();
        assertThat(SqlQuery.parse("SELECT * FROM source").aggregation()).isNull();
    }

    @Test
    void aWindowsAliasNamesItsColumnAndGroupsByIt() {
        SqlQuery.Aggregation a = SqlQuery.parse("SELECT session_window(ts, '30 minutes') AS window, user, count(*) AS n FROM source"
                + " GROUP BY session_window(ts, '30 minutes'), user").aggregation();
        assertThat(a.windowColumn()).isEqualTo("window");
        assertThat(a.session()).isEqualTo("30 minutes");
        SqlQuery.Aggregation byAlias = SqlQuery.parse("SELECT window(ts, '10 minutes') w, user, count(*) AS n FROM source GROUP BY W, user"
                + " HAVING w.end > TIMESTAMP '2026-01-01 10:00:00'").aggregation();
        assertThat(byAlias.windowColumn()).isEqualTo("w");
        assertThat(byAlias.window()).isEqualTo("10 minutes");
        assertThat(byAlias.groupBy()).containsExactly("`user`");
        assertThat(byAlias.having().text()).isEqualTo("w.end > TIMESTAMP '2026-01-01 10:00:00'");
        SqlQuery.Aggregation field = SqlQuery.parse("SELECT session_window.start AS s, user, count(*) AS n FROM source"
                + " GROUP BY session_window(ts, '30 minutes'), user").aggregation();
        assertThat(field.columns()).as("a field of the window as a column: Spark's projection").containsExactly(
                "session_window.start AS `s`", "`user`", "`n`");
        assertThat(field.windowColumn()).isNull();
        assertThat(SqlQuery.parse("SELECT window(ts, '1 hour') AS w, w.end AS e, user, count(*) AS n FROM source GROUP BY window(ts,"
                + " '1 hour'), user").aggregation().columns()).containsExactly("`w`", "w.end AS `e`", "`user`", "`n`");
        refused("SELECT session_window(ts, '30 minutes') AS w, user, count(*) AS n FROM source GROUP BY user",
                "the select item session_window(ts, '30 minutes'), not in GROUP BY at line 1, column 8");
    }

    @Test
    void aGroupByTheAggregationCannotMakeIsRefusedByItsPlace() {
        String group = " FROM source GROUP BY window(ts, '1 hour'), user";
        assertThat(SqlQuery.parse("SELECT user, window(ts, '1 hour'), sum(amt) AS t" + group).aggregation().columns())
                .as("Spark's order").containsExactly("`user`", "`window`", "`t`");
        SqlQuery.Aggregation over = SqlQuery.parse("SELECT s.user, round(sum(s.amt) / count(*), 2) AS a, upper(user) AS u FROM source s"
                + " GROUP BY window(ts, '1 hour'), user").aggregation();
        assertThat(over.columns()).as("expressions over the aggregates and the groups, the window not selected")
                .containsExactly("`user`", "round(sum(`amt`) / count(*), 2) AS `a`", "upper(user) AS `u`");
        assertThat(over.select()).isEmpty();
        assertThat(SqlQuery.parse("SELECT window(ts, '1 hour'), user, sum(amt) AS t" + group).aggregation().columns())
                .as("the table's own order").isNull();
        refused("SELECT window(ts, '1 hour'), user, sum(amt)" + group, "the aggregate sum(amt) without a name at line 1, column 36");
        refused("SELECT window(ts, '1 hour'), user, amt" + group, "the select item amt, neither in GROUP BY nor an aggregate");
        SqlQuery.Aggregation unselected = SqlQuery.parse("SELECT window(ts, '1 hour'), sum(amt) AS t" + group).aggregation();
        assertThat(unselected.groupBy()).as("grouped by, not written").containsExactly("`user`");
        assertThat(unselected.columns()).containsExactly("`window`", "`t`");
        refused("SELECT window(ts, '1 hour'), upper(user) AS u, sum(amt) AS t FROM source GROUP BY window(ts, '1 hour'), lower(user)",
                "GROUP BY lower(user) not in the select list");
        refused("SELECT *" + group, "SELECT * with GROUP BY");
        refused("SELECT window(ts, '1 hour', '10 minutes', '5 minutes'), sum(amt) AS t FROM source GROUP BY window(ts, '1 hour',"
                + " '10 minutes', '5 minutes')", "a start offset is not supported");
    }

    @Test
    void havingIsTheAggregationsPredicateOverItsColumnsAndAggregateCalls() {
        SqlQuery.Aggregation a = SqlQuery.parse("SELECT window(s.ts, '1 hour') AS window, s.user, sum(s.amt) AS t FROM source s\n"
                + "GROUP BY window(ts, '1 hour'), user\nHAVING sum(s.amt) > 10 AND s.user <> 'b' OR count(*) >= 2").aggregation();
        assertThat(a.having().text()).as("the columns as the table names them").isEqualTo("sum(`amt`) > 10 AND `user` <> 'b' OR count(*) >= 2");
        assertThat(a.having().at()).isEqualTo("line 3, column 8");
        assertThat(SqlQuery.parse("SELECT window(ts, '1 hour'), sum(amt) AS t FROM source GROUP BY window(ts, '1 hour')")
                .aggregation().having()).isNull();
        assertThat(SqlQuery.parse("SELECT window(ts, '1 hour') AS window, sum(amt) AS t FROM source GROUP BY window(ts, '1 hour')"
                + " HAVING window.end > TIMESTAMP '2026-01-01 10:00:00' AND window.END < window.start + INTERVAL 2 HOURS").aggregation()
                .having().text()).as("end is a keyword, and a field after a dot")
                .isEqualTo("window.end > TIMESTAMP '2026-01-01 10:00:00' AND window.END < window.start + INTERVAL 2 HOURS");
    }

    @Test
    void havingsAggregateCallsAreTheSelectedColumnsOrHiddenOnes() {
        Map<String, String> select = new LinkedHashMap<>();
        select.put("t", "sum(amt)");
        select.put("n", "count(*)");
        Having h = Having.of("SUM( amt ) > 10 AND count(*) < 5 AND max(amt) < 3 AND window.start IS NOT NULL OR max(amt) = 0", select);
        assertThat(h.predicate()).isEqualTo("`t` > 10 AND `n` < 5 AND `_having_0` < 3 AND window.start IS NOT NULL OR `_having_0` = 0");
        assertThat(h.hidden()).containsExactly(Map.entry("_having_0", "max(`amt`)"));
        assertThat(Having.of("count(*) >= 2", Map.of("t", "sum(amt)")).hidden()).containsExactly(Map.entry("_having_0", "count(*)"));
        assertThat(Having.selectedAsColumns("sum(amt * 2) > 1 AND count(*) > 1", Map.of("d", "sum(amt * 2)")))
                .isEqualTo("`d` > 1 AND count(*) > 1");
        assertThatThrownBy(() -> Having.of("avg(amt * 2) > 1", select)).hasMessageContaining("at position 1")
                .hasMessageContaining("the aggregate avg(amt * 2) is not in the select list").hasMessageContaining("avg(amt * 2) AS x");
    }

    private static void refused(String sql, String... parts) {
        assertThatThrownBy(() -> SqlQuery.parse(sql)).as(sql).hasMessageContainingAll(parts).hasMessageContaining("is not supported");
    }
}
