package io.tributary.schema;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The types of JSON values as Spark's JSON schema inference gives them ({@code JsonInferSchema}):
 * an integer is BIGINT (a DECIMAL(p,0) when it does not fit), a number with a fraction or exponent
 * DOUBLE, {@code true}/{@code false} BOOLEAN, a string STRING (no timestamp inference, Spark's
 * default), an object a STRUCT with its fields sorted by name, an array an ARRAY of its elements'
 * common type. Two types merge as Spark's {@code compatibleType}: numbers to the wider, structs
 * field by field, arrays by element, anything else to STRING. An empty object merges with any
 * object into that object's type and an empty array with any array into its type. Then Spark's
 * {@code canonicalizeType} ({@link #finish}): a value only ever null, and the element of arrays
 * only ever empty, is STRING; a field only ever an empty object (or arrays of them), and a struct
 * left with no field, is dropped. With {@code typed} false every leaf is STRING (Auto Loader's
 * default, {@code cloudFiles.inferColumnTypes=false}). The file source and a Kafka source with JSON
 * values infer their columns by these rules.
 *
 * <p>Types are built bottom-up; null stands for "only nulls so far", {@link #EMPTY_OBJECT} for an
 * object with no field and {@link #NO_ELEMENT} for the element of an array with none, until
 * {@link #finish}.
 */
public final class JsonTypes {
    private static final JsonFactory JSON = JsonFactory.builder()
            .enable(JsonReadFeature.ALLOW_SINGLE_QUOTES)
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .build();

    /** An object with no field so far: Spark's {@code StructType(Nil)}, merged away or dropped by {@link #finish}. */
    private static final DataType EMPTY_OBJECT = new DataType(DataType.Kind.STRING, -4, 0, null, null);
    /** The element of an array with none but nulls so far: Spark's {@code NullType} there, STRING after {@link #finish}. */
    private static final DataType NO_ELEMENT = new DataType(DataType.Kind.STRING, -5, 0, null, null);

    private JsonTypes() {
    }

    /** The type of one JSON value's text (null when it is {@code null}). */
    public static DataType infer(String json, boolean typed) {
        return infer(JSON, json, typed);
    }

    /** As {@link #infer(String, boolean)}, read by {@code factory} (Spark's JSON options: comments, unquoted names...). */
    public static DataType infer(JsonFactory factory, String json, boolean typed) {
        try (JsonParser p = factory.createParser(json)) {
            return value(p, p.nextToken(), typed);
        } catch (IOException e) {
            return DataType.STRING;
        }
    }

    /** The type of every field of a JSON object's text, by name. */
    public static Map<String, DataType> fields(String jsonObject, boolean typed) {
        try (JsonParser p = JSON.createParser(jsonObject)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return Map.of();
            }
            return object(p, typed);
        } catch (IOException e) {
            return Map.of();
        }
    }

    private static DataType value(JsonParser p, JsonToken t, boolean typed) throws IOException {
        if (t == null || t == JsonToken.VALUE_NULL) {
            return null;
        }
        switch (t) {
            case START_OBJECT: {
                Map<String, DataType> fields = object(p, typed);
                List<Field> out = new ArrayList<>();
                fields.forEach((k, v) -> out.add(new Field(k, v, true)));
                return out.isEmpty() ? EMPTY_OBJECT : DataType.struct(new Schema(out));
            }
            case START_ARRAY: {
                DataType element = null;
                JsonToken e;
                while ((e = p.nextToken()) != JsonToken.END_ARRAY && e != null) {
                    element = merge(element, value(p, e, typed));
                }
                return DataType.array(element == null ? NO_ELEMENT : element);
            }
            default:
                break;
        }
        return typed ? scalar(p, t) : DataType.STRING;
    }

    /** The type of the scalar value at {@code t} (a number, a boolean or a string), as Spark's inference gives it. */
    public static DataType scalar(JsonParser p, JsonToken t) throws IOException {
        return switch (t) {
            case VALUE_TRUE, VALUE_FALSE -> DataType.BOOLEAN;
            case VALUE_NUMBER_INT -> {
                if (p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
                    int digits = p.getBigIntegerValue().abs().toString().length();
                    yield digits <= 38 ? DataType.decimal(digits, 0) : DataType.DOUBLE;
                }
                yield DataType.LONG;
            }
            case VALUE_NUMBER_FLOAT -> DataType.DOUBLE;
            default -> DataType.STRING;
        };
    }

    private static Map<String, DataType> object(JsonParser p, boolean typed) throws IOException {
        Map<String, DataType> fields = new TreeMap<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            DataType v = value(p, p.nextToken(), typed);
            fields.put(name, fields.containsKey(name) ? merge(fields.get(name), v) : v);
        }
        return fields;
    }

    /** The type both {@code a} and {@code b} values fit in, as Spark's {@code compatibleType}; null means "only nulls". */
    public static DataType merge(DataType a, DataType b) {
        if (a == null || NO_ELEMENT.equals(a) && b != null) {
            return b;
        }
        if (b == null || NO_ELEMENT.equals(b) || a.equals(b)) {
            return a;
        }
        if (EMPTY_OBJECT.equals(a) && b.kind() == DataType.Kind.STRUCT) {
            return b;
        }
        if (EMPTY_OBJECT.equals(b) && a.kind() == DataType.Kind.STRUCT) {
            return a;
        }
        if (isNumber(a) && isNumber(b)) {
            if (a.kind() == DataType.Kind.DOUBLE || b.kind() == DataType.Kind.DOUBLE) {
                return DataType.DOUBLE;
            }
            int scale = Math.max(a.scale(), b.scale());
            int integer = Math.max(integerDigits(a), integerDigits(b));
            return integer + scale > 38 ? DataType.DOUBLE : DataType.decimal(integer + scale, scale);
        }
        if (a.kind() == DataType.Kind.STRUCT && b.kind() == DataType.Kind.STRUCT) {
            Map<String, DataType> fields = new TreeMap<>();
            for (Field f : a.struct().fields()) {
                fields.put(f.name(), f.type());
            }
            for (Field f : b.struct().fields()) {
                fields.put(f.name(), fields.containsKey(f.name()) ? merge(fields.get(f.name()), f.type()) : f.type());
            }
            List<Field> out = new ArrayList<>();
            fields.forEach((k, v) -> out.add(new Field(k, v, true)));
            return DataType.struct(new Schema(out));
        }
        if (a.kind() == DataType.Kind.ARRAY && b.kind() == DataType.Kind.ARRAY) {
            return DataType.array(merge(a.element(), b.element()));
        }
        return DataType.STRING;
    }

    private static boolean isNumber(DataType t) {
        return t.kind() == DataType.Kind.LONG || t.kind() == DataType.Kind.DOUBLE || t.kind() == DataType.Kind.DECIMAL;
    }

    private static int integerDigits(DataType t) {
        return t.kind() == DataType.Kind.LONG ? 20 : t.precision() - t.scale();
    }

    /**
     * A type as Spark's inference ends ({@code canonicalizeType}): "only nulls", and the element of arrays only ever empty,
     * resolved to STRING; null when Spark drops the field: it only ever held empty objects, arrays of them, or objects whose
     * fields are all dropped so (a field named {@code ""} is dropped too).
     */
    public static DataType finish(DataType t) {
        if (t == null || NO_ELEMENT.equals(t)) {
            return DataType.STRING;
        }
        if (EMPTY_OBJECT.equals(t)) {
            return null;
        }
        if (t.kind() == DataType.Kind.ARRAY) {
            DataType element = finish(t.element());
            return element == null ? null : element.equals(t.element()) ? t : DataType.array(element);
        }
        if (t.kind() == DataType.Kind.STRUCT) {
            List<Field> out = new ArrayList<>();
            for (Field f : t.struct().fields()) {
                DataType type = f.name().isEmpty() ? null : finish(f.type());
                if (type != null) {
                    out.add(type == f.type() ? f : new Field(f.name(), type, f.nullable()));
                }
            }
            return out.isEmpty() ? null : out.size() == t.struct().fields().size() && out.equals(t.struct().fields()) ? t
                    : DataType.struct(new Schema(out));
        }
        return t;
    }

    /**
     * Whether Spark's inference drops a field of this JSON value ({@link #finish}): {@code {}}, {@code [{}]}, {@code {"a": {}}}.
     * A new field of such values is no new column.
     */
    public static boolean dropped(String json) {
        DataType t = infer(json, true);
        return t != null && finish(t) == null;
    }

    /** The columns {@link #finish}ed, in their order, without those Spark drops. */
    public static Map<String, DataType> finish(Map<String, DataType> columns) {
        Map<String, DataType> out = new LinkedHashMap<>();
        columns.forEach((k, v) -> {
            DataType t = finish(v);
            if (t != null) {
                out.put(k, t);
            }
        });
        return out;
    }

}
