package io.tributary.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.expressions.RowTransform;
import io.tributary.schema.Schema;
import io.tributary.settings.Setting;
import io.tributary.settings.Values;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code transform.lateralView} as the ingest takes it: the keys below it, Spark's LATERAL VIEW over the rows, its refusals. */
class LateralViewSpecsTest {
    static final Schema ROWS = Schema.parse("id INT, tags ARRAY<STRING>, props MAP<STRING, INT>");
    static final Object[] ROW = {7, List.of("a", "b"), new LinkedHashMap<>(Map.of("x", 1))};
    static final Object[] EMPTY = {8, List.of(), Map.of()};

    /** The stage's settings given by their own keys, a list's items below its key ({@code lateralView.0.as}). */
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

    private static List<String> rows(RowTransform t, Object[] row) {
        return t.apply(row).stream().map(Arrays::toString).toList();
    }

    @Test
    void aListGivesIndexedKeysAndOneViewMayBeAMapping() {
        Map<String, String> list = new LinkedHashMap<>();
        list.put("0.generator", "explode(tags)");
        list.put("0.as", "t");
        list.put("0.columns", "tag");
        list.put("1.generator", "explode(props)");
        list.put("1.as", "p");
        list.put("1.columns", "k,v");
        list.put("1.outer", "true");
        assertThat(TransformSettings.lateralViews(list, "transform.lateralView")).containsExactly(
                new LateralViewSpec("LATERAL VIEW explode(tags) `t` AS `tag`", "transform.lateralView.0"),
                new LateralViewSpec("LATERAL VIEW OUTER explode(props) `p` AS `k`, `v`", "transform.lateralView.1"));
        assertThat(TransformSettings.lateralViews(Map.of("generator", "posexplode(tags)", "as", "t"), "transform.lateralView"))
                .containsExactly(new LateralViewSpec("LATERAL VIEW posexplode(tags) `t`", "transform.lateralView"));
    }

    @Test
    void aBadItemIsRefusedNamingItsKey() {
        assertThatThrownBy(() -> TransformSettings.lateralViews(Map.of("0.generatr", "explode(tags)"), "transform.lateralView"))
                .hasMessageStartingWith("transform.lateralView.0.generatr: unknown key 'generatr'").hasMessageContaining("a lateral view is {generator: \"explode(tags)\", as: t");
        assertThatThrownBy(() -> TransformSettings.lateralViews(Map.of("0.generator", "explode(tags)"), "transform.lateralView"))
                .hasMessageStartingWith("transform.lateralView.0.as: a lateral view needs a name");
        assertThatThrownBy(() -> TransformSettings.lateralViews(Map.of("as", "t"), "transform.lateralView"))
                .hasMessageStartingWith("transform.lateralView.generator: a lateral view needs a generator call");
        assertThatThrownBy(() -> TransformSettings.lateralViews(Map.of("generator", "explode(tags)", "as", "t", "outer", "yes"),
                "transform.lateralView")).hasMessageStartingWith("transform.lateralView.outer: 'yes' is not true or false");
        Values wrongType = values(Map.of("lateralView.0.generator", "explode(id)", "lateralView.0.as", "t"));
        assertThatThrownBy(() -> RowTransforms.compile(wrongType, ROWS, null)).hasMessageStartingWith("lateralView.0: ")
                .hasMessageContaining("'id' is INT, and explode takes an ARRAY or a MAP");
        Values notAGenerator = values(Map.of("lateralView.generator", "upper(tags)", "lateralView.as", "t"));
        assertThatThrownBy(() -> RowTransforms.compile(notAGenerator, ROWS, null)).hasMessageStartingWith("lateralView: ")
                .hasMessageContaining("unknown function 'upper'");
    }

    @Test
    void theViewsRunAfterTheJoinAndBeforeWhereWhichReadsTheirQualifiedColumns() {
        Map<String, String> given = new LinkedHashMap<>();
        given.put("lateralView.0.generator", "explode(tags)");
        given.put("lateralView.0.as", "t");
        given.put("lateralView.0.columns", "tag");
        given.put("lateralView.1.generator", "explode(props)");
        given.put("lateralView.1.as", "p");
        given.put("lateralView.1.outer", "true");
        given.put("where", "t.tag <> 'b'");
        given.put("select", "id, t.tag, upper(tag) AS up, p.*");
        RowTransform t = RowTransforms.compile(values(given), ROWS, null);
        assertThat(t.output().toDdl()).isEqualTo("id INT, tag STRING, up STRING, key STRING, value INT");
        assertThat(rows(t, ROW)).containsExactly("[7, a, A, x, 1]");
        assertThat(rows(t, EMPTY)).as("explode makes no row of an empty array; OUTER would").isEmpty();

        given.put("lateralView.0.outer", "true");
        given.put("where", "t.tag IS NULL OR t.tag <> 'b'");
        assertThat(rows(RowTransforms.compile(values(given), ROWS, null), EMPTY)).containsExactly("[8, null, null, null, null]");
    }

    @Test
    void withoutASelectTheRowHasTheViewsColumnsAfterItsOwn() {
        RowTransform t = RowTransforms.compile(values(Map.of("lateralView.generator", "posexplode(tags)", "lateralView.as", "t")),
                ROWS, null);
        assertThat(t.output().toDdl()).isEqualTo("id INT, tags ARRAY<STRING>, props MAP<STRING, INT>, pos INT NOT NULL, col STRING");
        assertThat(rows(t, ROW)).containsExactly("[7, [a, b], {x=1}, 0, a]", "[7, [a, b], {x=1}, 1, b]");
    }
}
