package io.tributary.expressions.internal;

import io.tributary.schema.Field;
import java.io.Reader;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The XML files of a file source read as Spark 4's XML file source reads them ({@link XmlFileRecords}): the same reader,
 * values, XSD validation and inference as {@code from_xml} and {@code schema_of_xml}, behind {@link io.tributary.expressions.XmlInput}.
 */
public final class XmlRecords {
    /** A record Spark's reader marks corrupt: text that is not XML, a value that does not convert, or one its XSD refuses. */
    public static final class Malformed extends RuntimeException {
        public Malformed(String reason, Throwable cause) {
            super(reason, cause, false, false);
        }
    }

    private final XmlOptions options;
    private final XmlReader reader;
    private final XmlSchemaInference.Merged inferred;
    private final ThreadLocal<javax.xml.validation.Validator> xsd;

    private XmlRecords(XmlOptions options, ThreadLocal<javax.xml.validation.Validator> xsd) {
        this.options = options;
        this.xsd = xsd;
        this.reader = new XmlReader(options);
        this.inferred = new XmlSchemaInference(options).new Merged();
    }

    /**
     * The reading of {@code options} (Spark's names, any case); a value Spark fails on is refused with what {@code refuse} makes
     * of the reason.
     */
    public static XmlRecords of(Map<String, String> options, Function<String, RuntimeException> refuse) {
        XmlOptions read = XmlOptions.of(options);
        if (read.problem() != null) {
            throw refuse.apply("[" + read.problem().condition() + "] " + read.problem().getMessage());
        }
        return new XmlRecords(read, XmlValidation.validators(XmlValidation.load(read.get("rowvalidationxsdpath"),
                "rowValidationXSDPath", refuse)));
    }

    /** The records of one XML file, read from {@code in}. */
    public XmlFileRecords records(Reader in) {
        return new XmlFileRecords(options, reader, xsd, in);
    }

    /** Merges the current record of {@code records} into the inferred columns; false for text that is not XML, which ends the file. */
    public boolean infer(XmlFileRecords records) {
        return records.infer(inferred);
    }

    /** The columns inferred from the records {@link #infer} took, sorted by name as Spark sorts them. */
    public List<Field> inferred() {
        return inferred.fields();
    }
}
