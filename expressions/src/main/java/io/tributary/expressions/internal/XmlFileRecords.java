package io.tributary.expressions.internal;

import io.tributary.schema.Schema;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import javax.xml.stream.XMLEventReader;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.events.XMLEvent;
import javax.xml.validation.Validator;

/**
 * The records of one XML file as Spark 4's XML file source finds them ({@code StaxXMLRecordReader}): one StAX reader over the
 * whole file, each element named the {@code rowTag} (at any depth, outside a record) one record, read from that reader into a
 * row. A value that does not convert fails its record alone; text that is not XML fails the record it is in and ends the file,
 * as Spark puts the whole file in one corrupt record and reads no further. A file that cannot be read (its {@link IOException},
 * say a compressed file cut short) throws an {@link UncheckedIOException}. With {@code rowValidationXSDPath}, a record its XSD
 * refuses is corrupt, with the element's text as Spark writes it, and the next is read.
 */
public final class XmlFileRecords {
    private final XmlOptions options;
    private final XmlVariants variants;
    private final XmlReader reader;
    private final XMLEventReader parser;
    private final ThreadLocal<Validator> xsd;
    private String corruptText;
    private boolean broken;
    private XMLStreamException pending;
    private long line;

    XmlFileRecords(XmlOptions options, XmlReader reader, ThreadLocal<Validator> xsd, Reader in) {
        this.options = options;
        this.variants = new XmlVariants(options);
        this.reader = reader;
        this.xsd = xsd;
        XMLEventReader p;
        try {
            p = XmlReader.events(in);
        } catch (XMLStreamException e) {
            p = null;
            pending = e;
        }
        this.parser = p;
    }

    /** Advances to the next record; false at the end of the file, or after text that is not XML. */
    public boolean next() {
        if (broken) {
            return false;
        }
        if (pending != null) {
            return true;
        }
        try {
            while (parser.hasNext()) {
                XMLEvent e = parser.peek();
                if (e.isStartElement() && options.name(XmlReader.name(e.asStartElement())).equals(options.rowTag())) {
                    line = e.getLocation().getLineNumber();
                    return true;
                }
                if (e.isEndDocument()) {
                    return false;
                }
                parser.nextEvent();
            }
            return false;
        } catch (XMLStreamException | RuntimeException e) {
            rethrowUnreadable(e);
            pending = e instanceof XMLStreamException x ? x : new XMLStreamException(e.getMessage(), e);
            line = pending.getLocation() != null ? Math.max(line, pending.getLocation().getLineNumber()) : line;
            return true;
        }
    }

    /** The 1-based line of the current record's start tag (where the reader found text that is not XML, for that). */
    public long line() {
        return line;
    }

    /** The current record's row of {@code schema}; {@link XmlRecords.Malformed} when Spark marks it corrupt. */
    public Object[] row(Schema schema) {
        checkPending();
        corruptText = null;
        try {
            if (xsd == null) {
                return reader.element(parser, schema);
            }
            XmlEvents element = new XmlEvents(parser);
            String refused = refused(element);
            if (refused != null) {
                corruptText = element.asSparkWritesIt();
                throw new XmlRecords.Malformed("the record is not valid against the XSD of rowValidationXSDPath: " + refused, null);
            }
            return reader.element(element.reader(), schema);
        } catch (XmlRecords.Malformed m) {
            throw m;
        } catch (XmlReader.Partial p) {
            if (p.getCause() instanceof XMLStreamException) {
                broken = true;
                throw new XmlRecords.Malformed("the file is not XML from here on (the rest of it is not read): " + firstLine(p.getCause()),
                        p.getCause());
            }
            throw new XmlRecords.Malformed(firstLine(p.getCause()), p.getCause());
        } catch (XMLStreamException | RuntimeException e) {
            rethrowUnreadable(e);
            broken = true;
            throw new XmlRecords.Malformed("the file is not XML from here on (the rest of it is not read): " + firstLine(e), e);
        }
    }

    /** The current record as one VARIANT ({@code singleVariantColumn}); {@link XmlRecords.Malformed} when Spark marks it corrupt. */
    public io.tributary.schema.VariantValue variant() {
        checkPending();
        corruptText = null;
        try {
            org.apache.spark.types.variant.Variant v;
            if (xsd == null) {
                v = variants.next(parser);
            } else {
                XmlEvents element = new XmlEvents(parser);
                String refused = refused(element);
                if (refused != null) {
                    corruptText = element.asSparkWritesIt();
                    throw new XmlRecords.Malformed("the record is not valid against the XSD of rowValidationXSDPath: " + refused, null);
                }
                v = variants.next(element.reader());
            }
            return new io.tributary.schema.VariantValue(v.getValue(), v.getMetadata());
        } catch (XmlRecords.Malformed m) {
            throw m;
        } catch (XMLStreamException | RuntimeException e) {
            rethrowUnreadable(e);
            broken = true;
            throw new XmlRecords.Malformed("the file is not XML from here on (the rest of it is not read): " + firstLine(e), e);
        }
    }

    /** Merges the current record's columns into {@code inferred}; false, and the file ended, for text that is not XML. */
    boolean infer(XmlSchemaInference.Merged inferred) {
        if (pending != null) {
            broken = true;
            return false;
        }
        try {
            if (xsd == null) {
                inferred.add(parser);
                return true;
            }
            XmlEvents element = new XmlEvents(parser);
            if (refused(element) != null) {
                return false; // Spark infers a record its XSD refuses as a corrupt record
            }
            inferred.add(element.reader());
            return true;
        } catch (XMLStreamException | RuntimeException e) {
            rethrowUnreadable(e);
            broken = true;
            return false;
        }
    }

    /**
     * The text Spark gives the current record when it is corrupt and its text is not the whole file's: the element's, when the
     * XSD refused it; else null.
     */
    public String corruptText() {
        return corruptText;
    }

    /** Why the XSD refuses the element, or null when it is valid. */
    private String refused(XmlEvents element) throws XMLStreamException {
        try {
            XmlValidation.validate(xsd, element.xml());
            return null;
        } catch (org.xml.sax.SAXException | java.io.IOException e) {
            return firstLine(e);
        }
    }

    private void checkPending() {
        if (pending != null) {
            broken = true;
            throw new XmlRecords.Malformed("the file is not XML from here on (the rest of it is not read): " + firstLine(pending), pending);
        }
    }

    /**
     * Throws, as an {@link UncheckedIOException}, the {@link IOException} that {@code e} comes of, if any: a file that cannot be
     * read (a compressed file cut short) is no malformed record, as Spark fails the query on it.
     */
    private static void rethrowUnreadable(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof IOException io) {
                throw new UncheckedIOException(io);
            }
            if (t instanceof UncheckedIOException u) {
                throw u;
            }
        }
    }

    private static String firstLine(Throwable e) {
        return String.valueOf(e.getMessage()).lines().findFirst().orElse(e.getClass().getSimpleName());
    }
}
