package io.tributary.expressions.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.expressions.ExpressionException;
import io.tributary.expressions.Transform;
import io.tributary.schema.Schema;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * Spark's ConstantFolding: a deterministic expression of constants is computed once, when the expression compiles, to the
 * value the row-by-row evaluation gives, arrays, structs, maps and bytes too (each row gets its own copy); a random function,
 * the batch's time and a constant that fails are left to each row.
 */
@SuppressWarnings("unchecked")
class ConstantFoldingTest {
    private static final Schema INPUT = Schema.parse("i INT, s STRING");

    private static Bound bound(String text) {
        return new Analyzer(INPUT, text, new BatchClock()).resolve(Parsing.expression(text, null));
    }

    @ParameterizedTest
    @ValueSource(strings = {"make_interval(1, 2, 0, 3, 0, 0, 0)", "INTERVAL 1 DAY * 2", "to_date('2024-01-01')", "upper('x')", "1 + 2",
            "IF(1 > 0, 'yes', 'no')", "2 IN (1, 2, 3)", "coalesce(NULL, 1 + 1)", "NULL + 1", "CAST('2024-01-01 10:00:00' AS TIMESTAMP)",
            "upper(current_catalog())"})
    void aConstantIsComputedOnceToTheValueEachRowWouldGive(String text) {
        Bound b = bound(text);
        Object[] folded = Folding.fold(b);
        assertThat(folded).as(text).isNotNull();
        assertThat(folded[0]).as(text).isEqualTo(Interpreter.eval(b, new Object[] {7, "a"}));
        assertThat(Compiler.compile(b).eval(null)).as("%s reads no row", text).isEqualTo(folded[0]);
    }

    @ParameterizedTest
    @ValueSource(strings = {"array(1, 2)", "array(array(1), array(2, 3))", "named_struct('a', 1, 'b', 'x')", "struct(1, 'a')",
            "named_struct('a', array(1, 2), 'b', map('k', x'01'))", "map(1, 'a', 2, 'b')", "map_keys(map(1, 'a', 2, 'b'))", "unhex('0102')",
            "encode('ab', 'UTF-8')", "sort_array(array(3, 1, 2))", "coalesce(NULL, array(1, 2))", "if(1 > 0, array(1), array(2))"})
    void arraysStructsMapsAndBytesAreComputedOnceAndEachRowGetsItsOwnCopy(String text) {
        Bound b = bound(text);
        Object[] folded = Folding.fold(b);
        assertThat(folded).as(text).isNotNull();
        Compiler.Eval compiled = Compiler.compile(b);
        Object first = compiled.eval(new Object[] {1, "a"});
        Object second = compiled.eval(new Object[] {2, "b"});
        assertThat(first).as(text).usingRecursiveComparison().isEqualTo(Interpreter.eval(b, new Object[] {1, "a"}));
        assertThat(second).as(text).usingRecursiveComparison().isEqualTo(first);
        assertThat(second).as("%s: each row's own copy", text).isNotSameAs(first);
        assertThat(Folding.sharesValue(b)).as(text).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"array_contains(array(1, 2, 7), i)", "element_at(map(1, 'a', 2, 'b'), i)", "size(array(1, 2)) + i",
            "length(x'0A0B')", "i + 1", "array(i, 1)", "to_json(named_struct('a', array(1, 2)))"})
    void aValueThatHoldsNoConstantArrayStructMapOrBytesIsNotCopied(String text) {
        assertThat(Folding.sharesValue(bound(text))).as(text).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"coalesce(NULL, array(1, 2))", "named_struct('a', i, 'b', array(1, 2))", "if(i > 0, array(1), array(i))",
            "element_at(array(array(1), array(2)), i)", "transform(array(i), x -> array(1, 2))", "x'0A'"})
    void aValueThatMayHoldAConstantArrayStructMapOrBytesIsCopiedForEachRow(String text) {
        Bound b = bound(text);
        assertThat(Folding.sharesValue(b)).as(text).isTrue();
        Compiler.Eval compiled = Compiler.compile(b);
        Object first = compiled.eval(new Object[] {1, "a"});
        assertThat(first).as(text).usingRecursiveComparison().isEqualTo(Interpreter.eval(b, new Object[] {1, "a"}));
        assertThat(compiled.eval(new Object[] {1, "a"})).as(text).isNotSameAs(first);
    }

    @Test
    void aRowThatChangesItsFoldedValueLeavesTheNextRowsAlone() {
        Transform t = Transform.compile(INPUT, null, List.of("array(1, 2) AS a", "named_struct('x', i, 'y', array('p')) AS s",
                "named_struct('x', 1, 'y', map('k', x'0A')) AS c", "x'0A0B' AS b"));
        Object[] one = t.apply(new Object[] {1, "a"});
        ((List<Object>) one[0]).set(0, 99);
        ((List<Object>) ((Object[]) one[1])[1]).add("q");
        ((java.util.Map<Object, Object>) ((Object[]) one[2])[1]).clear();
        ((byte[]) one[3])[0] = 0;
        Object[] two = t.apply(new Object[] {2, "b"});
        assertThat(two[0]).isEqualTo(List.of(1, 2));
        assertThat(((Object[]) two[1])[1]).isEqualTo(List.of("p"));
        assertThat((Object) ((java.util.Map<Object, Object>) ((Object[]) two[2])[1]).keySet()).isEqualTo(java.util.Set.of("k"));
        assertThat((byte[]) two[3]).containsExactly(0x0A, 0x0B);
    }

    @ParameterizedTest
    @ValueSource(strings = {"rand(1)", "rand()", "uniform(1, 10, 3)", "uuid()", "randstr(4, 1)", "shuffle(array(1, 2, 3), 1)",
            "current_timestamp()", "now()", "current_date()", "1 / 0", "CAST('x' AS INT)", "i + 1", "upper(s)", "hex(aes_encrypt('a', '0000111122223333'))", "transform(array(1, 2), x -> x + 1)"})
    void randomBatchTimedFailingOrSharedValuesAreNotFolded(String text) {
        assertThat(Folding.fold(bound(text))).as(text).isNull();
    }

    @Test
    void aConstantThatFailsFailsEachRowItReachesWithTheSameMessage() {
        Transform t = Transform.compile(INPUT, null, List.of("CASE WHEN i > 0 THEN 2 * 3 ELSE 1 / 0 END AS x", "i + 1 / 0 AS y"));
        Transform only = Transform.compile(INPUT, null, List.of("CASE WHEN i > 0 THEN 2 * 3 ELSE 1 / 0 END AS x"));
        assertThat(only.apply(new Object[] {1, "a"})).containsExactly(6.0);
        assertThatThrownBy(() -> only.apply(new Object[] {0, "a"})).isInstanceOf(ExpressionException.class)
                .hasMessageContaining("DIVIDE_BY_ZERO").hasMessageContaining("1 / 0");
        assertThatThrownBy(() -> t.apply(new Object[] {1, "a"})).isInstanceOf(ExpressionException.class)
                .hasMessageContaining("DIVIDE_BY_ZERO").hasMessageContaining("1 / 0");
    }

    @Test
    void randomFunctionsAndTheBatchTimeStayPerRowAndPerBatch() {
        Transform t = Transform.compile(INPUT, null, List.of("rand(1) + 1 AS r", "uuid() AS u", "current_timestamp() AS ts",
                "date_format(current_timestamp(), 'HH:mm:ss') AS hms"));
        t.startBatch(Instant.parse("2026-12-06T10:00:00Z"));
        Object[] a = t.apply(new Object[] {1, "a"});
        Object[] b = t.apply(new Object[] {2, "b"});
        assertThat(a[0]).isNotEqualTo(b[0]);
        assertThat(a[1]).isNotEqualTo(b[1]);
        assertThat(a[3]).isEqualTo("10:00:00");
        t.startBatch(Instant.parse("2026-12-06T11:30:00Z"));
        Object[] c = t.apply(new Object[] {1, "a"});
        assertThat(c[2]).isNotEqualTo(a[2]);
        assertThat(c[3]).isEqualTo("11:30:00");
    }
}
