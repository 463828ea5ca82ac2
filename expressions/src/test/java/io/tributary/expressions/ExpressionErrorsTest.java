package io.tributary.expressions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a user reads when an expression is refused at start, or fails on a row. */
class ExpressionErrorsTest {
    private static final Schema INPUT = Schema.parse("id INT, user STRING, amt DOUBLE, ts TIMESTAMP, addr STRUCT<city: STRING>");

    private static String refusal(String expression) {
        return org.assertj.core.api.Assertions.catchThrowableOfType(TributaryException.class,
                () -> Expression.compile(INPUT, expression)).getMessage();
    }

    @Test
    void aSyntaxErrorNamesThePositionAndWhatWasFound() {
        assertThat(refusal("amt > AND id = 1")).as("AND a column named so, as Spark reads it: then id is out of place")
                .contains("amt > AND id = 1").contains("does not parse").contains("position 11").contains("near 'id'");
        assertThat(refusal("amt > 1 id = 1")).contains("position 9").contains("near 'id'");
        assertThat(refusal("amt +")).contains("the end");
        assertThat(refusal("'open")).contains("does not parse");
    }

    @Test
    void aShiftWithASpaceInsideIsRefusedAndNestedTypesStillClose() {
        assertThat(refusal("id > > 2")).contains("does not parse").contains("position 4").contains("a shift is written >>, without spaces");
        assertThat(refusal("id < < 2")).contains("a shift is written <<, without spaces");
        assertThat(Expression.compile(INPUT, "CAST(array(array(id)) AS ARRAY<ARRAY<INT>>)").eval(new Object[] {3, null, null, null, null}))
                .isEqualTo(List.of(List.of(3)));
        assertThat(Expression.compile(INPUT, "id >> 1 >= 1 AND id >>> 1 > 0 AND id << 2 = 12").eval(new Object[] {3, null, null, null, null}))
                .isEqualTo(true);
    }

    @Test
    void anUnknownColumnListsTheColumns() {
        assertThat(refusal("lower(usr)")).contains("no column 'usr'").contains("id, user, amt, ts, addr").contains("position 7");
        assertThat(refusal("addr.town")).contains("'addr' has no field 'town'").contains("city");
    }

    @Test
    void mapsAreNeitherComparedNorHashedAndStructsNeedTheirFieldsNamedOnce() {
        assertThat(refusal("map('a', id) = map('a', 1)")).contains("[DATATYPE_MISMATCH.INVALID_ORDERING_TYPE]").contains("MAP<STRING, INT>")
                .contains("position 1");
        assertThat(refusal("named_struct('m', map('a', id)) IN (named_struct('m', map('a', 1)))")).contains("INVALID_ORDERING_TYPE");
        assertThat(refusal("hash(array(map('a', id)))")).contains("[DATATYPE_MISMATCH.HASH_MAP_TYPE]").contains("map_entries");
        assertThat(refusal("from_json('{\"1\": 2}', 'm MAP<INT, INT>')")).as("Spark's JSON reader takes STRING map keys only")
                .contains("[DATATYPE_MISMATCH.INVALID_JSON_MAP_KEY_TYPE]").contains("'m' is MAP<INT, INT>");
        assertThat(Expression.compile(INPUT, "from_json('{\"1\": 2}', 'm MAP<STRING, INT>').m['1']").type().ddl()).isEqualTo("INT");
        assertThat(refusal("struct(id, ID)")).contains("names a field twice (id, ID)").contains("named_struct");
        assertThat(refusal("named_struct('a', id)['b']")).contains("[FIELD_NOT_FOUND]").contains("its fields are a");
        assertThat(Expression.compile(INPUT, "struct(id, NULL).col2 IS NULL").type().ddl()).as("a VOID field inside an expression")
                .isEqualTo("BOOLEAN");
        assertThatThrownBy(() -> Transform.compile(INPUT, null, List.of("struct(id, NULL) AS s"))).as("a VOID field in a column")
                .hasMessageContaining("STRUCT<id: INT, col2: VOID>").hasMessageContaining("struct(1, CAST(NULL AS INT))");
    }

    @Test
    void anUnknownFunctionIsNamed() {
        assertThat(refusal("make_intervals(1, 2)")).contains("unknown function 'make_intervals'").contains("docs/transform.md");
    }

    @Test
    void theWrongNumberOfArgumentsShowsTheSignature() {
        assertThat(refusal("substring(user)")).contains("substring takes 2 to 3 argument(s), not 1").contains("substring(str STRING or BINARY, pos INT[, len INT])");
    }

    @Test
    void aTypeErrorSaysWhichPartAndHowToCastIt() {
        assertThat(refusal("amt div 2")).contains("div needs whole numbers");
        assertThat(refusal("addr + 1")).contains("the operator + needs numbers").contains("STRUCT");
        assertThat(refusal("date_add(ts, 1.5)")).contains("'1.5' is DECIMAL(2,1) where INT is expected").contains("CAST(1.5 AS INT)");
        assertThat(refusal("CASE WHEN id THEN 1 END")).contains("a WHEN condition must be BOOLEAN");
    }

    @Test
    void aLambdaOfTheWrongShapeIsRefusedNamingTheFunction() {
        assertThat(refusal("transform(array(id), (x, y, z) -> x)")).contains("transform").contains("takes 1 or 2 parameters, not 3");
        assertThat(refusal("aggregate(array(id), 0, x -> x)")).contains("aggregate").contains("takes 2 parameters, not 1");
        assertThat(refusal("filter(array(id), x -> x + 1)")).contains("filter").contains("must give a BOOLEAN");
        assertThat(refusal("transform(id, x -> x)")).contains("transform").contains("must be ARRAYs");
        assertThat(refusal("transform(array(id), 1)")).contains("transform").contains("must be a lambda function");
        assertThat(refusal("upper(x -> x)")).contains("upper takes no lambda function");
        assertThat(refusal("transform(array(id), x -> y)")).contains("no column 'y'");
        assertThat(refusal("aggregate(array(id), 0, (acc, x) -> acc + x + 0.5)")).contains("aggregate").contains("cast the start value");
    }

    @Test
    void aLambdaSeesItsParametersAndTheRowsColumns() {
        Expression e = Expression.compile(INPUT, "transform(array(1, 2), x -> transform(array(10, 20), y -> x * y + id))");
        assertThat(e.eval(new Object[] {3, "a", 0.0, 0L, null})).isEqualTo(java.util.List.of(java.util.List.of(13, 23), java.util.List.of(23, 43)));
    }

    @Test
    void upperOfANumberIsFineAsInSpark() {
        assertThat(Expression.compile(INPUT, "upper(amt)").eval(new Object[] {1, "a", 2.5, 0L, null})).isEqualTo("2.5");
    }

    @Test
    void aRowThatFailsCarriesTheExpressionAndSparksErrorClass() {
        Expression e = Expression.compile(INPUT, "id + cast(user AS INT)");
        assertThatThrownBy(() -> e.eval(new Object[] {1, "abc", 0.0, 0L, null}))
                .isInstanceOfSatisfying(ExpressionException.class, x -> {
                    assertThat(x.condition()).isEqualTo("CAST_INVALID_INPUT");
                    assertThat(x.expression()).isEqualTo("cast(user AS INT)");
                    assertThat(x.getMessage()).contains("'abc' cannot be cast to INT");
                });
        assertThatThrownBy(() -> e.eval(new Object[] {Integer.MAX_VALUE, "1", 0.0, 0L, null}))
                .isInstanceOfSatisfying(ExpressionException.class, x -> assertThat(x.condition()).isEqualTo("ARITHMETIC_OVERFLOW"));
        assertThatThrownBy(() -> Expression.compile(INPUT, "amt / (id - 1)").eval(new Object[] {1, "a", 1.0, 0L, null}))
                .isInstanceOfSatisfying(ExpressionException.class, x -> assertThat(x.condition()).isEqualTo("DIVIDE_BY_ZERO"));
    }

    @Test
    void aTransformRefusalNamesTheSetting() {
        assertThatThrownBy(() -> Transform.compile(INPUT, "nosuch > 1", null, "source.files.transform.where"))
                .hasMessageStartingWith("source.files.transform.where: expression \"nosuch > 1\"");
        assertThatThrownBy(() -> Transform.compile(INPUT, "amt + 1", null)).hasMessageContaining("a filter needs a BOOLEAN");
        assertThatThrownBy(() -> Transform.compile(INPUT, null, List.of("*", "user"))).hasMessageContaining("makes column 'user' twice");
        assertThatThrownBy(() -> Transform.compile(INPUT, null, List.of("NULL AS x"))).hasMessageContaining("CAST(NULL AS STRING)");
    }
}
