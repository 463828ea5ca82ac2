package io.tributary.expressions.internal;

import io.tributary.schema.DataType;
import io.tributary.schema.DataType.Kind;
import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import java.math.BigDecimal;
import java.time.format.DateTimeFormatter;
import java.util.ArrayDeque;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.apache.spark.types.variant.Variant;
import org.apache.spark.types.variant.VariantUtil;

/**
 * A STRUCT as Spark's {@code to_xml} writes it ({@code StaxXmlGenerator} behind an indenting writer): the row as an element
 * named by {@code rowTag}, fields named by the attribute prefix as its attributes (first), the value tag's field as its text,
 * the others as child elements; an ARRAY field as its name repeated, an array inside an array as {@code arrayElementName}
 * elements; null fields left out, or written as {@code nullValue} when it is set; an element with child elements has them on
 * lines of their own, indented by {@code indent} (four spaces; none when empty). A VARIANT is written by {@link #variant}.
 */
final class XmlWriter {
    private final XmlOptions options;
    private final String indent;
    private final DateTimeFormatter timestamps;
    private final DateTimeFormatter timestampsNtz;
    private final DateTimeFormatter dates;

    XmlWriter(XmlOptions options) {
        this.options = options;
        this.indent = options.options().getOrDefault("indent", "    ");
        this.timestamps = DateFunctions.formatter(options.options().getOrDefault("timestampformat", "yyyy-MM-dd'T'HH:mm:ss.SSSXXX"),
                options.locale());
        this.timestampsNtz = DateFunctions.formatter(options.options().getOrDefault("timestampntzformat", "yyyy-MM-dd'T'HH:mm:ss.SSS"));
        this.dates = DateFunctions.formatter(options.options().getOrDefault("dateformat", "yyyy-MM-dd"), options.locale());
    }

    /** What the writer has written and where it is, as the indenting writer keeps it: the depth, and whether the open element has child elements. */
    private static final class Out {
        final StringBuilder text = new StringBuilder();
        final ArrayDeque<Boolean> parents = new ArrayDeque<>();
        boolean seenElement;
        /** Whether the last start tag is still open for attributes. */
        boolean open;
    }

    /** The row, a STRUCT, or a VARIANT as XML text. */
    String write(DataType type, Object row) {
        Out out = new Out();
        childElement(out, options.rowTag(), type, row);
        if (indent.isEmpty() && !type.isVariant()) { // Spark's writer ends a row's line, not a variant's
            out.text.append('\n');
        }
        return out.text.toString();
    }

    private boolean isAttribute(String name) {
        return name.startsWith(options.attributePrefix()) && !name.equals(options.valueTag());
    }

    private void childElement(Out out, String name, DataType type, Object v) {
        if (v == null && options.nullValue() == null) {
            return;
        }
        if (name.equals(options.valueTag())) {
            element(out, type, v);
            return;
        }
        if (type.isVariant()) {
            variant(out, name, (Variant) v);
            return;
        }
        start(out, name);
        element(out, type, v);
        end(out, name);
    }

    private void child(Out out, String name, DataType type, Object v) {
        if (isAttribute(name)) {
            String value = v == null ? options.nullValue() : v instanceof BigDecimal d ? d.toString() : String.valueOf(v);
            if (value != null) {
                checkName(name.substring(options.attributePrefix().length()));
                out.text.append(' ').append(name.substring(options.attributePrefix().length())).append("=\"").append(escape(value, true))
                        .append('"');
            }
        } else if (type.kind() == Kind.ARRAY && v != null) {
            for (Object e : (List<?>) v) {
                childElement(out, name, type.element(), e);
            }
        } else {
            childElement(out, name, type, v);
        }
    }

    private void element(Out out, DataType type, Object v) {
        if (v == null) {
            characters(out, options.nullValue());
            return;
        }
        switch (type.kind()) {
            case STRUCT -> {
                Schema fields = type.struct();
                Object[] row = (Object[]) v;
                writeFields(out, fields.fields(), row, true);
                writeFields(out, fields.fields(), row, false);
            }
            case ARRAY -> {
                for (Object e : (List<?>) v) {
                    child(out, options.arrayElementName(), type.element(), e);
                }
            }
            case MAP -> {
                Map<?, ?> map = (Map<?, ?>) v;
                for (boolean attributes : new boolean[] {true, false}) {
                    map.forEach((k, value) -> {
                        String key = Casts.toText(k, type.keyType());
                        if (isAttribute(key) == attributes) {
                            child(out, key, type.valueType(), value);
                        }
                    });
                }
            }
            default -> characters(out, text(type, v));
        }
    }

    /**
     * A VARIANT as Spark's writer writes it: an object as the element {@code name} with its fields (those named with the
     * attribute prefix as attributes, first), an array as its elements each under {@code name} (an array in it under
     * {@code arrayElementName}), a value as the element's text ({@code <c/>} for a variant null unless nullValue is set).
     */
    private void variant(Out out, String name, Variant v) {
        switch (v.getType()) {
            case OBJECT -> {
                start(out, name);
                for (boolean attributes : new boolean[] {true, false}) {
                    for (int i = 0; i < v.objectSize(); i++) {
                        Variant.ObjectField f = v.getFieldAtIndex(i);
                        if (isAttribute(f.key) == attributes) {
                            variant(out, f.key, f.value);
                        }
                    }
                }
                end(out, name);
            }
            case ARRAY -> {
                for (int i = 0; i < v.arraySize(); i++) {
                    Variant e = v.getElementAtIndex(i);
                    variant(out, e.getType() == VariantUtil.Type.ARRAY ? options.arrayElementName() : name, e);
                }
            }
            default -> {
                String text = primitive(v);
                if (text != null && isAttribute(name)) {
                    checkName(name.substring(options.attributePrefix().length()));
                    out.text.append(' ').append(name.substring(options.attributePrefix().length())).append("=\"")
                            .append(escape(text, true)).append('"');
                } else if (text != null && name.equals(options.valueTag())) {
                    characters(out, text);
                } else {
                    start(out, name);
                    if (text != null) {
                        characters(out, text);
                    }
                    end(out, name);
                }
            }
        }
    }

    /** A variant's value as text; a variant null is the nullValue text, or null when none is set. */
    private String primitive(Variant v) {
        return switch (v.getType()) {
            case NULL -> options.nullValue();
            case BOOLEAN -> String.valueOf(v.getBoolean());
            case LONG -> String.valueOf(v.getLong());
            case STRING -> v.getString();
            case DOUBLE -> String.valueOf(v.getDouble());
            case DECIMAL -> v.getDecimal().toString();
            case DATE -> text(DataType.DATE, (int) v.getLong());
            case TIMESTAMP -> text(DataType.TIMESTAMP, v.getLong());
            case TIMESTAMP_NTZ -> text(DataType.TIMESTAMP_NTZ, v.getLong());
            case FLOAT -> String.valueOf(v.getFloat());
            case BINARY -> Base64.getEncoder().encodeToString(v.getBinary());
            case UUID -> v.getUuid().toString();
            default -> throw Failure.of("SparkIllegalArgumentException", "to_xml cannot write the variant value " + v.getType());
        };
    }

    private void writeFields(Out out, List<Field> fields, Object[] row, boolean attributes) {
        for (int i = 0; i < fields.size(); i++) {
            if (isAttribute(fields.get(i).name()) == attributes) {
                child(out, fields.get(i).name(), fields.get(i).type(), row[i]);
            }
        }
    }

    private String text(DataType type, Object v) {
        return switch (type.kind()) {
            case DATE -> dates.format(Dates.date((Integer) v));
            case TIMESTAMP -> timestamps.format(Dates.instant((Long) v).atZone(options.zone()));
            case TIMESTAMP_NTZ -> timestampsNtz.format(Dates.dateTime((Long) v));
            case DECIMAL -> ((BigDecimal) v).toString();
            default -> String.valueOf(v);
        };
    }

    /** A start tag, left open for attributes until {@link #closeStartTag}. */
    private void start(Out out, String name) {
        checkName(name);
        closeStartTag(out);
        int depth = out.parents.size();
        if (depth > 0 && !indent.isEmpty()) {
            out.text.append('\n');
        }
        out.text.append(indent.repeat(depth)).append('<').append(name);
        out.open = true;
        out.parents.push(Boolean.TRUE);
        out.seenElement = false;
    }

    private static void closeStartTag(Out out) {
        if (out.open) {
            out.text.append('>');
            out.open = false;
        }
    }

    /** The end of an element: {@code />} after a start tag with nothing in it, as the writer empties elements. */
    private void end(Out out, String name) {
        boolean children = out.seenElement;
        out.seenElement = out.parents.pop();
        if (out.open) {
            out.text.append("/>");
            out.open = false;
            return;
        }
        if (children && !indent.isEmpty()) {
            out.text.append('\n').append(indent.repeat(out.parents.size()));
        }
        out.text.append("</").append(name).append('>');
    }

    private static void characters(Out out, String s) {
        closeStartTag(out);
        out.seenElement = false;
        if (s != null) {
            out.text.append(escape(s, false));
        }
    }

    /** An element or attribute name that is no XML name fails the row, as Spark's writer fails it (it checks names unless validateName is false). */
    private void checkName(String name) {
        if (!options.validateName()) {
            return;
        }
        boolean ok = !name.isEmpty() && (Character.isLetter(name.charAt(0)) || name.charAt(0) == '_' || name.charAt(0) == ':');
        for (int i = 1; ok && i < name.length(); i++) {
            char c = name.charAt(i);
            ok = Character.isLetterOrDigit(c) || c == '.' || c == '-' || c == '_' || c == ':' || Character.getType(c) == Character.NON_SPACING_MARK;
        }
        if (!ok) {
            throw Failure.of("XMLStreamException", "'" + name + "' is not an XML name: give the field a name of letters, digits, '_', '-', '.'");
        }
    }

    /** Text as Spark's XML writer escapes it: {@code &} and {@code <}; in an attribute also {@code "}. */
    static String escape(String s, boolean attribute) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> b.append("&amp;");
                case '<' -> b.append("&lt;");
                case '"' -> b.append(attribute ? "&quot;" : "\"");
                default -> b.append(c);
            }
        }
        return b.toString();
    }

}
