package io.tributary.expressions.internal;

/**
 * A row Spark's ANSI mode fails on, inside the engine: Spark's error condition and the reason; the
 * expression's text is added by the node that failed. No stack trace: it is data about a row.
 */
public final class Failure extends RuntimeException {
    private final String condition;
    private final String reason;
    private final String expression;

    Failure(String condition, String reason, String expression) {
        super(condition + ": " + reason, null, false, false);
        this.condition = condition;
        this.reason = reason;
        this.expression = expression;
    }

    static Failure of(String condition, String reason) {
        return new Failure(condition, reason, null);
    }

    /** This failure, naming {@code text} as the expression unless an inner one is named already. */
    Failure at(String text) {
        return expression != null ? this : new Failure(condition, reason, text);
    }

    public String condition() {
        return condition;
    }

    public String reason() {
        return reason;
    }

    public String expression() {
        return expression;
    }

    static Failure overflow(String what) {
        return of("ARITHMETIC_OVERFLOW", what + " overflows");
    }

    /**
     * Spark's bare {@code java.lang.ArithmeticException} with the JDK's text, where Spark computes with {@code Math.multiplyExact}
     * (or {@code BigDecimal.longValueExact}, {@code "Overflow"}) and names no error class: {@code timestamp_seconds},
     * {@code timestamp_millis} and a DATE as a TIMESTAMP past the range.
     */
    static Failure bareArithmetic(String text) {
        return of("ArithmeticException", text);
    }

    static Failure divideByZero() {
        return of("DIVIDE_BY_ZERO", "division by zero");
    }

    static Failure invalidCast(Object value, String to) {
        return of("CAST_INVALID_INPUT", "the value '" + value + "' cannot be cast to " + to);
    }

    static Failure castOverflow(Object value, String to) {
        return of("CAST_OVERFLOW", "the value " + value + " does not fit in " + to);
    }
}
