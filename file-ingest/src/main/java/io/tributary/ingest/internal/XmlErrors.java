package io.tributary.ingest.internal;

import io.tributary.schema.TributaryException;

/** The refusals of the {@code xml} format's options and schema at start. */
public final class XmlErrors {
    private XmlErrors() {
    }

    /** When no {@code rowTag} is given: Spark's XML source requires one. */
    public static TributaryException rowTagMissing() {
        return new TributaryException("source.files.options.rowTag is not given: the xml format needs the name of the element"
                + " each row is (rowTag: book for <book> elements), as Spark requires it (XML_ROW_TAG_MISSING)");
    }

    /** When {@code rowTag} is blank or holds angle brackets. */
    public static TributaryException rowTagInvalid(String value) {
        return new TributaryException("source.files.options.rowTag: '" + value + "' is not an element name; give the name alone,"
                + " without angle brackets (rowTag: book for <book> elements), as Spark requires it");
    }

    /** When an option's value is one Spark's XML reader fails on, or its XSD cannot be read. */
    public static TributaryException badOption(String reason) {
        return new TributaryException("source.files.options (xml): " + reason);
    }

    /** When Spark's {@code mode} or {@code columnNameOfCorruptRecord} is given: Tributary's onBadRecord says it instead. */
    public static TributaryException modeOption(String key, String value) {
        return new TributaryException("source.files.options." + key + ": '" + value + "' is not taken: a malformed XML record is"
                + " a bad record as in every format, and source.files.onBadRecord says what becomes of it: deadLetter (Spark's"
                + " PERMISSIVE, the record's text in the dead-letter topic rather than a _corrupt_record column), drop"
                + " (DROPMALFORMED) or fail (FAILFAST); remove the option and set onBadRecord");
    }

    /** When the schema has a column the XML reader cannot read. */
    public static TributaryException cannotRead(String column, String ddl) {
        return new TributaryException("source.files.schema: the column " + column + " " + ddl + " cannot be read from XML yet"
                + " (BINARY, intervals and VARIANT are not); give it another type, e.g. STRING");
    }
}
