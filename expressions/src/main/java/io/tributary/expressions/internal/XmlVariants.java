package io.tributary.expressions.internal;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import javax.xml.stream.XMLEventReader;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.events.Attribute;
import javax.xml.stream.events.XMLEvent;
import org.apache.spark.types.variant.Variant;
import org.apache.spark.types.variant.VariantBuilder;

/**
 * An XML element as the VARIANT Spark 4.2's XML reader makes of it with {@code singleVariantColumn} ({@code
 * StaxXmlParser.convertVariant}): an object of its attributes (the attribute prefix and the name) and child elements (an
 * element that repeats an array of them), its text the value tag's field; an element of text alone that text's value, an empty
 * one a variant null. Text is {@code true}/{@code false} in any case a BOOLEAN, else a BIGINT, else a DECIMAL of at most 38
 * digits, else a STRING (spaces around it dropped unless {@code ignoreSurroundingSpaces} is false); the {@code nullValue}
 * text a variant null. Names that differ only in case are one field, as Spark's case-insensitive analysis makes them.
 */
final class XmlVariants {
    private static final int MAX_DECIMAL_DIGITS = 38;

    private XmlVariants() {
    }

    /** The variant of the element whose start is {@code parser}'s next event, {@code parser} left after its end. */
    static Variant element(XMLEventReader parser, XmlOptions options) throws XMLStreamException {
        return element(parser, XmlReader.attributes(parser.nextEvent().asStartElement()), options);
    }

    private static Variant element(XMLEventReader parser, List<Attribute> attributes, XmlOptions options) throws XMLStreamException {
        VariantBuilder root = new VariantBuilder(false);
        int start = root.getWritePos();
        TreeMap<String, List<Variant>> fields = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        if (!options.excludeAttribute()) {
            for (Attribute a : attributes) {
                String v = options.ignoreSurroundingSpaces() ? a.getValue().strip() : a.getValue();
                fields.computeIfAbsent(options.attributePrefix() + options.name(XmlReader.name(a.getName())), k -> new ArrayList<>())
                        .add(text(v.equals(options.nullValue()) ? null : v, options));
            }
        }
        while (true) {
            XMLEvent e = parser.nextEvent();
            if (e.isStartElement()) {
                String name = options.name(XmlReader.name(e.asStartElement()));
                List<Attribute> attrs = XmlReader.attributes(e.asStartElement());
                fields.computeIfAbsent(name, k -> new ArrayList<>()).add(element(parser, attrs, options));
            } else if (e.isCharacters() && !e.asCharacters().isWhiteSpace()) {
                fields.computeIfAbsent(options.valueTag(), k -> new ArrayList<>()).add(text(e.asCharacters().getData(), options));
            } else if (e.isEndElement() || e.isEndDocument()) {
                break;
            }
        }
        if (!fields.isEmpty()) {
            if (fields.keySet().stream().allMatch(k -> k.equals(options.valueTag()))) {
                root.appendVariant(fields.get(options.valueTag()).get(0));
            } else {
                object(root, fields);
            }
        }
        if (root.getWritePos() == start) {
            root.appendNull();
        }
        return root.result();
    }

    private static void object(VariantBuilder b, Map<String, List<Variant>> fields) {
        int start = b.getWritePos();
        ArrayList<VariantBuilder.FieldEntry> entries = new ArrayList<>();
        for (Map.Entry<String, List<Variant>> f : fields.entrySet()) {
            entries.add(new VariantBuilder.FieldEntry(f.getKey(), b.addKey(f.getKey()), b.getWritePos() - start));
            List<Variant> values = f.getValue();
            if (values.size() == 1) {
                b.appendVariant(values.get(0));
            } else {
                VariantBuilder array = new VariantBuilder(false);
                int arrayStart = array.getWritePos();
                ArrayList<Integer> offsets = new ArrayList<>();
                for (Variant v : values) {
                    offsets.add(array.getWritePos() - arrayStart);
                    array.appendVariant(v);
                }
                array.finishWritingArray(arrayStart, offsets);
                b.appendVariant(array.result());
            }
        }
        b.finishWritingObject(start, entries);
    }

    /** A text value's variant, as Spark's {@code appendXMLCharacterToVariant}. */
    private static Variant text(String s, XmlOptions options) {
        VariantBuilder b = new VariantBuilder(false);
        if (s == null || s.equals(options.nullValue())) {
            b.appendNull();
            return b.result();
        }
        String value = options.ignoreSurroundingSpaces() ? s.strip() : s;
        String lower = value.toLowerCase(Locale.ROOT);
        if (value.isEmpty()) {
            b.appendString(value);
        } else if (lower.equals("true") || lower.equals("false")) {
            b.appendBoolean(lower.equals("true"));
        } else if (isLong(value)) {
            b.appendLong(Long.parseLong(value));
        } else {
            BigDecimal d = decimal(value, options.locale());
            if (d != null) {
                b.appendDecimal(d);
            } else {
                b.appendString(value);
            }
        }
        return b.result();
    }

    private static boolean isLong(String value) {
        try {
            Long.parseLong(value);
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** The text as a DECIMAL a variant holds (at most 38 digits and scale, a negative scale made 0), or null. */
    private static BigDecimal decimal(String value, Locale locale) {
        try {
            BigDecimal d = XmlValues.parseDecimal(value, locale);
            if (d.scale() < -MAX_DECIMAL_DIGITS) {
                return null;
            }
            if (d.scale() < 0) {
                d = d.setScale(0);
            }
            return d.scale() <= MAX_DECIMAL_DIGITS && d.precision() <= MAX_DECIMAL_DIGITS ? d : null;
        } catch (RuntimeException e) {
            return null;
        }
    }
}
