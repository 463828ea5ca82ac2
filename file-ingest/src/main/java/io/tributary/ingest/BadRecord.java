package io.tributary.ingest;

/**
 * One input line that could not become a row: malformed JSON, a value of the wrong type, invalid
 * UTF-8, a line too long. What the dead-letter topic holds and what a failing run names.
 *
 * @param file the file's path relative to the input folder, printable ({@link io.tributary.schema.Printable#escape})
 * @param line the 1-based line number in the file
 * @param field the offending column, or null when the line as a whole is bad
 * @param reason why, in words
 * @param text the line's text, possibly cut to a bounded length (see {@code textTruncated})
 * @param textTruncated whether {@code text} is only the start of the line
 */
public record BadRecord(String file, long line, String field, String reason, String text, boolean textTruncated) {

    /** {@code file:line, field 'f': reason}: the words every message about this row starts with. */
    public String describe() {
        return file + ":" + line + (field == null ? "" : ", field '" + field + "'") + ": " + reason;
    }
}
