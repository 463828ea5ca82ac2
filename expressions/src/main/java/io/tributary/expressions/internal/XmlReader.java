package io.tributary.expressions.internal;

import io.tributary.schema.DataType;
import io.tributary.schema.Schema;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.namespace.QName;
import javax.xml.stream.XMLEventReader;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.events.Attribute;
import javax.xml.stream.events.Characters;
import javax.xml.stream.events.StartElement;
import javax.xml.stream.events.XMLEvent;

/**
 * One XML text read into a row of a schema as Spark's {@code StaxXmlParser} reads it, on the JDK's StAX parser: the first
 * element is the row, its attributes and child elements the fields (by name, in any case; an attribute as the attribute
 * prefix and its name), text beside elements the value tag's field, a repeated element an ARRAY field's elements, a STRUCT
 * field an element's children and attributes, a STRING field an element's whole content as text; what the schema does not
 * name is skipped. A field whose value does not convert is null and fails the row afterwards ({@link Partial}); text that is
 * not XML throws {@link XMLStreamException} or a {@link RuntimeException}.
 */
final class XmlReader {
    /** The row read so far when a field failed, and why. */
    static final class Partial extends RuntimeException {
        final Object[] row;

        Partial(Object[] row, Exception cause) {
            super(cause.getMessage(), cause, false, false);
            this.row = row;
        }
    }

    /** A factory per thread: the JDK does not promise that one factory makes readers on several threads at once. */
    private static final ThreadLocal<XMLInputFactory> FACTORY = ThreadLocal.withInitial(XmlReader::factory);

    private final XmlOptions options;
    private final XmlValues values;
    private final XmlVariants variants;

    XmlReader(XmlOptions options) {
        this.options = options;
        this.values = new XmlValues(options);
        this.variants = new XmlVariants(options);
    }

    /** Spark's parser set-up: no namespaces (a prefixed name is the whole name), adjacent text and CDATA as one, no DTD. */
    private static XMLInputFactory factory() {
        XMLInputFactory f = XMLInputFactory.newFactory();
        f.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, false);
        f.setProperty(XMLInputFactory.IS_COALESCING, true);
        f.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        f.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        return f;
    }

    /** A reader of {@code xml} that leaves out comments and processing instructions, as Spark's. */
    static XMLEventReader events(String xml) throws XMLStreamException {
        return events(new StringReader(xml));
    }

    /** As {@link #events(String)}, over a whole XML file's text. */
    static XMLEventReader events(java.io.Reader xml) throws XMLStreamException {
        XMLInputFactory factory = FACTORY.get();
        return factory.createFilteredReader(factory.createXMLEventReader(xml), e -> e.getEventType() != XMLStreamConstants.COMMENT
                && e.getEventType() != XMLStreamConstants.PROCESSING_INSTRUCTION);
    }

    /** The attributes of the first element, {@code parser} after its start. */
    static List<Attribute> root(XMLEventReader parser) throws XMLStreamException {
        XMLEvent e = parser.nextEvent();
        while (!e.isStartElement()) {
            e = parser.nextEvent();
        }
        return attributes(e.asStartElement());
    }

    static List<Attribute> attributes(StartElement e) {
        List<Attribute> list = new ArrayList<>();
        for (Iterator<Attribute> it = e.getAttributes(); it.hasNext(); ) {
            list.add(it.next());
        }
        return list;
    }

    /** The row {@code xml} gives for {@code schema}. */
    Object[] read(String xml, Schema schema) throws XMLStreamException {
        XMLEventReader parser = events(xml);
        try {
            return object(parser, schema, root(parser));
        } finally {
            parser.close();
        }
    }

    /** The row of the element whose start is {@code parser}'s next event, {@code parser} left after its end. */
    Object[] element(XMLEventReader parser, Schema schema) throws XMLStreamException {
        return object(parser, schema, attributes(parser.nextEvent().asStartElement()));
    }

    private Object[] object(XMLEventReader parser, Schema schema, List<Attribute> attributes) throws XMLStreamException {
        Object[] row = new Object[schema.size()];
        attributes(attributes, schema).forEach((i, v) -> row[i] = v);
        Exception bad = null;
        while (true) {
            XMLEvent e = parser.nextEvent();
            if (e.isStartElement()) {
                try {
                    child(parser, schema, row, e.asStartElement());
                } catch (RuntimeException | XMLStreamException failed) {
                    bad = bad == null ? failed : bad;
                }
            } else if (e.isCharacters() && !e.asCharacters().isWhiteSpace()) {
                valueTag(row, schema, e.asCharacters().getData());
            } else if (e.isEndElement() || e.isEndDocument()) {
                break;
            }
        }
        if (bad != null) {
            throw new Partial(row, bad);
        }
        return row;
    }

    /** The field {@code name} fills: the last of that name where the schema repeats one ('a INT, a INT'), as Spark's parser. */
    private static int field(Schema schema, String name) {
        if (schema.repeatsAName()) {
            for (int i = schema.size() - 1; i >= 0; i--) {
                if (schema.field(i).name().equalsIgnoreCase(name)) {
                    return i;
                }
            }
        }
        return schema.indexOf(name);
    }

    private void child(XMLEventReader parser, Schema schema, Object[] row, StartElement e) throws XMLStreamException {
        String name = name(e);
        int index = field(schema, options.name(name));
        if (index < 0) {
            wildcard(parser, schema, row, name);
            return;
        }
        DataType type = schema.field(index).type();
        if (type.isVariant()) {
            row[index] = variants.element(parser, attributes(e));
        } else if (type.kind() == DataType.Kind.STRUCT) {
            row[index] = objectWithAttributes(parser, type.struct(), name, attributes(e));
        } else if (type.kind() == DataType.Kind.ARRAY) {
            @SuppressWarnings("unchecked")
            List<Object> list = row[index] instanceof List<?> l ? (List<Object>) l : new ArrayList<>();
            DataType element = type.element();
            list.add(element.kind() == DataType.Kind.STRUCT ? objectWithAttributes(parser, element.struct(), name, attributes(e))
                    : element.isVariant() ? variants.element(parser, attributes(e)) : field(parser, element, name, List.of()));
            row[index] = list;
        } else {
            row[index] = field(parser, type, name, attributes(e));
        }
    }

    /**
     * An element the schema does not name: skipped, or, when the schema has the field {@code wildcardColName} ({@code xs_any})
     * of STRING or ARRAY&lt;STRING&gt;, its content as text is that field's (the last one's, or one more element).
     */
    private void wildcard(XMLEventReader parser, Schema schema, Object[] row, String name) throws XMLStreamException {
        int any = schema.fieldIndex(options.wildcardColName());
        if (any < 0) {
            skip(parser);
            return;
        }
        Object text = field(parser, DataType.STRING, name, List.of());
        DataType type = schema.field(any).type();
        if (type.kind() == DataType.Kind.STRING) {
            row[any] = text;
        } else if (type.kind() == DataType.Kind.ARRAY && type.element().kind() == DataType.Kind.STRING) {
            @SuppressWarnings("unchecked")
            List<Object> list = row[any] instanceof List<?> l ? (List<Object>) l : new ArrayList<>();
            list.add(text);
            row[any] = list;
        } else {
            throw new IllegalStateException("the field " + options.wildcardColName() + " for the elements the schema does not name is "
                    + Types.name(type) + ", not STRING or ARRAY<STRING>");
        }
    }

    private Map<Integer, Object> attributes(List<Attribute> attributes, Schema schema) {
        Map<Integer, Object> found = new LinkedHashMap<>();
        if (options.excludeAttribute()) {
            return found;
        }
        for (Attribute a : attributes) {
            int i = field(schema, options.attributePrefix() + options.name(name(a.getName())));
            if (i >= 0) {
                found.put(i, values.convert(a.getValue(), schema.field(i).type()));
            }
        }
        return found;
    }

    /** An element read as a STRUCT: its attributes and children, or its text as the value tag's field; never null. */
    private Object[] objectWithAttributes(XMLEventReader parser, Schema schema, String name, List<Attribute> attributes)
            throws XMLStreamException {
        Map<Integer, Object> attrs = attributes(attributes, schema);
        Object[] row;
        if (parser.peek().isEndElement()) {
            endOf(parser, name);
            row = new Object[schema.size()];
        } else {
            row = object(parser, schema, List.of());
        }
        attrs.forEach((i, v) -> row[i] = v);
        return row;
    }

    private Object field(XMLEventReader parser, DataType type, String name, List<Attribute> attributes) throws XMLStreamException {
        XMLEvent next = parser.peek();
        DataType.Kind kind = type.kind();
        if (type.isVariant() && !next.isEndElement()) { // an element's content, or its text, as one VARIANT
            return variants.element(parser, next.isStartElement() ? attributes : List.of());
        }
        if (next.isStartElement()) {
            return switch (kind) {
                case STRUCT -> object(parser, type.struct(), List.of());
                case MAP -> map(parser, type.valueType(), attributes);
                case ARRAY -> field(parser, type.element(), name, List.of());
                case STRING -> values.convert(structureAsString(parser, name), type);
                default -> throw new IllegalStateException("the element " + name + " holds elements, not a " + Types.name(type));
            };
        }
        if (next.isEndElement()) {
            endOf(parser, name);
            return kind == DataType.Kind.STRING && !"".equals(options.nullValue()) ? "" : null;
        }
        if (next.isCharacters()) {
            Characters c = next.asCharacters();
            if (kind == DataType.Kind.ARRAY) {
                parser.nextEvent();
                Object value = values.convert(c.getData(), type.element());
                endOf(parser, name);
                return value;
            }
            if (kind == DataType.Kind.STRUCT) {
                return object(parser, type.struct(), List.of());
            }
            if (kind == DataType.Kind.STRING) {
                return values.convert(structureAsString(parser, name), type);
            }
            if (c.isWhiteSpace()) {
                parser.nextEvent();
                return field(parser, type, name, attributes);
            }
            Object value = values.convert(c.getData(), type);
            parser.nextEvent();
            endOf(parser, name);
            return value;
        }
        throw new IllegalStateException("the element " + name + " holds " + next + ", not a " + Types.name(type));
    }

    private Map<Object, Object> map(XMLEventReader parser, DataType valueType, List<Attribute> attributes) throws XMLStreamException {
        Map<Object, Object> map = new LinkedHashMap<>();
        for (Attribute a : attributes) {
            map.put(options.attributePrefix() + name(a.getName()), values.convert(a.getValue(), valueType));
        }
        while (true) {
            XMLEvent e = parser.nextEvent();
            if (e.isStartElement()) {
                String key = name(e.asStartElement());
                map.put(options.name(key), field(parser, valueType, key, List.of()));
            } else if (e.isCharacters() && !e.asCharacters().isWhiteSpace()) {
                map.put(options.valueTag(), values.convert(e.asCharacters().getData(), valueType));
            } else if (e.isEndElement() || e.isEndDocument()) {
                return map;
            }
        }
    }

    /** Text beside elements: the value tag's field (named exactly), an element more of it when it is an ARRAY. */
    private void valueTag(Object[] row, Schema schema, String data) {
        int index = schema.fieldIndex(options.valueTag());
        if (index < 0) {
            return;
        }
        DataType type = schema.field(index).type();
        if (type.kind() == DataType.Kind.ARRAY) {
            @SuppressWarnings("unchecked")
            List<Object> list = row[index] instanceof List<?> l ? (List<Object>) l : new ArrayList<>();
            list.add(values.convert(data, type.element()));
            row[index] = list;
        } else {
            row[index] = values.convert(data, type);
        }
    }

    /** An element's content as text: its text and its child elements written back (attributes as name="value"). */
    private static String structureAsString(XMLEventReader parser, String name) throws XMLStreamException {
        StringBuilder text = new StringBuilder();
        int depth = 0;
        do {
            XMLEvent e = parser.nextEvent();
            if (e.isStartElement()) {
                StartElement s = e.asStartElement();
                text.append('<').append(name(s.getName()));
                for (Attribute a : attributes(s)) {
                    text.append(' ').append(name(a.getName())).append("=\"").append(a.getValue()).append('"');
                }
                text.append('>');
                depth++;
            } else if (e.isEndElement()) {
                text.append("</").append(name(e.asEndElement().getName())).append('>');
                depth--;
            } else if (e.isCharacters()) {
                text.append(e.asCharacters().getData());
            }
        } while (!parser.peek().isEndElement() || depth > 0);
        endOf(parser, name);
        return text.toString();
    }

    /** The end of the element {@code name}, after spaces; anything else fails. */
    private static void endOf(XMLEventReader parser, String name) throws XMLStreamException {
        XMLEvent e = parser.nextEvent();
        while (e.isCharacters() && e.asCharacters().isWhiteSpace()) {
            e = parser.nextEvent();
        }
        if (!e.isEndElement() || !name(e.asEndElement().getName()).equals(name)) {
            throw new IllegalStateException("expecting the end of " + name + " but got " + e);
        }
    }

    /** The rest of an element the schema does not name, its end included. */
    private static void skip(XMLEventReader parser) throws XMLStreamException {
        int depth = 1;
        while (depth > 0) {
            XMLEvent e = parser.nextEvent();
            depth += e.isStartElement() ? 1 : e.isEndElement() ? -1 : 0;
        }
    }

    static String name(StartElement e) {
        return name(e.getName());
    }

    /** A name as Spark's parser gives it, namespaces not read: its prefix, if any, is part of it ({@code x:a}, {@code xmlns:x}). */
    static String name(QName q) {
        return q.getPrefix() == null || q.getPrefix().isEmpty() ? q.getLocalPart() : q.getPrefix() + ":" + q.getLocalPart();
    }
}
