package io.tributary.expressions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.expressions.SqlQuery.Join;
import io.tributary.expressions.SqlQuery.Part;
import io.tributary.schema.Schema;
import java.util.Arrays;
import java.util.List;
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
    void whatTheTransformCannotExpressIsRefusedNamingTheConstructAndItsPlace() {
        refused("SELECT * FROM source WHERE id IN (SELECT id FROM delta.`t`)", "a subquery at line 1, column 31");
        refused("SELECT (SELECT max(x) FROM delta.`t`) AS m FROM source", "a subquery at line 1, column 8");
        refused("SELECT * FROM source WHERE EXISTS (SELECT 1)", "a subquery at line 1, column 28");
        refused("SELECT * FROM (SELECT * FROM source) s", "a subquery in FROM at line 1, column 15");
        refused("SELECT * FROM source\nUNION ALL SELECT * FROM source", "UNION at line 2, column 1");
        refused("SELECT * FROM source ORDER BY id DESC", "ORDER BY at line 1, column 22");
        refused("SELECT * FROM source LIMIT 10", "LIMIT at line 1, column 22");
        refused("SELECT DISTINCT user FROM source", "SELECT DISTINCT at line 1, column 8", "dropDuplicates");
        refused("SELECT * FROM source s, delta.`t` u", "a second FROM item at line 1, column 25");
        refused("SELECT * FROM events", "the table events at line 1, column 15", "source", "delta.`");
        refused("SELECT * FROM delta.`t`", "the Delta table delta.`t` in FROM at line 1, column 15");
        refused("SELECT * FROM source s JOIN source t ON s.id = t.id", "source joined again at line 1, column 29");
        refused("SELECT * FROM source s JOIN users u ON s.id = u.id", "the table users at line 1, column 29");
        refused("SELECT user, count(*) AS n FROM source\nGROUP BY user", "GROUP BY at line 2, column 1", "aggregate:");
        refused("SELECT user FROM source HAVING user > 'a'", "HAVING at line 1, column 25");
        refused("SELECT * FROM source s RIGHT JOIN delta.`t` u ON s.id = u.id", "RIGHT OUTER JOIN at line 1, column 24");
        refused("SELECT * FROM source s FULL OUTER JOIN delta.`t` u ON s.id = u.id", "FULL OUTER JOIN at line 1, column 24");
        refused("SELECT * FROM source s CROSS JOIN delta.`t` u", "CROSS JOIN at line 1, column 24");
        refused("SELECT * FROM source s NATURAL JOIN delta.`t` u", "NATURAL JOIN at line 1, column 24");
        refused("SELECT * FROM source s JOIN delta.`t` ON s.id = id", "a joined table without an alias at line 1, column 29");
        refused("SELECT * FROM source s JOIN delta.`t` u", "a JOIN without ON at line 1, column 39");
        refused("SELECT * FROM source s JOIN delta.`t` S ON true", "the alias 'S' given twice");
        refused("WITH t AS (SELECT 1) SELECT * FROM source", "WITH (a common table expression) at line 1, column 1");
        assertThatThrownBy(() -> SqlQuery.parse("SELECT * FROM source WHERE"))
                .hasMessageStartingWith("the query does not parse at line 1, column 27 near the end");
        assertThatThrownBy(() -> SqlQuery.parse("SELEC * FROM source")).hasMessageStartingWith("the query does not parse at line 1, column 1");
    }

    private static void refused(String sql, String... parts) {
        assertThatThrownBy(() -> SqlQuery.parse(sql)).as(sql).hasMessageContainingAll(parts).hasMessageContaining("is not supported");
    }
}
