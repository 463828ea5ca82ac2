package io.tributary.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.expressions.RowTransform;
import io.tributary.schema.RowJson;
import io.tributary.schema.Schema;
import io.tributary.settings.Setting;
import io.tributary.settings.Values;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * variant_explode in a pipeline's transform: a {@code sql:} query's table function gives the source's rows with the fields of
 * their JSON, its VARIANT value read in the select list; a value left a column of the table, and the forms Spark 4.2 does not
 * take, are refused at start naming the key.
 */
class VariantExplodeSpecsTest {
    private static final Schema ROWS = Schema.parse("id INT, payload STRING");
    private static final Object[] ROW = new RowJson(ROWS).parse("{\"id\": 3, \"payload\": \"{\\\"qty\\\": 2, \\\"sku\\\": \\\"p1\\\"}\"}");

    private static Values values(Map<String, String> given) {
        Map<String, Setting<?>> definitions = new LinkedHashMap<>();
        TransformSettings.ALL.forEach(s -> definitions.put(s.key(), s));
        return new Values(definitions, s -> given.get(s.key()), s -> below(given, s.key() + "."), (s, t, e) -> e);
    }

    private static Map<String, String> below(Map<String, String> given, String prefix) {
        Map<String, String> out = new LinkedHashMap<>();
        given.forEach((k, v) -> {
            if (k.startsWith(prefix)) {
                out.put(k.substring(prefix.length()), v);
            }
        });
        return out;
    }

    private static Values sql(String query) {
        return Values.localized(List.of(TransformSettings.SQL, TransformSettings.JOIN_MAX_ROWS), s -> s, Map.of("sql", query)::get,
                (s, t, e) -> e);
    }

    @Test
    void aQueryJoinsTheFieldsOfEachRowsJson() {
        RowTransform t = RowTransforms.compile(sql("SELECT s.id, e.key, to_json(e.value) AS value FROM source s,"
                + " LATERAL variant_explode(parse_json(s.payload)) AS e WHERE e.key <> 'sku'"), ROWS, null);
        assertThat(t.output().toDdl()).isEqualTo("id INT, key STRING, value STRING");
        assertThat(t.apply(ROW).stream().map(Arrays::toString).toList()).containsExactly("[3, qty, 2]");
    }

    @Test
    void aVariantValueLeftAColumnStaysAVariantColumn() {
        RowTransform t = RowTransforms.compile(sql("SELECT * FROM source, LATERAL variant_explode(parse_json(payload))"), ROWS, null);
        assertThat(t.output().toDdl()).isEqualTo("id INT, payload STRING, pos INT NOT NULL, key STRING, value VARIANT NOT NULL");
        assertThat(t.apply(ROW).stream().map(r -> r[3] + "=" + r[4].getClass().getSimpleName()).toList())
                .containsExactly("qty=VariantValue", "sku=VariantValue");
    }

    @Test
    void aLateralViewOfVariantExplodeIsRefusedAsSparkRefusesIt() {
        Values view = values(Map.of("lateralView.generator", "variant_explode(parse_json(payload))", "lateralView.as", "t"));
        assertThatThrownBy(() -> RowTransforms.compile(view, ROWS, null)).hasMessageStartingWith("lateralView: ")
                .hasMessageContaining("[ROUTINE_NOT_FOUND]").hasMessageContaining("FROM source, LATERAL variant_explode(v) e");
        assertThatThrownBy(() -> RowTransforms.compile(values(Map.of("select", "id, variant_explode(parse_json(payload))")), ROWS, null))
                .hasMessageContaining("[NOT_A_SCALAR_FUNCTION]");
    }
}
