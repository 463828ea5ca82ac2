package io.tributary.expressions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.expressions.internal.Variants;
import io.tributary.schema.RowJson;
import io.tributary.schema.Schema;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * variant_explode as Spark 4.2 has it, a table function joined after a comma of FROM: its VARIANT {@code value} read in the
 * select list, a {@code value} left a column refused before any row, and the forms Spark does not take refused by name.
 * (Spark's rows: {@code golden/generators}, {@link GoldenGeneratorsTest}.)
 */
class VariantExplodeTest {
    private static final Schema SCHEMA = Schema.parse("id INT, js STRING, tags ARRAY<STRING>");
    private static final Object[] ROW = new RowJson(SCHEMA).parse("{\"id\": 7, \"js\": \"{\\\"a\\\": [1, 2], \\\"b\\\": \\\"x\\\"}\","
            + " \"tags\": [\"t\"]}");

    private static Transform compile(String sql) {
        SqlQuery q = SqlQuery.parse(sql);
        return Transform.compileAs(SCHEMA, q.sourceAlias(), q.lateralViews().stream().map(SqlQuery.Part::text).toList(),
                q.where() == null ? null : q.where().text(), q.select().stream().map(SqlQuery.Part::text).toList());
    }

    private static List<String> rows(Transform t) {
        return t.rows(ROW).stream().map(r -> java.util.Arrays.stream(r).map(String::valueOf).collect(Collectors.joining("|"))).toList();
    }

    @Test
    void aValueReadInTheSelectListIsStorable() {
        Transform t = compile("SELECT s.id, e.key, to_json(e.value) AS v FROM source s, LATERAL variant_explode(parse_json(s.js)) AS e");
        assertThat(t.output().toDdl()).isEqualTo("id INT, key STRING, v STRING");
        assertThat(rows(t)).containsExactly("7|a|[1,2]", "7|b|\"x\"");
    }

    @Test
    void aValueLeftAColumnIsAVariantColumn() {
        Transform t = compile("SELECT s.id, e.* FROM source s, LATERAL variant_explode(parse_json(s.js)) e(p, k, val)");
        assertThat(t.output().toDdl()).isEqualTo("id INT, p INT NOT NULL, k STRING, val VARIANT NOT NULL");
        assertThat(t.rows(ROW)).extracting(r -> r[2] + "=" + Variants.json(r[3])).containsExactly("a=[1,2]", "b=\"x\"");
    }

    @Test
    void theFormsSparkDoesNotTakeAreRefusedWithItsCondition() {
        assertThatThrownBy(() -> Transform.compile(SCHEMA, null, List.of("id", "variant_explode(parse_json(js))")))
                .hasMessageContaining("[NOT_A_SCALAR_FUNCTION]").hasMessageContaining("FROM source, LATERAL variant_explode(v) e");
        assertThatThrownBy(() -> Transform.compile(SCHEMA, null, List.of("to_json(variant_explode(parse_json(js)))")))
                .as("nested in another expression, as Spark 4.2 refuses it").hasMessageContaining("[NOT_A_SCALAR_FUNCTION]");
        assertThatThrownBy(() -> compile("SELECT id, key FROM source LATERAL VIEW variant_explode(parse_json(js)) t AS p, key, v"))
                .hasMessageContaining("[ROUTINE_NOT_FOUND]");
        assertThatThrownBy(() -> compile("SELECT id, pos FROM source, LATERAL variant_explode(js)"))
                .hasMessageContaining("DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE").hasMessageContaining("parse_json(js)");
        assertThatThrownBy(() -> SqlQuery.parse("SELECT id FROM source LATERAL variant_explode(parse_json(js)) e"))
                .hasMessageContaining("LATERAL without VIEW");
    }
}
