package io.tributary.expressions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import org.junit.jupiter.api.Test;

/** schema_of_json is computed once at start; text it cannot read as Spark does is refused there, naming the text. */
class SchemaOfJsonTest {
    private static final Schema INPUT = Schema.parse("id INT");

    @Test
    void theSchemaIsSparksDdl() {
        Expression e = Expression.compile(INPUT, "schema_of_json('{\"id\": 1, \"tags\": [\"a\"], \"at\": {\"x\": null}}')");
        assertThat(e.eval(new Object[] {1})).isEqualTo("STRUCT<at: STRUCT<x: STRING>, id: BIGINT, tags: ARRAY<STRING>>");
    }

    @Test
    void textThatIsNotJsonIsRefusedAtStart() {
        assertThatThrownBy(() -> Expression.compile(INPUT, "schema_of_json('{\"a\": [1, 2')")).isInstanceOf(TributaryException.class)
                .hasMessageContaining("schema_of_json").hasMessageContaining("it is not JSON");
    }

    @Test
    void emptyObjectsAndEmptyNamesAreDroppedAsSparkDropsThem() {
        assertThat(Expression.compile(INPUT, "schema_of_json('{\"a\": {}, \"\": 1, \"b\": [{}, {\"c\": null}]}')").eval(new Object[] {1}))
                .isEqualTo("STRUCT<b: ARRAY<STRUCT<c: STRING>>>");
        assertThat(Expression.compile(INPUT, "schema_of_json('{\"a\": {}}')").eval(new Object[] {1})).isEqualTo("STRUCT<>");
        assertThat(Expression.compile(INPUT, "schema_of_json('[{}]')").eval(new Object[] {1})).isEqualTo("ARRAY<STRUCT<>>");
        assertThatThrownBy(() -> Expression.compile(INPUT, "from_json('{}', schema_of_json('{}'))")).isInstanceOf(TributaryException.class)
                .hasMessageContaining("the schema schema_of_json('{}') is not a DDL schema");
    }

    @Test
    void namesDifferingInCaseAreTwoFieldsButMergedAcrossTheTopArraysObjectsTheyAreRefused() {
        assertThat(Expression.compile(INPUT, "schema_of_json('{\"a\": 1, \"A\": \"x\", \"b\": [{\"B\": 1}, {\"b\": true}]}')")
                .eval(new Object[] {1})).isEqualTo("STRUCT<A: STRING, a: BIGINT, b: ARRAY<STRUCT<B: BIGINT, b: BOOLEAN>>>");
        assertThatThrownBy(() -> Expression.compile(INPUT, "schema_of_json('[{\"A\": 1}, {\"a\": 2.5}]')"))
                .isInstanceOf(TributaryException.class)
                .hasMessageContaining("schema_of_json of '[{\"A\": 1}, {\"a\": 2.5}]': its objects name field A in different cases")
                .hasMessageContaining("not supported yet");
    }

    @Test
    void theInferenceOptionsChangeTheTypesAsSparksAndAnotherLocaleIsRefusedAtStartNamingIt() {
        assertThat(Expression.compile(INPUT, "schema_of_json('{a: 1} /* c */', map('allowUnquotedFieldNames', 'true', 'allowComments', 'true'))")
                .eval(new Object[] {1})).isEqualTo("STRUCT<a: BIGINT>");
        assertThat(Expression.compile(INPUT, "schema_of_json('{\"a\": 1, \"b\": [true]}', map('primitivesAsString', 'true'))")
                .eval(new Object[] {1})).isEqualTo("STRUCT<a: STRING, b: ARRAY<STRING>>");
        assertThat(Expression.compile(INPUT, "schema_of_json('{\"amt\": 12.50, \"at\": \"2024-01-02T10:00:00Z\", \"gone\": null}',"
                + " map('prefersDecimal', 'true', 'inferTimestamp', 'true', 'dropFieldIfAllNull', 'true'))").eval(new Object[] {1}))
                .isEqualTo("STRUCT<amt: DECIMAL(4,2), at: TIMESTAMP>");
        assertThatThrownBy(() -> Expression.compile(INPUT, "schema_of_json('{\"a\": \"1,5\"}', map('prefersDecimal', 'true', 'locale', 'de-DE'))"))
                .isInstanceOf(TributaryException.class).hasMessageContaining("the schema_of_json option 'locale' is not supported yet");
    }
}
