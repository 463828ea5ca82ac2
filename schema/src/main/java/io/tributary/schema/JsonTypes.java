package io.tributary.schema;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The types of JSON values as Spark's JSON schema inference gives them ({@code JsonInferSchema}):
 * an integer is BIGINT (a DECIMAL(p,0) when it does not fit), a number with a fraction or exponent
 * DOUBLE, {@code true}/{@code false} BOOLEAN, a string STRING (no timestamp inference, Spark's
 * default), an object a STRUCT with its fields sorted by name, an array an ARRAY of its elements'
 * common type. Two types merge as Spark's {@code compatibleType}: numbers to the wider, structs
 * field by field, arrays by element, anything else to STRING. A value only ever null, an empty
 * array's element or an empty object is STRING. With {@code typed} false every leaf is STRING
 * (Auto Loader's default, {@code cloudFiles.inferColumnTypes=false}). The file source and a Kafka
 * source with JSON values infer their columns by these rules.
 *
 * <p>Types are built bottom-up; null stands for "only nulls so far" until {@link #finish}.
 */
public final class JsonTypes {
    private static final JsonFactory JSON = JsonFactory.builder()
            .enable(JsonReadFeature.ALLOW_SINGLE_QUOTES)
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .build();

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
                return out.isEmpty() ? DataType.STRING : DataType.struct(new Schema(out));
            }
            case START_ARRAY: {
                DataType element = null;
                JsonToken e;
                while ((e = p.nextToken()) != JsonToken.END_ARRAY && e != null) {
                    element = merge(element, value(p, e, typed));
                }
                return DataType.array(element == null ? DataType.STRING : element);
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
        if (a == null) {
            return b;
        }
        if (b == null || a.equals(b)) {
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

    /** A type with "only nulls" resolved to STRING, as Spark's inference ends. */
    public static DataType finish(DataType t) {
        return t == null ? DataType.STRING : t;
    }

}
