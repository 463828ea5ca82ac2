package io.tributary.schema;

/**
 * A row that does not fit the schema: malformed JSON, or a value of the wrong type. Names the
 * field (null when the line as a whole is malformed); the caller adds file and line.
 */
public final class BadRecordException extends TributaryException {
    private final String field;
    private final String reason;

    public BadRecordException(String field, String reason) {
        super(field == null ? reason : "field '" + field + "': " + reason);
        this.field = field;
        this.reason = reason;
    }

    /** The offending column, or null when the whole line is malformed. */
    public String field() {
        return field;
    }

    public String reason() {
        return reason;
    }
}
