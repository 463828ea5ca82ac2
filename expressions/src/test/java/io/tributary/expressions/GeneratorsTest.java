package io.tributary.expressions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.schema.RowJson;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Generators in a transform: what a user reads when one is misplaced, and the rows one input row makes. */
class GeneratorsTest {
    private static final Schema SCHEMA = Schema.parse("id INT, tags ARRAY<STRING>, props MAP<STRING, INT>, codes ARRAY<STRING>");
    private static final Object[] ROW = new RowJson(SCHEMA).parse(
            "{\"id\": 7, \"tags\": [\"a\", \"b\"], \"props\": {\"x\": 1}, \"codes\": [\"1\", \"x\", \"3\"]}");

    private static List<String> rows(Transform t, Object[] row) {
        return t.rows(row).stream().map(r -> java.util.Arrays.stream(r).map(String::valueOf).collect(Collectors.joining("|"))).toList();
    }

    @Test
    void aGeneratorInsideAnotherExpressionIsRefusedNamingBoth() {
        assertThatThrownBy(() -> Transform.compile(SCHEMA, null, List.of("id", "upper(explode(tags)) AS u")))
                .isInstanceOf(TributaryException.class)
                .hasMessageContaining("[UNSUPPORTED_GENERATOR.NESTED_IN_EXPRESSIONS]")
                .hasMessageContaining("explode(tags) is nested in the expression \"upper(explode(tags))\"");
    }

    @Test
    void aGeneratorInWhereIsRefusedAsOutsideTheSelectList() {
        assertThatThrownBy(() -> Transform.compile(SCHEMA, "explode(tags) = 'a'", List.of("id")))
                .hasMessageContaining("[UNSUPPORTED_GENERATOR.OUTSIDE_SELECT]")
                .hasMessageContaining("LATERAL VIEW");
    }

    @Test
    void aMapsTwoColumnsNeedTwoNames() {
        assertThatThrownBy(() -> Transform.compile(SCHEMA, null, List.of("explode(props) AS k")))
                .hasMessageContaining("[UDTF_ALIAS_NUMBER_MISMATCH] explode(props) makes 2 columns (key, value) but 1 alias is given (k)");
    }

    @Test
    void aWhereOverTheExplodedColumnNamesTheColumnsItHas() {
        assertThatThrownBy(() -> Transform.compile(SCHEMA, "tag = 'a'", List.of("explode(tags) AS tag")))
                .hasMessageContaining("no column 'tag'; the input has id, tags, props, codes");
    }

    @Test
    void theColumnsBesideAGeneratorKeepTheirPlaces() {
        Transform t = Transform.compile(SCHEMA, null, List.of("id", "explode(tags) AS tag", "id * 2 AS twice"));
        assertThat(t.output().toDdl()).isEqualTo("id INT, tag STRING, twice INT");
        assertThat(rows(t, ROW)).containsExactly("7|a|14", "7|b|14");
    }

    @Test
    void explodingAMapOfNumberKeysGivesNumberKeys() {
        SqlQuery q = SqlQuery.parse("SELECT id, k * 10 AS tens, v FROM source LATERAL VIEW explode(map(id, 'seven', id + 1, 'eight')) t AS k, v");
        Transform t = Transform.compileAs(SCHEMA, q.sourceAlias(), List.of(q.lateralViews().get(0).text()), null,
                q.select().stream().map(SqlQuery.Part::text).toList());
        assertThat(t.output().toDdl()).isEqualTo("id INT, tens INT, v STRING");
        assertThat(rows(t, ROW)).containsExactly("7|70|seven", "7|80|eight");
        assertThat(Transform.compile(SCHEMA, null, List.of("map(id, 1) AS m")).output().toDdl()).isEqualTo("m MAP<INT, INT>");
        assertThatThrownBy(() -> Transform.compile(SCHEMA, null, List.of("map(array(id), 1) AS m"))).isInstanceOf(TributaryException.class)
                .hasMessageContaining("a map's keys here are numbers, text, booleans, dates or timestamps, and map gives keys of ARRAY<INT>");
    }

    @Test
    void aFailingElementFailsTheWholeInputRow() {
        SqlQuery q = SqlQuery.parse("SELECT id, cast(c AS INT) AS n FROM source LATERAL VIEW explode(codes) t AS c");
        Transform t = Transform.compileAs(SCHEMA, q.sourceAlias(), List.of(q.lateralViews().get(0).text()), null,
                q.select().stream().map(SqlQuery.Part::text).toList());
        assertThatThrownBy(() -> t.rows(ROW)).isInstanceOf(ExpressionException.class)
                .satisfies(e -> assertThat(((ExpressionException) e).condition()).isEqualTo("CAST_INVALID_INPUT"))
                .hasMessageContaining("'x'");
    }

    @Test
    void aLateralViewsQualifiedColumnIsItsOwnAndANameItDoesNotMakeIsRefused() {
        Transform t = Transform.compileAs(SCHEMA, "s", List.of("LATERAL VIEW posexplode(s.tags) t AS p, tag"), "t.p > 0",
                List.of("s.*", "t.tag", "upper(t.tag) AS up"));
        assertThat(t.output().toDdl()).isEqualTo("id INT, tags ARRAY<STRING>, props MAP<STRING, INT>, codes ARRAY<STRING>, tag STRING,"
                + " up STRING");
        assertThat(rows(t, ROW)).containsExactly("7|[a, b]|{x=1}|[1, x, 3]|b|B");
        assertThatThrownBy(() -> Transform.compileAs(SCHEMA, null, List.of("LATERAL VIEW explode(tags) t AS tag"), null, List.of("t.id")))
                .hasMessageContaining("no column 't.id'; the input has t.tag");
        assertThatThrownBy(() -> Transform.compileAs(SCHEMA, null, List.of("LATERAL VIEW explode(tags) t AS id"), null, List.of("id")))
                .hasMessageContaining("makes a column 'id', and the row has a column 'id' already");
    }

    @Test
    void stackAndJsonTupleNameTheirColumnsAndRefuseWhatSparkRefuses() {
        Transform t = Transform.compile(SCHEMA, null, List.of("id", "stack(2, 'a', id, 'b')", "json_tuple('{\"k\": [1]}', 'k', 'z')"));
        assertThat(t.output().toDdl()).isEqualTo("id INT, col0 STRING, col1 INT, c0 STRING, c1 STRING");
        assertThat(rows(t, ROW)).containsExactly("7|a|7|[1]|null", "7|b|null|[1]|null");
        assertThatThrownBy(() -> Transform.compile(SCHEMA, null, List.of("stack(2, 'a', 1, 2)")))
                .hasMessageContaining("[DATATYPE_MISMATCH.STACK_COLUMN_DIFF_TYPES] column 0 holds 'a' (STRING) and 2 (INT)");
        assertThatThrownBy(() -> Transform.compile(SCHEMA, null, List.of("stack(id, 1)")))
                .hasMessageContaining("[DATATYPE_MISMATCH.NON_FOLDABLE_INPUT]");
        assertThatThrownBy(() -> Transform.compile(SCHEMA, null, List.of("json_tuple(id, 'a')")))
                .hasMessageContaining("[DATATYPE_MISMATCH.NON_STRING_TYPE] 'id' is INT");
    }
}
