package io.tributary.expressions.internal;

import io.tributary.schema.DataType;
import java.util.List;
import java.util.function.Consumer;

/**
 * Spark's {@code raise_error(msg)} and {@code assert_true(cond[, msg])}: the row fails with Spark's error class
 * {@code USER_RAISED_EXCEPTION} and the message, like any other row Spark fails on (the dead-letter topic, or a stop
 * under {@code onBadRecord: fail}). Both are of Spark's type VOID: their value, when the row does not fail, is null.
 */
final class RaiseErrorFunctions {
    static final String CONDITION = "USER_RAISED_EXCEPTION";

    private RaiseErrorFunctions() {
    }

    static void register(Consumer<FunctionDef> add) {
        add.accept(Fn.custom("raise_error", 1, 1, "raise_error(msg STRING) → VOID", "a null msg fails the row too",
                "fails the row with " + CONDITION + " and msg as its message", RaiseErrorFunctions::raiseError));
        add.accept(Fn.custom("assert_true", 1, 2, "assert_true(cond BOOLEAN[, msg STRING]) → VOID", "a null cond fails the row",
                "null when cond is true, else fails the row with " + CONDITION + " and msg, by default '<cond>' is not true!",
                RaiseErrorFunctions::assertTrue));
    }

    private static Bound raiseError(Analyzer.Call call, List<Bound> args) {
        Bound msg = call.as(args.get(0), DataType.STRING);
        return call.applyTolerant(List.of(msg), null, (Kernel.Unary) m -> {
            throw Failure.of(CONDITION, String.valueOf(m));
        });
    }

    private static Bound assertTrue(Analyzer.Call call, List<Bound> args) {
        Bound cond = args.get(0);
        if (cond.type() != null && !Types.is(cond.type(), DataType.Kind.BOOLEAN)) {
            throw call.typeError("[DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE] assert_true needs a BOOLEAN condition, and '" + cond.text()
                    + "' is " + Types.name(cond.type()));
        }
        Bound msg = args.size() > 1 ? call.as(args.get(1), DataType.STRING)
                : new Bound.Literal("'" + cond.text() + "' is not true!", DataType.STRING, "'" + cond.text() + "' is not true!");
        return call.applyTolerant(List.of(cond, msg), null, (Kernel.Binary) (c, m) -> {
            if (Boolean.TRUE.equals(c)) {
                return null;
            }
            throw Failure.of(CONDITION, String.valueOf(m));
        });
    }
}
