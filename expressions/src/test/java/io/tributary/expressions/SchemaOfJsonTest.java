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
    void textThatIsNotJsonOrHasAnEmptyObjectIsRefusedAtStart() {
        assertThatThrownBy(() -> Expression.compile(INPUT, "schema_of_json('{\"a\": [1, 2')")).isInstanceOf(TributaryException.class)
                .hasMessageContaining("schema_of_json").hasMessageContaining("it is not JSON");
        assertThatThrownBy(() -> Expression.compile(INPUT, "schema_of_json('{\"a\": {}}')")).isInstanceOf(TributaryException.class)
                .hasMessageContaining("an empty object ({}) is not supported yet");
    }

    @Test
    void anOptionThatChangesTheInferenceIsRefusedAtStartNamingIt() {
        assertThat(Expression.compile(INPUT, "schema_of_json('{a: 1} /* c */', map('allowUnquotedFieldNames', 'true', 'allowComments', 'true'))")
                .eval(new Object[] {1})).isEqualTo("STRUCT<a: BIGINT>");
        assertThatThrownBy(() -> Expression.compile(INPUT, "schema_of_json('{\"a\": 1}', map('primitivesAsString', 'true'))"))
                .isInstanceOf(TributaryException.class).hasMessageContaining("the schema_of_json option 'primitivesAsString' is not supported yet");
    }
}
