package io.tributary.schema;

import java.util.List;

/**
 * The user-facing errors of Debezium's change events ({@link DebeziumEvents}): a bad event (a
 * {@link BadRecordException} naming its field, which the source dead-letters naming the file and
 * line, or the topic, partition and offset), and a schema or sequence the events cannot be read by.
 */
final class DebeziumErrors {
    private DebeziumErrors() {
    }

    /** When the sequence names no field. */
    static TributaryException sequenceEmpty(String key) {
        return new TributaryException(key + ": names no field; name the fields of the events' source block that order the"
                + " changes, e.g. [lsn] (PostgreSQL, the default) or [file, pos, row] (MySQL) (docs/cdc.md)");
    }

    /** When the schema of a debezium-json source has a column the format adds itself. */
    static TributaryException columnTaken(String schemaKey, String column, String ddl, String expected) {
        return new TributaryException(schemaKey + " " + ddl + " has a column '" + column + "', which format debezium-json"
                + " adds itself (" + expected + "); give the schema of the table's columns only (the before and after fields),"
                + " or end it with exactly " + expected + " (docs/cdc.md)");
    }

    /** When a multiLine file of events holds more after its document. */
    static BadRecordException trailingContent(String found) {
        return new BadRecordException(null, "found " + found + " after the JSON document; a multiLine file holds one document");
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
    static BadRecordException noSource(List<String> sequence) {
        return new BadRecordException("source", "is missing, so the event has no sequence (the source's debezium.sequence: "
                + sequence + ")");
    }

    /** When a field of the sequence is absent from the event's source block. */
    static BadRecordException missingSequence(String field) {
        return new BadRecordException(field, "is missing, and the source's debezium.sequence names it; name the source"
                + " fields the connector writes: lsn (PostgreSQL), [file, pos, row] (MySQL), ts_ms (any)");
    }

    /** When a one-field sequence is not a whole number. */
    static BadRecordException notWholeSequence(String field, String json) {
        return new BadRecordException(field, json + " is not a whole number; a sequence of one field is a BIGINT (name two"
                + " or more fields in the source's debezium.sequence for a text sequence)");
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
