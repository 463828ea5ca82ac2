package io.tributary.expressions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import org.junit.jupiter.api.Test;

/**
 * The words ILIKE, ANY and SOME stay names a column may have, as in Spark's default mode, beside the predicates they make;
 * a quantified LIKE with no pattern is refused naming it (the golden cases hold the values).
 */
class LikeQuantifiersTest {
    private static final Schema INPUT = Schema.parse("`any` INT, `some` INT, ilike STRING");
    private static final Object[] ROW = {2, 3, "Abc"};

    private static Object eval(String expression) {
        return Expression.compile(INPUT, expression).eval(ROW);
    }

    @Test
    void columnsNamedAnySomeAndIlikeAreStillColumns() {
        assertThat(eval("any + some")).isEqualTo(5);
        assertThat(eval("ilike ILIKE 'a%'")).isEqualTo(true);
        assertThat(eval("ilike LIKE ANY ('x', ilike)")).isEqualTo(true);
        assertThat(eval("ilike NOT ILIKE SOME ('abc', 'ABC')")).isEqualTo(false);
        assertThat(eval("ilike LIKE any")).isEqualTo(false);
    }

    @Test
    void aQuantifiedLikeOfNoPatternIsRefusedNamingIt() {
        String refusal = catchThrowableOfType(TributaryException.class, () -> Expression.compile(INPUT, "ilike LIKE ALL ()")).getMessage();
        assertThat(refusal).contains("ilike LIKE ALL ()").contains("like all");
    }

    @Test
    void aPatternThatIsNotConstantIsReadForEachRow() {
        Expression e = Expression.compile(INPUT, "ilike ILIKE ANY (concat(ilike, '%'), 'z')");
        assertThat(e.eval(ROW)).isEqualTo(true);
        assertThat(e.eval(new Object[] {1, 1, "50%"})).isEqualTo(true);
    }
}
