package io.tributary.expressions.internal;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;
import javax.xml.stream.XMLEventReader;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.events.Attribute;
import javax.xml.stream.events.XMLEvent;
import org.apache.spark.types.variant.Variant;
import org.apache.spark.types.variant.VariantBuilder;
import org.apache.spark.types.variant.VariantUtil;

/**
 * An XML element read as one VARIANT, as Spark 4.2's XML reader reads it ({@code from_xml(xml, 'variant')}, a VARIANT field
 * of from_xml's schema): an object of its attributes (named with the attribute prefix, {@code _id}), its child elements (by
 * name; an element repeated is an array of its values) and its text beside elements (the value tag, {@code _VALUE}); keys in
 * any case are one key, spelt as first seen; an element of text alone is that text's value, an empty one a variant null. A
 * text is BOOLEAN ({@code true}, {@code false} in any case), BIGINT, DECIMAL (up to 38 digits; {@code ,} left out) or STRING,
 * never a DOUBLE; all STRING with {@code inferSchema} false; the {@code nullValue} text a variant null.
 */
final class XmlVariants {
    private final XmlOptions options;

    XmlVariants(XmlOptions options) {
        this.options = options;
    }

    /**
     * The whole text's first element as one VARIANT (what follows it is not read). Text that is not XML fails the row with
     * the class of the exception Spark's parser throws (it reads the variant without its parse modes): a text with no
     * element {@code RuntimeException}, one that ends inside the element {@code WstxEOFException}, one whose element is not
     * well-formed {@code WstxParsingException}.
     */
    Variant read(String xml) {
        XMLEventReader parser = null;
        try {
            parser = XmlReader.events(xml);
            List<Attribute> root;
            try {
                root = XmlReader.root(parser);
            } catch (XMLStreamException | RuntimeException noElement) {
                throw Failure.of("RuntimeException", "from_xml of a text with no XML element: " + firstLine(noElement));
            }
            return element(parser, root);
        } catch (XMLStreamException malformed) {
            boolean ended = String.valueOf(malformed.getMessage()).contains("must start and end within the same entity");
            throw Failure.of(ended ? "WstxEOFException" : "WstxParsingException", "from_xml of a text that is not well-formed XML: "
                    + firstLine(malformed));
        } finally {
            if (parser != null) {
                try {
                    parser.close();
                } catch (XMLStreamException ignored) {
                    // nothing is left to release
                }
            }
        }
    }

    private static String firstLine(Exception e) {
        String m = String.valueOf(e.getMessage());
        int at = m.indexOf("Message: ");
        return (at >= 0 ? m.substring(at + "Message: ".length()) : m).lines().findFirst().orElse("");
    }

    /** The element whose start is {@code parser}'s next event, up to and with its end: a record read with singleVariantColumn. */
    Variant next(XMLEventReader parser) throws XMLStreamException {
        return element(parser, XmlReader.attributes(parser.nextEvent().asStartElement()));
    }

    /** The element whose start {@code parser} has just read, with its {@code attributes}, up to and with its end. */
    Variant element(XMLEventReader parser, List<Attribute> attributes) throws XMLStreamException {
        TreeMap<String, List<Variant>> fields = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        if (!options.excludeAttribute()) {
            for (Attribute a : attributes) {
                String data = options.ignoreSurroundingSpaces() ? a.getValue().strip() : a.getValue();
                add(fields, options.attributePrefix() + options.name(XmlReader.name(a.getName())), text(data, true));
            }
        }
        VariantBuilder builder = new VariantBuilder(false);
        while (true) {
            XMLEvent e = parser.nextEvent();
            if (e.isStartElement()) {
                String name = options.name(XmlReader.name(e.asStartElement()));
                add(fields, name, element(parser, XmlReader.attributes(e.asStartElement())));
            } else if (e.isCharacters() && !e.asCharacters().isWhiteSpace()) {
                add(fields, options.valueTag(), text(e.asCharacters().getData(), false));
            } else if (e.isEndElement()) {
                if (!fields.isEmpty()) {
                    if (fields.keySet().stream().allMatch(options.valueTag()::equals)) {
                        builder.appendVariant(fields.firstEntry().getValue().get(0)); // Spark keeps the first text alone
                    } else {
                        object(builder, fields);
                    }
                }
                break;
            } else if (e.isEndDocument()) {
                break;
            }
        }
        if (builder.getWritePos() == 0) {
            builder.appendNull();
        }
        return builder.result();
    }

    /** A text value as a VARIANT, or null for the nullValue text: what a VARIANT attribute or value tag field holds. */
    Variant value(String text) {
        String value = text != null && options.ignoreSurroundingSpaces() ? text.strip() : text;
        return value == null || value.equals(options.nullValue()) ? null : text(value, false);
    }

    private static void add(TreeMap<String, List<Variant>> fields, String name, Variant v) {
        fields.computeIfAbsent(name, k -> new ArrayList<>()).add(v);
    }

    private static void object(VariantBuilder builder, TreeMap<String, List<Variant>> fields) {
        int start = builder.getWritePos();
        ArrayList<VariantBuilder.FieldEntry> entries = new ArrayList<>();
        fields.forEach((name, values) -> {
            int id = builder.addKey(name);
            entries.add(new VariantBuilder.FieldEntry(name, id, builder.getWritePos() - start));
            if (values.size() == 1) {
                builder.appendVariant(values.get(0));
            } else {
                int arrayStart = builder.getWritePos();
                ArrayList<Integer> offsets = new ArrayList<>();
                for (Variant v : values) {
                    offsets.add(builder.getWritePos() - arrayStart);
                    builder.appendVariant(v);
                }
                builder.finishWritingArray(arrayStart, offsets);
            }
        });
        builder.finishWritingObject(start, entries);
    }

    /** Spark's {@code appendXMLCharacterToVariant}; an attribute's text is trimmed already. */
    private Variant text(String s, boolean trimmed) {
        VariantBuilder b = new VariantBuilder(false);
        String value = s == null || trimmed || !options.ignoreSurroundingSpaces() ? s : s.strip();
        if (s == null || s.equals(options.nullValue())) {
            b.appendNull();
        } else if (value.isEmpty() || !options.inferSchema()) {
            b.appendString(value);
        } else if (value.toLowerCase(Locale.ROOT).equals("true") || value.toLowerCase(Locale.ROOT).equals("false")) {
            b.appendBoolean(value.toLowerCase(Locale.ROOT).equals("true"));
        } else {
            Object number = number(value);
            if (number instanceof Long l) {
                b.appendLong(l);
            } else if (number instanceof BigDecimal d) {
                b.appendDecimal(d);
            } else {
                b.appendString(value);
            }
        }
        return b.result();
    }

    /** A BIGINT, a DECIMAL of at most 38 digits, or null: as Spark's reader types a variant's text. */
    private Object number(String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException notLong) {
            // a decimal, below
        }
        BigDecimal d;
        try {
            d = XmlValues.parseDecimal(value, options.locale());
        } catch (RuntimeException notDecimal) {
            return null;
        }
        if (d.scale() < -VariantUtil.MAX_DECIMAL16_PRECISION) {
            return null;
        }
        if (d.scale() < 0) {
            d = d.setScale(0);
        }
        return d.scale() <= VariantUtil.MAX_DECIMAL16_PRECISION && d.precision() <= VariantUtil.MAX_DECIMAL16_PRECISION ? d : null;
    }
}
