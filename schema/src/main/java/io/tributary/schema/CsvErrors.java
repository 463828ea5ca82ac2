package io.tributary.schema;

/** The errors of reading a CSV record's values ({@link CsvValues}): a record or value that does not fit the schema. */
final class CsvErrors {
    private CsvErrors() {
    }

    /** When a CSV record has another number of values than the schema has columns. */
    static BadRecordException wrongFieldCount(int values, int columns, String ddl) {
        return new BadRecordException(null, "malformed CSV record: " + values + (values == 1 ? " value" : " values") + " for "
                + columns + " columns (" + ddl + ")");
    }

    /** When a NOT NULL CSV column is empty. */
    static BadRecordException nullInNotNull(String field) {
        return new BadRecordException(field, "is null, but the column is NOT NULL");
    }

    /** When a CSV number does not fit in its column's type. */
    static BadRecordException doesNotFit(String field, String text, String ddl) {
        return new BadRecordException(field, text + " does not fit in " + ddl);
    }

    /** When a CSV DATE value is not a date. */
    static BadRecordException notADate(String field, String text, String expectedDate) {
        return new BadRecordException(field, "'" + text + "' is not a date (expected " + expectedDate + ")");
    }

    /** When a CSV TIMESTAMP value is not a timestamp. */
    static BadRecordException notATimestamp(String field, String text, String expectedTimestamp) {
        return new BadRecordException(field, "'" + text + "' is not a timestamp (expected " + expectedTimestamp + ")");
    }

    /** When a CSV value cannot be read as its column's type. */
    static BadRecordException wrongType(String field, String ddl, String text) {
        return new BadRecordException(field, "expected " + ddl + ", found '" + text + "'");
    }
}
