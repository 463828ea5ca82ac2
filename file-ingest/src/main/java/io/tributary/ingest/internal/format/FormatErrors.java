package io.tributary.ingest.internal.format;

import io.tributary.schema.BadRecordException;
import io.tributary.schema.TributaryException;

/** The errors of reading input files by format: a line, record or column that the format's reader cannot read. */
final class FormatErrors {
    private FormatErrors() {
    }

    /** When a file has a field the schema lacks and schemaEvolution is failOnNewColumns. */
    static TributaryException newFieldRefused(String file, long line, String field, String rescuedData) {
        return new TributaryException("file " + file + " line " + line + ": field '" + field + "' is not in the schema, and "
                + "source.files.schemaEvolution is failOnNewColumns. Add it to source.files.schema, or set schemaEvolution to "
                + "addNewColumns (grow the schema) or rescue (keep it in " + rescuedData + "), or remove the file");
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

    /** When a datetime pattern option is not a pattern. */
    static TributaryException badDatetimePattern(String option, String pattern, String message) {
        return new TributaryException("source.files.options." + option + ": '" + pattern + "' is not a datetime pattern ("
                + message + "); write it as Spark does, e.g. yyyy-MM-dd HH:mm:ss or dd/MM/yyyy");
    }

    /** When a wholetext file is longer than maxLineBytes. */
    static BadRecordException wholeTextTooLong(long wholeLength, int maxLineBytes) {
        return new BadRecordException(null, "the file is " + wholeLength + " bytes, longer than maxLineBytes (" + maxLineBytes
                + ") that wholetext reads as one row; raise maxLineBytes");
    }

    /** When a line is longer than maxLineBytes. */
    static BadRecordException lineTooLong(long fullLength, int maxLineBytes) {
        return new BadRecordException(null, "the line is " + fullLength + " bytes, longer than maxLineBytes (" + maxLineBytes
                + "); raise maxLineBytes or split the record");
    }

    /** When a line is not valid UTF-8. */
    static BadRecordException invalidUtf8(int invalidAt) {
        return new BadRecordException(null, "invalid UTF-8 at byte " + invalidAt + " of the line; the file must be UTF-8 "
                + "encoded");
    }

    /** When a multiLine document's top-level array holds something other than objects. */
    static BadRecordException notObjectsInArray(String found) {
        return new BadRecordException(null, "expected JSON objects in the top-level array, found " + found);
    }

    /** When a multiLine document is neither an object nor an array of objects. */
    static BadRecordException notAnObjectOrArray(String found) {
        return new BadRecordException(null, "expected a JSON object or an array of objects, found " + found);
    }

    /** When a multiLine file holds more after its document. */
    static BadRecordException trailingContent(String found) {
        return new BadRecordException(null, "found " + found + " after the JSON document; a multiLine file holds one document");
    }

    /** When a multiLine JSON document is longer than maxLineBytes. */
    static BadRecordException documentTooLong(long length, int maxBytes) {
        return new BadRecordException(null, "the file is " + length + " bytes, longer than maxLineBytes (" + maxBytes
                + "), the most a multiLine JSON document may hold; raise maxLineBytes");
    }

    /** When a Parquet file has a repeated field outside a LIST group. */
    static TributaryException repeatedOutsideList(String file, String path, String found) {
        return new TributaryException("file " + file + ": column '" + path + "' is a repeated Parquet field outside a LIST "
                + "group (" + found + "), a form Tributary does not read; rewrite the file with LIST groups (as Spark writes "
                + "them)");
    }

    /** When a Parquet column cannot be read as its schema type. */
    static TributaryException parquetTypeMismatch(String file, String path, String found, String ddl) {
        return new TributaryException("file " + file + ": column '" + path + "' is Parquet " + found + ", which cannot be "
                + "read as " + ddl + " (Spark's Parquet reader refuses it too); give the column the file's type in "
                + "source.files.schema");
    }

    /** When a CSV record is malformed. */
    static BadRecordException malformedCsv(String firstLine) {
        return new BadRecordException(null, "malformed CSV: " + firstLine);
    }

    /** When a Parquet map has keys that are not strings. */
    static TributaryException nonStringMapKeys(String file, String column, String ddl) {
        return new TributaryException("file " + file + ": column '" + column + "' is a map with " + ddl + " keys, which "
                + "Tributary does not read (MAP<STRING, ...> only); give source.files.schema without it");
    }

    /** When a debezium-json line holds more after its event. */
    static BadRecordException trailingAfterEvent(String found) {
        return new BadRecordException(null, "found " + found + " after the Debezium change event; a line holds one event");
    }

    /** When a debezium-json record is not a JSON object (nor null, a tombstone). */
    static BadRecordException notAnEvent(String found) {
        return new BadRecordException(null, "not a Debezium change event: expected a JSON object (the envelope, or"
                + " {\"schema\": ..., \"payload\": ...}) or null (a tombstone), found " + found);
    }

    /** When a field of a Debezium envelope has a value of the wrong kind. */
    static BadRecordException envelopeFieldType(String field, String expected, String found) {
        return new BadRecordException(field, "expected " + expected + " in the Debezium envelope, found " + found);
    }

    /** When a column of a Debezium event's before or after cannot be read by the schema. */
    static BadRecordException inImage(String image, BadRecordException e) {
        return new BadRecordException(e.field() == null ? image : image + "." + e.field(), e.reason());
    }

    /** When a Debezium event has no op. */
    static BadRecordException noOp() {
        return new BadRecordException("op", "is missing: not a Debezium change event (an envelope has before, after, source,"
                + " op and ts_ms; with the JSON converter's schemas, under payload)");
    }

    /** When a create, read or update event has no after. */
    static BadRecordException noImage(String op, String image) {
        return new BadRecordException(image, "is null, but op is '" + op + "', whose row is its " + image);
    }

    /** When a delete event has no before: its key is not in the event. */
    static BadRecordException deleteWithoutBefore() {
        return new BadRecordException("before", "is null in a delete (op 'd'), so the deleted key is unknown; a PostgreSQL"
                + " table needs REPLICA IDENTITY DEFAULT (a primary key) or FULL for its deletes to carry the key");
    }

    /** When op is not one of Debezium's operations. */
    static BadRecordException unknownOp(String op) {
        return new BadRecordException("op", "'" + op + "' is not an operation of a Debezium change event: c (create),"
                + " r (read, a snapshot), u (update), d (delete) or t (truncate)");
    }

    /** When a Debezium event has no source block to take the sequence from. */
    static BadRecordException noSource(java.util.List<String> sequence) {
        return new BadRecordException("source", "is missing, so the event has no sequence (source.files.debezium.sequence: "
                + sequence + ")");
    }

    /** When a field of the sequence is absent from the event's source block. */
    static BadRecordException missingSequence(String field) {
        return new BadRecordException(field, "is missing, and source.files.debezium.sequence names it; name the source"
                + " fields the connector writes: lsn (PostgreSQL), [file, pos, row] (MySQL), ts_ms (any)");
    }

    /** When a one-field sequence is not a whole number. */
    static BadRecordException notWholeSequence(String field, String json) {
        return new BadRecordException(field, json + " is not a whole number; a sequence of one field is a BIGINT (name two"
                + " or more fields in source.files.debezium.sequence for a text sequence)");
    }

    /** When a whole number of a text sequence is negative. */
    static BadRecordException negativeSequence(String field, long value) {
        return new BadRecordException(field, value + " is negative; a sequence orders whole numbers from 0");
    }

    /** When a field of a text sequence is neither a whole number nor a text. */
    static BadRecordException sequenceFieldType(String field, String json) {
        return new BadRecordException(field, json + " is not a whole number or a text, which a sequence is made of");
    }

    /** When a decimal the schema wrapper encodes does not fit its column. */
    static BadRecordException decodedDoesNotFit(String field, String value, String ddl) {
        return new BadRecordException(field, value + " does not fit in " + ddl);
    }

    /** When a date or timestamp the schema wrapper encodes is out of range. */
    static BadRecordException decodedOutOfRange(String field, String value) {
        return new BadRecordException(field, value + " is out of range for its column's type");
    }
}
