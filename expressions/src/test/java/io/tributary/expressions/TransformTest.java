package io.tributary.expressions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Spark's where then selectExpr over rows: the output schema and rows a user expects. */
class TransformTest {
    private static final Schema INPUT = Schema.parse("id INT NOT NULL, user STRING, amt DOUBLE, ts TIMESTAMP, addr STRUCT<city: STRING>");

    @Test
    void whereKeepsOnlyTrueRows() {
        Transform t = Transform.compile(INPUT, "amt > 0 AND user IS NOT NULL", null);
        assertThat(t.output()).isEqualTo(INPUT);
        assertThat(t.apply(new Object[] {1, "a", 2.0, 0L, null})).containsExactly(1, "a", 2.0, 0L, null);
        assertThat(t.apply(new Object[] {2, "a", -2.0, 0L, null})).isNull();
        assertThat(t.apply(new Object[] {3, null, 2.0, 0L, null})).isNull();
        assertThat(t.apply(new Object[] {4, "a", null, 0L, null})).as("null is not true").isNull();
    }

    @Test
    void selectNamesColumnsAsSparkDoesAndExpandsTheStar() {
        Transform t = Transform.compile(INPUT, null, List.of("*", "lower(trim(user)) AS u", "to_date(ts) day", "addr.city", "amt * 2"));
        assertThat(t.output().toDdl()).isEqualTo("id INT NOT NULL, user STRING, amt DOUBLE, ts TIMESTAMP, addr STRUCT<city: STRING>, "
                + "u STRING, day DATE, city STRING, `amt * 2` DOUBLE");
        Object[] out = t.apply(new Object[] {1, "  Ann ", 2.5, 86_400_000_000L + 5, new Object[] {"Oslo"}});
        assertThat(out).containsExactly(1, "  Ann ", 2.5, 86_400_000_000L + 5, out[4], "ann", 1, "Oslo", 5.0);
    }

    @Test
    void keywordsAndNamesAreCaseInsensitive() {
        Transform t = Transform.compile(INPUT, "AMT between 1 AND 3 and NOT (User like 'x%')", List.of("ID", "`user` As name"));
        assertThat(t.output().toDdl()).isEqualTo("ID INT NOT NULL, name STRING");
        assertThat(t.apply(new Object[] {1, "ann", 2.0, 0L, null})).containsExactly(1, "ann");
        assertThat(t.apply(new Object[] {1, "xan", 2.0, 0L, null})).isNull();
    }

    @Test
    void aKeywordAfterADotIsAFieldAsSparkReadsIt() {
        Schema rows = Schema.parse("window STRUCT<start: TIMESTAMP, end: TIMESTAMP>, c STRUCT<`case`: INT, `null`: INT, `and`: INT>");
        Transform t = Transform.compile(rows, "window.end > window.start AND c.AND IS NOT NULL",
                List.of("window.end", "window.END AS e", "c.case + c.null AS n", "window.`end` AS quoted"));
        assertThat(t.output().toDdl()).isEqualTo("end TIMESTAMP, e TIMESTAMP, n INT, quoted TIMESTAMP");
        assertThat(t.apply(new Object[] {new Object[] {10L, 20L}, new Object[] {1, 2, 3}})).containsExactly(20L, 20L, 3, 20L);
        assertThat(t.apply(new Object[] {new Object[] {10L, 20L}, new Object[] {1, 2, null}})).as("c.and is null").isNull();
        assertThat(SelectItems.name("window.end")).isEqualTo("end");
        assertThatThrownBy(() -> Transform.compile(rows, null, List.of("window.case.end"))).isInstanceOf(TributaryException.class)
                .hasMessageContaining("'window' has no field 'case'; its fields are start, end");
    }

    @Test
    void aKeywordAloneIsAColumnAsSparkReadsIt() {
        Schema rows = Schema.parse("`start` INT, `end` INT, `case` INT, `when` STRING");
        Transform t = Transform.compile(rows, "end > 3 AND case IS NOT NULL", List.of("end", "start", "case + 1 AS c", "upper(when) when"));
        assertThat(t.output().toDdl()).isEqualTo("end INT, start INT, c INT, when STRING");
        assertThat(t.apply(new Object[] {1, 5, 7, "x"})).containsExactly(5, 1, 8, "X");
        assertThat(t.apply(new Object[] {1, 3, 7, "x"})).as("end > 3").isNull();
        SqlQuery q = SqlQuery.parse("SELECT end, start FROM source WHERE end > 3");
        assertThat(Transform.compileAs(rows, q.sourceAlias(), q.where().text(), q.select().stream().map(SqlQuery.Part::text).toList())
                .apply(new Object[] {1, 5, 7, "x"})).containsExactly(5, 1);
        assertThatThrownBy(() -> SqlQuery.parse("SELECT start, not FROM source")).isInstanceOf(TributaryException.class)
                .hasMessageStartingWith("the word FROM after not, read as a column's name as Spark reads it at line 1, column 19")
                .hasMessageContaining("written in backquotes: `not`");
        assertThatThrownBy(() -> SqlQuery.parse("SELECT distinct FROM source")).hasMessageContaining("SELECT DISTINCT at line 1, column 8")
                .hasMessageContaining("a column named distinct is `distinct`");
    }

    @Test
    void aSelectListWrittenAsOneStringSplitsBetweenItemsOnly() {
        assertThat(SelectItems.split("*, concat(user, ',', id) AS k, 'a,b' x, amt")).containsExactly("*", "concat(user, ',', id) AS k",
                "'a,b' x", "amt");
    }

    @Test
    void selectItemsAndAggregatesReadWithoutASchema() {
        assertThat(SelectItems.name("date_trunc('hour', ts) AS hour")).isEqualTo("hour");
        assertThat(SelectItems.name("addr.city")).isEqualTo("city");
        assertThat(SelectItems.name("amt * 2")).isEqualTo("amt * 2");
        assertThat(SelectItems.isColumn("`user`")).isTrue();
        assertThat(SelectItems.isColumn("user AS u")).isFalse();
        assertThat(SelectItems.isColumn("lower(user)")).isFalse();
        assertThat(SelectItems.aggregateCall("sum(amt * qty)")).containsExactly("sum", "amt * qty");
        assertThat(SelectItems.aggregateCall("COUNT( * )")).containsExactly("COUNT", "*");
    }

    @Test
    void noWhereAndNoSelectIsTheIdentity() {
        assertThat(Transform.compile(INPUT, null, null).identity()).isTrue();
        assertThat(Transform.compile(INPUT, " ", List.of()).identity()).isTrue();
    }

    @Test
    void intervalsMoveTimestampsAndAFormatThatDoesNotFitFailsTheRowNamingTheExpression() {
        Transform t = Transform.compile(INPUT, "ts - TIMESTAMP '1970-01-01 00:00:00' < INTERVAL 2 DAYS",
                List.of("ts + INTERVAL 1 HOUR AS next", "format_string('%d', user) AS f"));
        assertThat(t.output().toDdl()).isEqualTo("next TIMESTAMP, f STRING");
        assertThat(t.apply(new Object[] {1, null, 1.0, 0L, null})).containsExactly(3_600_000_000L, "null");
        assertThat(t.apply(new Object[] {1, null, 1.0, 3 * 86_400_000_000L, null})).as("not within two days").isNull();
        assertThatThrownBy(() -> t.apply(new Object[] {1, "ann", 1.0, 0L, null})).isInstanceOf(ExpressionException.class)
                .hasMessageContaining("format_string('%d', user)").hasMessageContaining("IllegalFormatConversionException");
    }

    @Test
    void anIntervalIsNoColumn() {
        assertThatThrownBy(() -> Transform.compile(INPUT, null, List.of("ts - ts AS d"))).isInstanceOf(TributaryException.class)
                .hasMessageContaining("\"ts - ts AS d\" is of type INTERVAL DAY TO SECOND, which a table cannot hold");
    }

    @Test
    void aCalendarIntervalIsNoColumnButMovesATimestampAndReadsAsText() {
        assertThatThrownBy(() -> Transform.compile(INPUT, null, List.of("make_interval(0, 1, 0, 2) AS i"))).isInstanceOf(TributaryException.class)
                .hasMessageContaining("\"make_interval(0, 1, 0, 2) AS i\" is of type INTERVAL, which a table cannot hold")
                .hasMessageContaining("CAST(... AS STRING)");
        assertThatThrownBy(() -> Transform.compile(INPUT, null, List.of("array(make_interval(1)) AS a"))).isInstanceOf(TributaryException.class)
                .hasMessageContaining("is of type ARRAY<INTERVAL>");
        Transform t = Transform.compile(INPUT, null, List.of("ts + make_interval(0, 1, 0, 2, 3) AS next",
                "CAST(make_interval(1, 2, 0, 3, 4, 5, 6.5) AS STRING) AS text"));
        assertThat(t.output().toDdl()).isEqualTo("next TIMESTAMP, text STRING");
        long jan31 = java.time.Instant.parse("2024-01-31T10:00:00Z").toEpochMilli() * 1000;
        assertThat(t.apply(new Object[] {1, "a", 2.5, jan31, null})).containsExactly(
                java.time.Instant.parse("2024-03-02T13:00:00Z").toEpochMilli() * 1000, "1 years 2 months 3 days 4 hours 5 minutes 6.5 seconds");
    }

    @Test
    void anArrayOfNullsIsNoColumnUntilItsElementsHaveAType() {
        assertThatThrownBy(() -> Transform.compile(INPUT, null, List.of("array(NULL) AS a"))).isInstanceOf(TributaryException.class)
                .hasMessageContaining("\"array(NULL) AS a\" is ARRAY<VOID>").hasMessageContaining("DELTA_COMPLEX_TYPE_COLUMN_CONTAINS_NULL_TYPE");
        assertThatThrownBy(() -> Transform.compile(INPUT, null, List.of("map(user, NULL) AS m"))).isInstanceOf(TributaryException.class)
                .hasMessageContaining("is MAP<STRING, VOID>");
        Transform t = Transform.compile(INPUT, null, List.of("concat(array(id), array(NULL)) AS a", "array(array(), array(amt)) AS n"));
        assertThat(t.output().toDdl()).isEqualTo("a ARRAY<INT>, n ARRAY<ARRAY<DOUBLE>>");
        assertThat(t.apply(new Object[] {1, "a", 2.5, 0L, null})).containsExactly(java.util.Arrays.asList(1, null), List.of(List.of(), List.of(2.5)));
    }
}
