package io.tributary.expressions;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.expressions.internal.Types;
import io.tributary.schema.TributaryException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every golden case Spark 4.2 recorded ({@code golden/expressions/}) evaluates here to Spark's
 * value and type, fails with Spark's error class where Spark's ANSI mode fails the row, and is
 * refused at start where Spark refuses it at analysis.
 */
class GoldenExpressionsTest {
    @Test
    void everyCaseGivesSparksValueAndType() {
        assertThat(GoldenCase.CASES).hasSizeGreaterThan(1500);
        List<String> wrong = new ArrayList<>();
        for (GoldenCase c : GoldenCase.CASES) {
            String problem = check(c);
            if (problem != null) {
                wrong.add(c + " -> " + problem);
            }
        }
        assertThat(wrong).as("%d cases differ from Spark:%n%s", wrong.size(), String.join("\n", wrong)).isEmpty();
    }

    static String check(GoldenCase c) {
        Expression e;
        try {
            e = Expression.compile(GoldenCase.SCHEMA, c.expression());
        } catch (TributaryException refused) {
            return c.refusedBySpark() ? null : "refused (" + refused.getMessage() + "), Spark gives " + c.type() + " " + c.value();
        } catch (RuntimeException bug) {
            return "crashed at compile: " + bug;
        }
        if (c.refusedBySpark()) {
            return "accepted as " + Types.name(e.type()) + ", Spark refuses it: " + c.value();
        }
        if (!Types.name(e.type()).equals(c.type())) {
            return "type " + Types.name(e.type()) + ", Spark's " + c.type();
        }
        String got;
        try {
            got = SparkValues.canonical(e.eval(c.input()), e.type());
        } catch (ExpressionException failed) {
            got = "!" + failed.condition();
        } catch (RuntimeException bug) {
            return "crashed: " + bug;
        }
        return got.equals(c.value()) ? null : "value " + got + ", Spark's " + c.value();
    }
}
