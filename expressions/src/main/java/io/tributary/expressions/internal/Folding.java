package io.tributary.expressions.internal;

/**
 * Spark's foldable arguments: a literal, or a function of literals only, whose value is known before the first row (a
 * format, a pattern, an escape).
 */
final class Folding {
    private Folding() {
    }

    static boolean constant(Bound b) {
        return b instanceof Bound.Literal || b instanceof Bound.Apply a && a.args().stream().allMatch(Folding::constant);
    }

    /** The value of a {@link #constant} node. */
    static Object value(Bound b) {
        return Interpreter.eval(b, new Object[0]);
    }
}
