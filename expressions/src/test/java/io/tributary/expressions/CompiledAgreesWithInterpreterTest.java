package io.tributary.expressions;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.schema.TributaryException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.Test;

/**
 * The compiled form and the interpreter give the same value, or fail with the same error class and
 * expression, on every golden case: the compiled closures are checked against the plain tree walk.
 */
class CompiledAgreesWithInterpreterTest {
    @Test
    void bothFormsAgreeOnEveryGoldenCase() {
        List<String> differ = new ArrayList<>();
        int evaluated = 0;
        for (GoldenCase c : GoldenCase.CASES) {
            Expression e;
            try {
                e = Expression.compile(GoldenCase.SCHEMA, c.expression());
            } catch (TributaryException refused) {
                continue;
            }
            String compiled = outcome(() -> e.eval(c.input()), e);
            String interpreted = outcome(() -> e.interpret(c.input()), e);
            evaluated++;
            if (!Objects.equals(compiled, interpreted)) {
                differ.add(c + ": compiled " + compiled + ", interpreted " + interpreted);
            }
        }
        assertThat(evaluated).isGreaterThan(1500);
        assertThat(differ).isEmpty();
    }

    private static String outcome(java.util.function.Supplier<Object> eval, Expression e) {
        try {
            return SparkValues.canonical(eval.get(), e.type());
        } catch (ExpressionException failed) {
            return "!" + failed.condition() + " in " + failed.expression();
        }
    }
}
