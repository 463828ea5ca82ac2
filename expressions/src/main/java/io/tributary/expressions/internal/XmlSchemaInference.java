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

    /**
     * A file source's records, as Spark's {@code XmlInferSchema.infer} merges their types ({@code compatibleType}): {@link #add}
     * each record of a file's reader, then {@link #fields} gives the columns. Not thread-safe.
     */
    final class Merged {
        private T merged = NULL;

        /** Merges the type of the element whose start is {@code parser}'s next event, {@code parser} left after its end. */
        void add(XMLEventReader parser) throws XMLStreamException {
            T type = object(parser, XmlReader.attributes(parser.nextEvent().asStartElement()));
            merged = merge(merged, type);
        }

        /** The columns so far, sorted by name as Spark sorts them; empty when no record had a field. */
        List<io.tributary.schema.Field> fields() {
            List<io.tributary.schema.Field> fields = new ArrayList<>();
            if (canonical(merged) instanceof St st) {
                for (F f : st.fields()) {
                    fields.add(new io.tributary.schema.Field(f.name(), type(f.type()), true));
                }
            }
            return fields;
        }
    }

    /** A canonical type as Tributary's schema model holds it. */
    private static DataType type(T t) {
        if (t instanceof Arr a) {
            return DataType.array(type(a.element()));
        }
        if (t instanceof St st) {
            List<io.tributary.schema.Field> fields = new ArrayList<>();
            for (F f : st.fields()) {
                fields.add(new io.tributary.schema.Field(f.name(), type(f.type()), true));
            }
            return DataType.struct(new io.tributary.schema.Schema(fields));
        }
        return ((Atomic) t).type();
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
                add(types, options.name(XmlReader.name(e.asStartElement())), type);
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
                values.put(options.attributePrefix() + options.name(XmlReader.name(a.getName())), a.getValue());
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

    /**
     * The type of a text, as Spark tries them: BIGINT, DECIMAL (with prefersDecimal), DOUBLE, DATE, TIMESTAMP, BOOLEAN, else
     * STRING; nothing for no text; STRING for any text without inferSchema.
     */
    private T text(String datum) {
        if (!options.inferSchema()) {
            return new Atomic(DataType.STRING);
        }
        String value = datum != null && options.ignoreSurroundingSpaces() ? datum.strip() : datum;
        if (value == null || value.isEmpty()) { // Spark infers the nullValue text as any other text
            return NULL;
        }
        String unsigned = value.startsWith("+") || value.startsWith("-") ? value.substring(1) : value;
        boolean numeric = !unsigned.isEmpty() && (Character.isDigit(unsigned.charAt(0)) || unsigned.charAt(0) == '.')
                && "dDfF".indexOf(unsigned.charAt(unsigned.length() - 1)) < 0;
        if (numeric && Character.isDigit(unsigned.charAt(0)) && parses(() -> Long.parseLong(unsigned))) {
            return new Atomic(DataType.LONG);
        }
        DataType decimal = numeric && options.prefersDecimal() ? decimal(value) : null;
        if (decimal != null) {
            return new Atomic(decimal);
        }
        if (numeric && parses(() -> Double.parseDouble(unsigned))) {
            return new Atomic(DataType.DOUBLE);
        }
        // text without a digit is no date or time in Spark's default forms; skipping it spares the parsers' exceptions
        boolean defaultForms = options.get("timestampformat") == null && options.get("dateformat") == null;
        if (defaultForms && value.chars().noneMatch(Character::isDigit)) {
            String lower = value.toLowerCase(Locale.ROOT);
            return new Atomic(lower.equals("true") || lower.equals("false") ? DataType.BOOLEAN : DataType.STRING);
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

    /** Spark's {@code tryParseDecimal}: DECIMAL(max(precision, scale), scale) of the text in the locale, or null (a negative scale, over 38 digits). */
    private DataType decimal(String value) {
        try {
            java.math.BigDecimal d = XmlValues.parseDecimal(value, options.locale());
            int precision = Math.max(d.precision(), d.scale());
            return d.scale() < 0 || precision > 38 ? null : DataType.decimal(precision, d.scale());
        } catch (RuntimeException e) {
            return null;
        }
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
                return new Atomic(numbers(x.type(), y.type()));
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
        return k == Kind.LONG || k == Kind.DOUBLE || k == Kind.DECIMAL;
    }

    /**
     * Two inferred numbers' type, as Spark's {@code compatibleType} merges them: a DOUBLE wins; a BIGINT fits a DECIMAL of 20
     * digits before the point; two DECIMALs give the larger of each part (DOUBLE past 38 digits).
     */
    private static DataType numbers(DataType a, DataType b) {
        if (a.kind() == Kind.DOUBLE || b.kind() == Kind.DOUBLE) {
            return DataType.DOUBLE;
        }
        if (a.kind() == Kind.LONG && b.kind() == Kind.LONG) {
            return DataType.LONG;
        }
        DataType x = a.kind() == Kind.LONG ? DataType.decimal(20, 0) : a;
        DataType y = b.kind() == Kind.LONG ? DataType.decimal(20, 0) : b;
        int scale = Math.max(x.scale(), y.scale());
        int range = Math.max(x.precision() - x.scale(), y.precision() - y.scale());
        return range + scale > 38 ? DataType.DOUBLE : DataType.decimal(range + scale, scale);
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
