package io.tributary.schema;

/** The schema module's user-facing errors: a schema that cannot be read, a row that does not fit it. */
final class SchemaErrors {
    private SchemaErrors() {
    }

    /** When a time-zone setting names no time zone. */
    static TributaryException badTimeZone(String setting, String id) {
        return new TributaryException(setting + ": '" + id + "' is not a time zone; use a region such as America/New_York, an "
                + "offset such as +01:00, or UTC");
    }

    /** When a line ends before its JSON does. */
    static BadRecordException truncatedLine() {
        return new BadRecordException(null, "malformed JSON: unexpected end of line (truncated record?)");
    }

    /** When a line is not JSON; the parser's message says where. */
    static BadRecordException malformedJson(String message) {
        return new BadRecordException(null, "malformed JSON: " + message);
    }

    /** When a line holds a JSON value other than an object. */
    static BadRecordException notAnObject(String found) {
        return new BadRecordException(null, "expected a JSON object, found " + found);
    }

    /** When a line holds more after its JSON object. */
    static BadRecordException trailingContent(String found) {
        return new BadRecordException(null, "found " + found + " after the JSON object; write one JSON object per line");
    }

    /** When a line's JSON object is cut off or malformed. */
    static BadRecordException malformedObject() {
        return new BadRecordException(null, "malformed JSON object");
    }

    /** When a NOT NULL column is null or missing in a row. */
    static BadRecordException missingNotNull(String field) {
        return new BadRecordException(field, "is null or missing, but the column is NOT NULL");
    }

    /** When a DATE column's text is not a date. */
    static BadRecordException notADate(String field, String text, String expectedDate) {
        return new BadRecordException(field, "'" + text + "' is not a date (expected " + expectedDate + ")");
    }

    /** When a TIMESTAMP column's text is not a timestamp. */
    static BadRecordException notATimestamp(String field, String text, String expectedTimestamp) {
        return new BadRecordException(field, "'" + text + "' is not a timestamp (expected " + expectedTimestamp + ")");
    }

    /** When a TIMESTAMP column's number of seconds is out of range. */
    static BadRecordException epochOutOfRange(String field, String text) {
        return new BadRecordException(field, text + " seconds since the epoch is out of range");
    }

    /** When a field of a STRUCT column is bad: the field's path, the field's reason. */
    static BadRecordException inStructField(String path, String reason) {
        return new BadRecordException(path, reason);
    }

    /** When a BINARY column's text is not base64. */
    static BadRecordException notBase64(String field, String message) {
        return new BadRecordException(field, "is not base64: " + message);
    }

    /** When a VARIANT column's JSON is not the canonical {@code {"value": "<base64>", "metadata": "<base64>"}}. */
    static BadRecordException notAVariant(String field, String found) {
        return new BadRecordException(field, "expected VARIANT, an object {\"value\": \"<base64>\", \"metadata\": \"<base64>\"} "
                + "(Spark's variant encoding), found " + found);
    }

    /** When a column's JSON value is of another type than the column's; {@code scalarText} is the value's text, null when it is no scalar. */
    static BadRecordException wrongType(String field, String ddl, String found, String scalarText) {
        return new BadRecordException(field, "expected " + ddl + ", found " + found
                + (scalarText == null ? "" : " " + scalarText));
    }

    /** When an ARRAY column's JSON array is cut off or malformed. */
    static BadRecordException malformedArray(String field) {
        return new BadRecordException(field, "malformed JSON array");
    }

    /** When an element of an ARRAY column is bad: its index and the path within it, and its reason. */
    static BadRecordException inArray(String field, int index, String subPath, String reason) {
        return new BadRecordException(field + "[" + index + "]" + subPath, reason);
    }

    /** When a value of a MAP column is bad: its key and the path within it, and its reason. */
    static BadRecordException inMap(String field, String key, String subPath, String reason) {
        return new BadRecordException(field + "." + key + subPath, reason);
    }

    /** When a key of a MAP column's JSON object is not a text of the map's key type. */
    static BadRecordException badMapKey(String field, String key, String keyType) {
        return new BadRecordException(field, "key '" + key + "' does not cast to " + keyType);
    }

    /** When a MAP column's JSON object is cut off or malformed. */
    static BadRecordException malformedMap(String field) {
        return new BadRecordException(field, "malformed JSON object");
    }

    /** When an integral or decimal number does not fit in its column's type. */
    static BadRecordException doesNotFit(String field, String text, String ddl) {
        return new BadRecordException(field, text + " does not fit in " + ddl);
    }

    /** When a DECIMAL column's text is not a number. */
    static BadRecordException notADecimal(String field, String text) {
        return new BadRecordException(field, "'" + text + "' is not a decimal number");
    }

    /** When a schema names a column twice. */
    static TributaryException duplicateColumn(String column) {
        return new TributaryException("schema: column '" + column + "' appears twice (names are case-insensitive, as in "
                + "Spark); rename one of them");
    }

    /** When a schema has no columns. */
    static TributaryException noColumns() {
        return new TributaryException("schema: no columns; write one or more as \"name TYPE, ...\", e.g. \"id INT, ts "
                + "TIMESTAMP\"");
    }

    /** When a schema's text is empty. */
    static TributaryException emptySchema() {
        return new TributaryException("schema: empty; write the columns as \"name TYPE, ...\", e.g. \"id INT, user STRING, ts "
                + "TIMESTAMP\"");
    }

    /** When a column definition is not "name TYPE"; {@code struct} names the STRUCT it is a field of, or is null. */
    static TributaryException badColumnDefinition(String col, String struct) {
        return new TributaryException("schema: cannot read column definition '" + col + "'"
                + (struct == null ? "" : " in struct '" + struct + "'")
                + "; write it as \"name TYPE\", e.g. \"amt DOUBLE\" (names with spaces go in backticks)");
    }

    /** When a STRUCT's field definition is bad: the field's error, and the struct. */
    static TributaryException inStruct(String fieldError, String struct) {
        return new TributaryException(fieldError + " (in struct '" + struct + "')");
    }

    /** When a column is an empty STRUCT<>. */
    static TributaryException emptyStruct(String column) {
        return new TributaryException("schema: column '" + column + "' is an empty STRUCT<>; list its fields, e.g. "
                + "STRUCT<start: TIMESTAMP, end: TIMESTAMP>");
    }

    /** When a column is an empty ARRAY<>. */
    static TributaryException emptyArray(String column) {
        return new TributaryException("schema: column '" + column + "' is an empty ARRAY<>; give its element type, e.g. "
                + "ARRAY<STRING>");
    }

    /** When a MAP column does not name its key and value types. */
    static TributaryException badMap(String column, String text) {
        return new TributaryException("schema: column '" + column + "' has " + text + "; a MAP names its key and value types, "
                + "e.g. MAP<STRING, INT>");
    }

    /** When a MAP column's keys are a STRUCT, an ARRAY or a MAP. */
    static TributaryException nestedMapKeys(String column, String text, String ddl) {
        return new TributaryException("schema: column '" + column + "' has " + text + ", a map with " + ddl
                + " keys; a map's keys here are of a primitive type (numbers, STRING, BOOLEAN, DATE, TIMESTAMP, ...), "
                + "e.g. MAP<INT, STRING>");
    }

    /** When a DECIMAL's precision or scale is out of range. */
    static TributaryException badDecimal(String column, String text) {
        return new TributaryException("schema: column '" + column + "' has " + text + "; a DECIMAL needs 1 <= precision <= 38 "
                + "and scale <= precision, e.g. DECIMAL(10,2)");
    }

    /** When a column's type is one Tributary does not support yet. */
    static TributaryException unsupportedType(String column, String text) {
        String instead = text.strip().toUpperCase(java.util.Locale.ROOT).startsWith("VARIANT")
                ? "read it as STRING, which holds the value's JSON text, and take its parts in the transform: variant_get(parse_json("
                        + Schema.quote(column) + "), '$.a', 'int')"
                : "use a primitive type (STRING holds the raw JSON text of a nested value)";
        return new TributaryException("schema: column '" + column + "' has type " + text + ", which Tributary does not support yet; " + instead);
    }

    /** When a column's type is not a type. */
    static TributaryException unknownType(String column, String text, String validTypes) {
        return new TributaryException("schema: column '" + column + "' has unknown type '" + text + "'; use one of "
                + validTypes);
    }

    /** When a setting names a column the schema does not have. */
    static TributaryException notInSchema(String what, String name, String ddl) {
        return new TributaryException(what + ": column '" + name + "' is not in the schema (" + ddl + ")");
    }
}
