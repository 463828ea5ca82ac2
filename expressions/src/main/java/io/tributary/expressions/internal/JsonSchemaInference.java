package io.tributary.expressions.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.tributary.schema.DataType;
import io.tributary.schema.JsonTypes;
import io.tributary.schema.Schema;
import io.tributary.schema.TimeTexts;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.AbstractMap.SimpleImmutableEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The DDL text {@code schema_of_json} gives, as Spark's {@code SchemaOfJson} works it out: {@code JsonInferSchema}'s
 * inference of the first value (an object's fields sorted by name, case-sensitively and stably, each kept, so {@code A}
 * and {@code a}, or a name given twice, are two fields; two objects' sorted fields merged name by name; leaves by
 * {@link JsonTypes#scalar}, merged by {@link JsonTypes#merge}), then its canonical form: a field with an empty name and
 * an empty object are dropped, and so is a field or array that held only them; what is left empty at the top is
 * {@code STRUCT<>} (an object), {@code ARRAY<STRUCT<>>} (an array of objects) or {@code STRING}. The types are kept
 * as text, not as {@link DataType}s, as a struct's fields here may share a name.
 */
final class JsonSchemaInference {
    /** An object's fields sorted by name; an array's element; a leaf's {@link DataType}; null for "only nulls so far". */
    private record Struct(List<Map.Entry<String, Object>> fields) {
    }

    private record Array(Object element) {
    }

    /**
     * Spark's options of the inference: every number and boolean STRING ({@code primitivesAsString}); a number with a fraction,
     * or a text that reads as one, a DECIMAL ({@code prefersDecimal}); a text that reads as a timestamp, by {@code
     * timestampFormat} or Spark's forms, TIMESTAMP ({@code inferTimestamp}); a field of only nulls dropped ({@code
     * dropFieldIfAllNull}).
     */
    record Options(boolean primitivesAsString, boolean prefersDecimal, boolean inferTimestamp, TimeTexts times, boolean dropFieldIfAllNull) {
        static final Options DEFAULT = new Options(false, false, false, null, false);
    }

    private JsonSchemaInference() {
    }

    /** The DDL of the first JSON value of {@code text} read by {@code factory}. */
    static String ddl(JsonFactory factory, String text) throws IOException {
        return ddl(factory, text, Options.DEFAULT);
    }

    /** The DDL of the first JSON value of {@code text} read by {@code factory}, inferred with {@code o}. */
    static String ddl(JsonFactory factory, String text, Options o) throws IOException {
        Object type;
        try (JsonParser p = factory.createParser(text)) {
            JsonToken t = p.nextToken();
            if (t == JsonToken.START_ARRAY) { // the top array's elements, as value() reads them, but for one check
                Object element = null;
                for (JsonToken e = p.nextToken(); e != JsonToken.END_ARRAY && e != null; e = p.nextToken()) {
                    Object next = value(p, e, o);
                    if (element instanceof Struct x && next instanceof Struct y && namedInAnotherCase(x, y) != null) {
                        throw new Unsupported("its objects name field " + namedInAnotherCase(x, y) + " in different cases, which Spark"
                                + " merges into one field there");
                    }
                    element = merge(element, next);
                }
                type = new Array(element);
            } else {
                type = value(p, t, o);
            }
        }
        if (type instanceof Struct) {
            return orElse(canonical(type, o), "STRUCT<>");
        }
        if (type instanceof Array a && a.element() instanceof Struct) {
            return "ARRAY<" + orElse(canonical(a.element(), o), "STRUCT<>") + ">";
        }
        return orElse(canonical(type, o), "STRING");
    }

    /** A field name of {@code x} that {@code y} writes in another case, or null. */
    private static String namedInAnotherCase(Struct x, Struct y) {
        for (Map.Entry<String, Object> f : x.fields()) {
            for (Map.Entry<String, Object> g : y.fields()) {
                if (f.getKey().equalsIgnoreCase(g.getKey()) && !f.getKey().equals(g.getKey())) {
                    return f.getKey();
                }
            }
        }
        return null;
    }

    /** Text whose schema Tributary does not work out as Spark does; the message says why. */
    static final class Unsupported extends IOException {
        Unsupported(String why) {
            super(why);
        }
    }

    private static String orElse(String ddl, String otherwise) {
        return ddl == null ? otherwise : ddl;
    }

    private static Object value(JsonParser p, JsonToken t, Options o) throws IOException {
        if (t == null || t == JsonToken.VALUE_NULL) {
            return null;
        }
        if (t == JsonToken.VALUE_STRING) {
            return text(p.getText(), o);
        }
        if (t.isScalarValue() && o.primitivesAsString()) {
            return DataType.STRING;
        }
        if (t == JsonToken.VALUE_NUMBER_FLOAT && o.prefersDecimal()) {
            BigDecimal d = p.getDecimalValue();
            int precision = Math.max(d.precision(), d.scale());
            if (precision > 38) {
                return DataType.DOUBLE;
            }
            if (d.scale() < 0) { // Spark fails the row
                throw Failure.of("NEGATIVE_SCALE_DISALLOWED", "schema_of_json with prefersDecimal of the number " + p.getText()
                        + ", whose DECIMAL would have a negative scale");
            }
            return DataType.decimal(precision, d.scale());
        }
        if (t == JsonToken.START_OBJECT) {
            List<Map.Entry<String, Object>> fields = new ArrayList<>();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                fields.add(new SimpleImmutableEntry<>(name, value(p, p.nextToken(), o)));
            }
            fields.sort(Map.Entry.comparingByKey()); // stable: a name given twice keeps its order
            return new Struct(fields);
        }
        if (t == JsonToken.START_ARRAY) {
            Object element = null;
            for (JsonToken e = p.nextToken(); e != JsonToken.END_ARRAY && e != null; e = p.nextToken()) {
                element = merge(element, value(p, e, o));
            }
            return new Array(element);
        }
        return JsonTypes.scalar(p, t);
    }

    /** A text's type: nothing for an empty one, a DECIMAL or TIMESTAMP where the options read it as one, else STRING. */
    private static Object text(String text, Options o) {
        if (text.isEmpty()) {
            return null; // Spark takes an empty text for a null
        }
        if (o.prefersDecimal()) {
            try {
                BigDecimal d = new BigDecimal(text.replace(",", ""));
                if (d.scale() >= 0 && d.scale() <= d.precision() && d.precision() <= 38) {
                    return DataType.decimal(d.precision(), d.scale());
                }
            } catch (NumberFormatException e) {
                // not a number
            }
        }
        if (o.inferTimestamp() && o.times().micros(text, true) != null) {
            return DataType.TIMESTAMP;
        }
        return DataType.STRING;
    }

    /**
     * Spark's {@code compatibleType}: structs by a merge of their sorted fields (the same name in both merged, each other
     * field kept in order), arrays by element, leaves as the sources merge them, else STRING.
     */
    private static Object merge(Object a, Object b) {
        if (a == null) {
            return b;
        }
        if (b == null) {
            return a;
        }
        if (a instanceof Struct x && b instanceof Struct y) {
            List<Map.Entry<String, Object>> fields = new ArrayList<>();
            int i = 0;
            int j = 0;
            while (i < x.fields().size() && j < y.fields().size()) {
                Map.Entry<String, Object> f = x.fields().get(i);
                Map.Entry<String, Object> g = y.fields().get(j);
                int c = f.getKey().compareTo(g.getKey());
                if (c == 0) {
                    fields.add(new SimpleImmutableEntry<>(f.getKey(), merge(f.getValue(), g.getValue())));
                    i++;
                    j++;
                } else {
                    fields.add(c < 0 ? f : g);
                    i += c < 0 ? 1 : 0;
                    j += c < 0 ? 0 : 1;
                }
            }
            fields.addAll(x.fields().subList(i, x.fields().size()));
            fields.addAll(y.fields().subList(j, y.fields().size()));
            return new Struct(fields);
        }
        if (a instanceof Array x && b instanceof Array y) {
            return new Array(merge(x.element(), y.element()));
        }
        if (a instanceof DataType x && b instanceof DataType y) {
            return JsonTypes.merge(x, y);
        }
        return DataType.STRING;
    }

    /** Spark's {@code canonicalizeType} as DDL: only nulls is STRING (dropped with dropFieldIfAllNull); null when the type is dropped. */
    private static String canonical(Object type, Options o) {
        if (type == null) {
            return o.dropFieldIfAllNull() ? null : "STRING";
        }
        if (type instanceof Array a) {
            String element = canonical(a.element(), o);
            return element == null ? null : "ARRAY<" + element + ">";
        }
        if (type instanceof Struct s) {
            List<String> fields = new ArrayList<>();
            for (Map.Entry<String, Object> f : s.fields()) {
                String ddl = f.getKey().isEmpty() ? null : canonical(f.getValue(), o);
                if (ddl != null) {
                    fields.add(Schema.quote(f.getKey()) + ": " + ddl);
                }
            }
            return fields.isEmpty() ? null : "STRUCT<" + String.join(", ", fields) + ">";
        }
        return Types.name((DataType) type);
    }
}
