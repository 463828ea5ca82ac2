package io.tributary.expressions.internal;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.Set;

/**
 * Spark's foldable expressions: a literal, or a function of literals only, whose value is known before the first row (a
 * format, a pattern, an escape); and Spark's {@code ConstantFolding}, which computes a deterministic constant subtree once
 * when the expression is compiled ({@link #fold}).
 */
final class Folding {
    /**
     * Functions whose value is not a function of their arguments: the batch's time (read anew each batch), and
     * {@code aes_encrypt}, which draws a fresh initialization vector each time (the random functions are {@link RandomFunctions#NAMES}).
     */
    private static final Set<String> UNFOLDABLE = Set.of("aes_encrypt");

    private Folding() {
    }

    static boolean constant(Bound b) {
        return b instanceof Bound.Literal || b instanceof Bound.Apply a && a.args().stream().allMatch(Folding::constant);
    }

    /** The value of a {@link #constant} node. */
    static Object value(Bound b) {
        return Interpreter.eval(b, new Object[0]);
    }

    /**
     * Whether {@code b} reads no column and calls nothing whose value changes from call to call (a random function, the
     * batch's time): Spark's {@code foldable} and {@code deterministic} together. A lambda's parameter is a column, so a
     * higher-order function is never one.
     */
    static boolean deterministicConstant(Bound b) {
        if (b instanceof Bound.Literal) {
            return true;
        }
        if (b instanceof Bound.Apply a) {
            String name = a.name().toLowerCase(Locale.ROOT);
            return !RandomFunctions.NAMES.contains(name) && !BatchTimeFunctions.isBatchTime(name) && !UNFOLDABLE.contains(name)
                    && a.args().stream().allMatch(Folding::deterministicConstant);
        }
        if (b instanceof Bound.Logic l) {
            return deterministicConstant(l.left()) && deterministicConstant(l.right());
        }
        if (b instanceof Bound.Case c) {
            return c.conditions().stream().allMatch(Folding::deterministicConstant) && c.values().stream().allMatch(Folding::deterministicConstant)
                    && (c.otherwise() == null || deterministicConstant(c.otherwise()));
        }
        if (b instanceof Bound.Coalesce c) {
            return c.args().stream().allMatch(Folding::deterministicConstant);
        }
        if (b instanceof Bound.In in) {
            return deterministicConstant(in.value()) && in.list().stream().allMatch(Folding::deterministicConstant);
        }
        return false; // a column, a lambda, a higher-order function
    }

    /**
     * {@code node} computed once, as Spark's {@code ConstantFolding} computes it before the first row, when it is a
     * {@link #deterministicConstant} other than a literal whose value is immutable (a number, text, a boolean, a date,
     * a timestamp, an interval: rows may share it); else null. A constant that fails ({@code 1 / 0}, a bad cast) is not
     * folded: it fails each row that reaches it, with the same message, as Spark's query fails as it runs.
     */
    static Object[] fold(Bound node) {
        if (node instanceof Bound.Literal || !deterministicConstant(node)) {
            return null;
        }
        Object v;
        try {
            v = value(node);
        } catch (RuntimeException fails) {
            return null;
        }
        return immutable(v) ? new Object[] {v} : null;
    }

    private static boolean immutable(Object v) {
        return v == null || v instanceof String || v instanceof Boolean || v instanceof Integer || v instanceof Long || v instanceof Double
                || v instanceof Float || v instanceof Short || v instanceof Byte || v instanceof BigDecimal || v instanceof CalendarInterval;
    }
}
