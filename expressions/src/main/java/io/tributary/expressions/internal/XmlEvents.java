package io.tributary.expressions.internal;

import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import javax.xml.stream.XMLEventReader;
import javax.xml.stream.XMLEventWriter;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.events.Attribute;
import javax.xml.stream.events.XMLEvent;

/**
 * One element's events, taken from a file's reader so that the element can be validated against an XSD before it is read
 * (Spark validates each record of an XML file with {@code rowValidationXSDPath}), then read from {@link #reader()}.
 */
final class XmlEvents {
    private static final XMLOutputFactory OUT = XMLOutputFactory.newFactory();
    private final List<XMLEvent> events = new ArrayList<>();

    /** The element whose start is {@code parser}'s next event, to its end. */
    XmlEvents(XMLEventReader parser) throws XMLStreamException {
        int depth = 0;
        do {
            XMLEvent e = parser.nextEvent();
            events.add(e);
            depth += e.isStartElement() ? 1 : e.isEndElement() ? -1 : 0;
        } while (depth > 0);
    }

    /** The element as XML text, escaped, to validate. */
    String xml() throws XMLStreamException {
        StringWriter text = new StringWriter();
        XMLEventWriter w = OUT.createXMLEventWriter(text);
        for (XMLEvent e : events) {
            w.add(e);
        }
        w.close();
        return text.toString();
    }

    /** The element as Spark's {@code currentElementAsString} writes a record its XSD refuses: names, attributes and text as read. */
    String asSparkWritesIt() {
        StringBuilder text = new StringBuilder();
        for (XMLEvent e : events) {
            if (e.isStartElement()) {
                text.append('<').append(XmlReader.name(e.asStartElement()));
                for (Attribute a : XmlReader.attributes(e.asStartElement())) {
                    text.append(' ').append(XmlReader.name(a.getName())).append("=\"").append(a.getValue()).append('"');
                }
                text.append('>');
            } else if (e.isEndElement()) {
                text.append("</").append(XmlReader.name(e.asEndElement().getName())).append('>');
            } else if (e.isCharacters()) {
                text.append(e.asCharacters().getData());
            }
        }
        return text.toString().strip();
    }

    /** A reader of the element's events. */
    XMLEventReader reader() {
        return new XMLEventReader() {
            private int next;

            @Override
            public XMLEvent nextEvent() {
                if (next >= events.size()) {
                    throw new NoSuchElementException("the end of the element");
                }
                return events.get(next++);
            }

            @Override
            public boolean hasNext() {
                return next < events.size();
            }

            @Override
            public XMLEvent peek() {
                return next < events.size() ? events.get(next) : null;
            }

            @Override
            public Object next() {
                return nextEvent();
            }

            @Override
            public String getElementText() {
                throw new UnsupportedOperationException();
            }

            @Override
            public XMLEvent nextTag() {
                throw new UnsupportedOperationException();
            }

            @Override
            public Object getProperty(String name) {
                return null;
            }

            @Override
            public void close() {
            }
        };
    }
}
