package io.tributary.expressions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.schema.RowJson;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Spark's withColumns, withColumnsRenamed and drop after a transform's select: the columns, their order and the rows. */
class ColumnStepsTest {
    private static final Schema INPUT = Schema.parse("id INT NOT NULL, User STRING, amt DOUBLE, ts TIMESTAMP");
    private static final long DAY_2_MICROS = 2 * 86_400_000_000L + 7_200_000_000L; // 1970-01-03 02:00

    private static Map<String, String> ordered(String... pairs) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            m.put(pairs[i], pairs[i + 1]);
        }
        return m;
    }

    private static Transform steps(String where, List<String> select, ColumnSteps steps) {
        return steps.after(Transform.compile(INPUT, where, select), 0);
    }

    @Test
    void aNameOfAColumnReplacesItInPlaceAndNewNamesAreAppendedInTheOrderWritten() {
        Transform t = steps(null, null, new ColumnSteps(ordered("user", "lower(trim(user))", "day", "to_date(ts)", "amt", "amt * 2",
                "big", "amt > 10"), null, null, null));
        assertThat(t.output().toDdl()).as("User replaced in place, under the name written, as Spark's withColumns(Map)")
                .isEqualTo("id INT NOT NULL, user STRING, amt DOUBLE, ts TIMESTAMP, day DATE, big BOOLEAN");
        assertThat(t.apply(new Object[] {1, "  Ann ", 6.0, DAY_2_MICROS})).as("big reads the amt before the step, 6.0")
                .containsExactly(1, "ann", 12.0, DAY_2_MICROS, 2, false);
    }

    @Test
    void everyExpressionReadsTheColumnsAsTheyWereBeforeTheStep() {
        // Spark's withColumns(Map): amt in "doubled" is the input's amt, not the one this step replaces
        Transform t = steps(null, null, new ColumnSteps(ordered("amt", "amt + 1", "doubled", "amt * 2"), null, null, null));
        assertThat(t.output().toDdl()).isEqualTo("id INT NOT NULL, User STRING, amt DOUBLE, ts TIMESTAMP, doubled DOUBLE");
        assertThat(t.apply(new Object[] {1, "a", 5.0, 0L})).containsExactly(1, "a", 6.0, 0L, 10.0);
    }

    @Test
    void aNewColumnMayReadANewColumnWrittenBeforeItAsSparksLateralColumnAlias() {
        Transform t = steps(null, null, new ColumnSteps(ordered("n", "id * 10", "amt", "amt + 1", "m", "n + amt"), null, null, null));
        assertThat(t.output().toDdl()).isEqualTo("id INT NOT NULL, User STRING, amt DOUBLE, ts TIMESTAMP, n INT, m DOUBLE");
        assertThat(t.apply(new Object[] {2, "a", 5.0, 0L})).as("m reads the new n and the amt before the step")
                .containsExactly(2, "a", 6.0, 0L, 20, 25.0);
        assertThatThrownBy(() -> steps(null, null, new ColumnSteps(ordered("m", "n + 1", "n", "id"), null, null, null)))
                .as("only a column written before it").isInstanceOf(TributaryException.class).hasMessageStartingWith("withColumns.m: ");
    }

    @Test
    void theStepsReadWhatWhereAndSelectMade() {
        Transform t = steps("amt > 0", List.of("id", "upper(User) AS name", "amt"), new ColumnSteps(ordered("NAME", "concat(name, '!')"),
                ordered("amt", "amount"), List.of("id"), null));
        assertThat(t.output().toDdl()).isEqualTo("NAME STRING, amount DOUBLE");
        assertThat(t.apply(new Object[] {1, "ann", 2.0, 0L})).containsExactly("ANN!", 2.0);
        assertThat(t.apply(new Object[] {2, "bob", -1.0, 0L})).as("where drops the row before the steps").isNull();
        assertThat(t.rows(new Object[] {1, "ann", 2.0, 0L})).containsExactly(new Object[] {"ANN!", 2.0});
    }

    @Test
    void renameThenDropMatchNamesInAnyCaseAndIgnoreMissingOnes() {
        Transform t = steps(null, null, new ColumnSteps(null, ordered("user", "who", "nothing", "x"), List.of("WHO", "ts", "absent"), null));
        assertThat(t.output().toDdl()).as("User renamed to who, then who dropped; missing names ignored, as Spark")
                .isEqualTo("id INT NOT NULL, amt DOUBLE");
        assertThat(t.apply(new Object[] {1, "a", 5.0, 0L})).containsExactly(1, 5.0);

        Transform kept = steps(null, null, new ColumnSteps(null, ordered("user", "who"), List.of("user"), null));
        assertThat(kept.output().toDdl()).as("drop reads the renamed columns").isEqualTo("id INT NOT NULL, who STRING, amt DOUBLE, ts TIMESTAMP");
    }

    @Test
    void renamesApplyPairByPairAsSparkFoldsThem() {
        Transform t = steps(null, List.of("id", "amt"), new ColumnSteps(null, ordered("id", "a", "a", "b"), null, null));
        assertThat(t.output().toDdl()).isEqualTo("b INT NOT NULL, amt DOUBLE");
        assertThatThrownBy(() -> steps(null, null, new ColumnSteps(null, ordered("amt", "id"), null, ColumnSteps.KEYS)))
                .isInstanceOf(TributaryException.class)
                .hasMessage("withColumnsRenamed.amt: [COLUMN_ALREADY_EXISTS] the column `id` already exists; give it another name");
    }

    @Test
    void aGeneratorMakesRowsAsInSparksSelect() {
        Schema tagged = Schema.parse("id INT, tags ARRAY<STRING>");
        Transform t = new ColumnSteps(ordered("tags", "explode(tags)"), null, null, null).after(Transform.compile(tagged, null, null), 0);
        assertThat(t.output().toDdl()).isEqualTo("id INT, tags STRING");
        assertThat(t.generates()).isTrue();
        Object[] row = new RowJson(tagged).parse("{\"id\": 7, \"tags\": [\"a\", \"b\"]}");
        assertThat(t.rows(row)).containsExactly(new Object[] {7, "a"}, new Object[] {7, "b"});
        assertThatThrownBy(() -> new ColumnSteps(ordered("n", "size(explode(tags))"), null, null, null)
                .after(Transform.compile(tagged, null, null), 0)).isInstanceOf(TributaryException.class)
                .hasMessageStartingWith("withColumns.n: ").hasMessageContaining("[UNSUPPORTED_GENERATOR.NESTED_IN_EXPRESSIONS]");
    }

    @Test
    void aBadExpressionIsRefusedNamingItsKey() {
        ColumnSteps.Keys keys = new ColumnSteps.Keys("transform.withColumns", "transform.withColumnsRenamed", "transform.drop");
        assertThatThrownBy(() -> steps(null, null, new ColumnSteps(ordered("day", "to_date(missing)"), null, null, keys)))
                .isInstanceOf(TributaryException.class).hasMessageStartingWith("transform.withColumns.day: ")
                .hasMessageContaining("missing");
        assertThatThrownBy(() -> steps(null, null, new ColumnSteps(ordered("day", "to_date(ts"), null, null, keys)))
                .isInstanceOf(TributaryException.class).hasMessageStartingWith("transform.withColumns.day: ");
        assertThatThrownBy(() -> steps(null, null, new ColumnSteps(ordered("a", "1", "A", "2"), null, null, keys)))
                .isInstanceOf(TributaryException.class)
                .hasMessage("transform.withColumns.A: [COLUMN_ALREADY_EXISTS] the column `A` already exists; give it another name");
        assertThatThrownBy(() -> steps(null, null, new ColumnSteps(null, null, List.of("id", "user", "amt", "ts"), keys)))
                .isInstanceOf(TributaryException.class).hasMessageStartingWith("transform.drop: drops every column");
    }

    @Test
    void noStepsLeaveTheTransformAsItIs() {
        Transform t = Transform.compile(INPUT, "amt > 0", null);
        assertThat(ColumnSteps.NONE.after(t, 0)).isSameAs(t);
    }
}
