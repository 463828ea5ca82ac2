package io.tributary.expressions;

import io.tributary.expressions.internal.XmlFileRecords;
import io.tributary.expressions.internal.XmlRecords;
import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import java.io.Reader;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Spark's XML reader for a file source, the one behind {@code from_xml} and {@code schema_of_xml}: the elements of the
 * {@code rowTag} in an XML file, each read into a row of a schema, or their columns inferred, as Spark 4's XML file source
 * reads them, with Spark's options ({@code attributePrefix}, {@code valueTag}, {@code ignoreSurroundingSpaces},
 * {@code nullValue}, {@code timestampFormat}, {@code dateFormat}, {@code rowValidationXSDPath}...). Reading is thread-safe; {@link Records#infer} merges into
 * this instance's inferred columns and is not.
 */
public final class XmlInput {
    /** A record Spark's reader marks corrupt; its message says why. */
    public static final class MalformedRecord extends RuntimeException {
        MalformedRecord(String reason, Throwable cause) {
            super(reason, cause, false, false);
        }
    }

    /** The records of one file. */
    public final class Records {
        private final XmlFileRecords records;

        private Records(XmlFileRecords records) {
            this.records = records;
        }

        /** Advances to the next record; false at the end of the file, or once text that is not XML has ended it. */
        public boolean next() {
            return records.next();
        }

        /** The 1-based line of the current record's start tag. */
        public long line() {
            return records.line();
        }

        /** The current record's row of {@code schema}. */
        public Object[] row(Schema schema) {
            try {
                return records.row(schema);
            } catch (XmlRecords.Malformed e) {
                throw new MalformedRecord(e.getMessage(), e.getCause());
            }
        }

        /** The current record as one VARIANT, as Spark's {@code singleVariantColumn} reads it. */
        public io.tributary.schema.VariantValue variant() {
            try {
                return records.variant();
            } catch (XmlRecords.Malformed e) {
                throw new MalformedRecord(e.getMessage(), e.getCause());
            }
        }

        /**
         * The text Spark gives the current record when it is corrupt, where that is not the file's text: the element as Spark
         * writes it when the XSD of {@code rowValidationXSDPath} refused it; else null.
         */
        public String corruptText() {
            return records.corruptText();
        }

        /** Merges the current record's columns into {@link #inferred()}; false, adding nothing, for a record that is not XML. */
        public boolean infer() {
            return XmlInput.this.records.infer(records);
        }
    }

    private final XmlRecords records;

    private XmlInput(XmlRecords records) {
        this.records = records;
    }

    /**
     * Reads with {@code options} (Spark's names, any case); an option value Spark fails on is refused by what {@code refuse}
     * makes of the reason.
     */
    public static XmlInput of(Map<String, String> options, Function<String, RuntimeException> refuse) {
        return new XmlInput(XmlRecords.of(options, refuse));
    }

    /** The records of the XML file {@code in}. */
    public Records records(Reader in) {
        return new Records(records.records(in));
    }

    /** The columns inferred so far, sorted by name as Spark's XML inference sorts them. */
    public List<Field> inferred() {
        return records.inferred();
    }
}
