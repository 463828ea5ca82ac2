package io.tributary.expressions;

import io.tributary.schema.TributaryException;

/**
 * A row an expression fails on where Spark's ANSI mode fails the query: a cast of text that is not
 * a number, an overflow, a division by zero. Carries the expression and Spark's error class
 * ({@code CAST_INVALID_INPUT}, {@code DIVIDE_BY_ZERO}, {@code ARITHMETIC_OVERFLOW} ...), so that the
 * caller can send the row to the dead-letter path with both. Made by {@link ExpressionErrors#failed}.
 */
public final class ExpressionException extends TributaryException {
    private final String expression;
    private final String condition;
    private final String reason;

    ExpressionException(String expression, String condition, String reason) {
        super("expression \"" + expression + "\" fails on this row: " + condition + ": " + reason);
        this.expression = expression;
        this.condition = condition;
        this.reason = reason;
    }

    /** The expression (or the part of it) that failed, as written. */
    public String expression() {
        return expression;
    }

    /** Spark's error class, e.g. {@code CAST_INVALID_INPUT}. */
    public String condition() {
        return condition;
    }

    public String reason() {
        return reason;
    }
}
