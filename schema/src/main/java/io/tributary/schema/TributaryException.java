package io.tributary.schema;

/**
 * The one user-facing exception of Tributary. Its message says the problem, the cause and the
 * fix, in words an operator reads once. Subclasses exist only where a caller branches on them.
 */
public class TributaryException extends RuntimeException {
    public TributaryException(String message) {
        super(message);
    }

    public TributaryException(String message, Throwable cause) {
        super(message, cause);
    }
}
