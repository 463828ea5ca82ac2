package io.tributary.expressions.internal;

import io.tributary.schema.DataType;
import io.tributary.schema.DataType.Kind;
import java.util.ArrayList;
import java.time.LocalTime;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import javax.xml.stream.XMLEventReader;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.events.Attribute;
import javax.xml.stream.events.XMLEvent;

/**
 * The type Spark's {@code schema_of_xml} gives one XML text ({@code XmlInferSchema}): the first element is a STRUCT of its
 * attributes (the attribute prefix and the name), child elements and text (the value tag), fields sorted by name; an
 * element of text alone is that text's type, with attributes a STRUCT of them and the value tag; a repeated name an ARRAY of
 * the types merged; text BIGINT, DOUBLE, DATE, TIMESTAMP, BOOLEAN or else STRING, tried in that order; an empty element
 * STRING; empty STRUCTs left out.
 */
final class XmlSchemaInference {
    /** A type as the inference builds it: Spark's NullType (nothing seen yet), an atomic type, an ARRAY or a STRUCT. */
    private sealed interface T permits Null, Atomic, Arr, St {
    }

    private record Null() implements T {
    }

    private record Atomic(DataType type) implements T {
    }

    private record Arr(T element) implements T {
    }

    /** A STRUCT's fields, which may be none while inferring (Spark drops such STRUCTs at the end). */
    private record St(List<F> fields) implements T {
    }

    private record F(String name, T type) {
    }

    private static final T NULL = new Null();
    private static final Comparator<F> BY_NAME = Comparator.comparing(F::name);

    private final XmlOptions options;

    XmlSchemaInference(XmlOptions options) {
        this.options = options;
    }

    /** The DDL text of {@code xml}'s type, {@code STRUCT<a: BIGINT>}; throws what the parser throws on text that is not XML. */
    String ddl(String xml) throws XMLStreamException {
        XMLEventReader parser = XmlReader.events(xml);
        T type;
        try {
            type = object(parser, XmlReader.root(parser));
        } finally {
            parser.close();
        }
        T canonical = canonical(type);
        return canonical == null ? "STRUCT<>" : ddl(canonical);
    }

    private St object(XMLEventReader parser, List<Attribute> attributes) throws XMLStreamException {
        TreeMap<String, T> types = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        attributeValues(attributes).forEach((name, value) -> add(types, name, text(value)));
        while (true) {
            XMLEvent e = parser.nextEvent();
            if (e.isStartElement()) {
                Map<String, String> attrs = attributeValues(XmlReader.attributes(e.asStartElement()));
                T type = field(parser);
                if (!attrs.isEmpty()) {
                    List<F> fields = new ArrayList<>();
                    if (type instanceof St st) {
                        fields.addAll(st.fields());
                    } else if (!(type instanceof Null)) {
                        fields.add(new F(options.valueTag(), type));
                    }
                    attrs.forEach((name, value) -> fields.add(new F(name, text(value))));
                    fields.sort(BY_NAME);
                    type = new St(fields);
                }
                add(types, XmlReader.name(e.asStartElement()), type);
            } else if (e.isCharacters() && !e.asCharacters().isWhiteSpace()) {
                add(types, options.valueTag(), text(e.asCharacters().getData()));
            } else if (e.isEndElement() || e.isEndDocument()) {
                break;
            }
        }
        List<F> fields = new ArrayList<>();
        types.forEach((name, type) -> fields.add(new F(name, type)));
        fields.sort(BY_NAME);
        return new St(fields);
    }

    private T field(XMLEventReader parser) throws XMLStreamException {
        XMLEvent next = parser.peek();
        if (next.isEndElement()) {
            parser.nextEvent();
            return NULL;
        }
        if (next.isStartElement()) {
            return object(parser, List.of());
        }
        St st = object(parser, List.of());
        if (st.fields().isEmpty()) {
            return NULL;
        }
        F only = st.fields().get(0);
        if (st.fields().size() == 1 && (only.type() instanceof Atomic || only.type() instanceof Null)
                && only.name().equalsIgnoreCase(options.valueTag())) {
            return only.type();
        }
        return st;
    }

    private Map<String, String> attributeValues(List<Attribute> attributes) {
        Map<String, String> values = new LinkedHashMap<>();
        if (!options.excludeAttribute()) {
            for (Attribute a : attributes) {
                values.put(options.attributePrefix() + XmlReader.name(a.getName()), a.getValue());
            }
        }
        return values;
    }

    /** A name seen again makes its field an ARRAY of the types merged. */
    private void add(TreeMap<String, T> types, String name, T type) {
        if (!types.containsKey(name)) {
            types.put(name, type);
            return;
        }
        T old = types.get(name);
        types.put(name, old instanceof Arr ? merge(old, type) : new Arr(merge(old, type)));
    }

    /** The type of a text, as Spark tries them: BIGINT, DOUBLE, DATE, TIMESTAMP, BOOLEAN, else STRING; nothing for no text. */
    private T text(String datum) {
        String value = datum != null && options.ignoreSurroundingSpaces() ? datum.strip() : datum;
        if (value == null || value.isEmpty() || value.equals(options.nullValue())) {
            return NULL;
        }
        String unsigned = value.startsWith("+") || value.startsWith("-") ? value.substring(1) : value;
        boolean numeric = !unsigned.isEmpty() && (Character.isDigit(unsigned.charAt(0)) || unsigned.charAt(0) == '.')
                && "dDfF".indexOf(unsigned.charAt(unsigned.length() - 1)) < 0;
        if (numeric && Character.isDigit(unsigned.charAt(0)) && parses(() -> Long.parseLong(unsigned))) {
            return new Atomic(DataType.LONG);
        }
        if (numeric && parses(() -> Double.parseDouble(unsigned))) {
            return new Atomic(DataType.DOUBLE);
        }
        if (options.times().days(value) != null) {
            return new Atomic(DataType.DATE);
        }
        boolean timestamp = options.get("timestampformat") == null
                ? parses(() -> Casts.kernel(DataType.STRING, DataType.TIMESTAMP).apply1(value)) || parses(() -> LocalTime.parse(value))
                : options.times().micros(value, true) != null;
        if (timestamp) {
            return new Atomic(DataType.TIMESTAMP);
        }
        String lower = value.toLowerCase(Locale.ROOT);
        return new Atomic(lower.equals("true") || lower.equals("false") ? DataType.BOOLEAN : DataType.STRING);
    }

    private static boolean parses(Runnable parse) {
        try {
            parse.run();
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** Spark's {@code XmlInferSchema.compatibleType}: the type both fit in. */
    private T merge(T a, T b) {
        if (a instanceof Null) {
            return b;
        }
        if (b instanceof Null || a.equals(b)) {
            return a;
        }
        if (a instanceof St sa && b instanceof St sb) {
            Map<String, F> merged = new LinkedHashMap<>();
            for (F f : concat(sa.fields(), sb.fields())) {
                merged.merge(f.name().toLowerCase(Locale.ROOT), f, (x, y) -> new F(x.name(), merge(x.type(), y.type())));
            }
            List<F> fields = new ArrayList<>(merged.values());
            fields.sort(BY_NAME);
            return new St(fields);
        }
        if (a instanceof Arr aa && b instanceof Arr ab) {
            return new Arr(merge(aa.element(), ab.element()));
        }
        if (a instanceof Atomic x && b instanceof Atomic y) {
            Kind ka = x.type().kind();
            Kind kb = y.type().kind();
            if (numeric(ka) && numeric(kb)) {
                return new Atomic(ka == Kind.DOUBLE || kb == Kind.DOUBLE ? DataType.DOUBLE : DataType.LONG);
            }
            if (time(ka) && time(kb)) {
                return new Atomic(DataType.TIMESTAMP);
            }
        }
        if (a instanceof Arr aa) {
            return new Arr(merge(aa.element(), b));
        }
        if (b instanceof Arr ab) {
            return new Arr(merge(a, ab.element()));
        }
        T withValue = a instanceof St sa ? valueMerged(sa, b) : b instanceof St sb ? valueMerged(sb, a) : null;
        return withValue != null ? withValue : new Atomic(DataType.STRING);
    }

    /** A STRUCT with the value tag and a value: the STRUCT, its value tag's type merged with the value's; null without one. */
    private T valueMerged(St struct, T value) {
        List<F> fields = new ArrayList<>(struct.fields());
        for (int i = 0; i < fields.size(); i++) {
            if (fields.get(i).name().equals(options.valueTag())) {
                fields.set(i, new F(options.valueTag(), merge(fields.get(i).type(), value)));
                return new St(fields);
            }
        }
        return null;
    }

    private static boolean numeric(Kind k) {
        return k == Kind.LONG || k == Kind.DOUBLE;
    }

    private static boolean time(Kind k) {
        return k == Kind.DATE || k == Kind.TIMESTAMP;
    }

    private static List<F> concat(List<F> a, List<F> b) {
        List<F> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    /** NullType as STRING, fields of no name and STRUCTs of no fields left out (null when nothing is left). */
    private static T canonical(T t) {
        if (t instanceof Null) {
            return new Atomic(DataType.STRING);
        }
        if (t instanceof Arr a) {
            T e = canonical(a.element());
            return e == null ? null : new Arr(e);
        }
        if (t instanceof St st) {
            List<F> fields = new ArrayList<>();
            for (F f : st.fields()) {
                T c = f.name().isEmpty() ? null : canonical(f.type());
                if (c != null) {
                    fields.add(new F(f.name(), c));
                }
            }
            return fields.isEmpty() ? null : new St(fields);
        }
        return t;
    }

    /** Spark's SQL text of a type: {@code STRUCT<a: BIGINT, `b c`: ARRAY<STRING>>}. */
    private static String ddl(T t) {
        if (t instanceof Arr a) {
            return "ARRAY<" + ddl(a.element()) + ">";
        }
        if (t instanceof St st) {
            StringBuilder sb = new StringBuilder("STRUCT<");
            for (F f : st.fields()) {
                sb.append(sb.length() > "STRUCT<".length() ? ", " : "").append(io.tributary.schema.Schema.quote(f.name())).append(": ")
                        .append(ddl(f.type()));
            }
            return sb.append('>').toString();
        }
        return Types.name(((Atomic) t).type());
    }
}
