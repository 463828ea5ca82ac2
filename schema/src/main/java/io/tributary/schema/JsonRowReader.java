package io.tributary.schema;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.io.JsonEOFException;
import java.io.IOException;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@link RowJson}'s reading with Jackson, value by value, with the type rules of Spark's JSON
 * reader ({@link RowJson} lists them): what every reader of a topic's rows uses when the fast
 * path ({@code FlatRowReader}) is not sure. What the schema does not take (a field it lacks, a
 * value of the wrong type) can go to {@link Leftovers} instead of being ignored or failing the
 * record: the file source's schema evolution and rescued data use that.
 */
public final class JsonRowReader {
    private final Schema schema;
    /** How TIMESTAMP and DATE texts read. */
    private final TimeTexts times;
    private final JsonVariants variants;

    public JsonRowReader(Schema schema, TimeTexts times) {
        this(schema, times, JsonVariants.CANONICAL);
    }

    /** As above, a VARIANT (at any depth) read as {@code variants} says: the topics' bytes, or a JSON input's own value. */
    public JsonRowReader(Schema schema, TimeTexts times, JsonVariants variants) {
        this.schema = schema;
        this.times = times;
        this.variants = variants;
    }

    /** A parser of {@code bytes} with Spark's JSON reader defaults (single quotes, unquoted NaN and Infinity). */
    public static JsonParser parser(byte[] bytes, int offset, int length) throws IOException {
        return RowJson.JSON.createParser(bytes, offset, length);
    }

    /**
     * What the schema does not take of a record, for schema evolution: the top-level fields the
     * schema lacks and, when {@link #rescues()}, the top-level values of the wrong type (their
     * column then null instead of a bad record), each with its exact JSON text.
     */
    public interface Leftovers {
        /** A top-level field the schema lacks. */
        void unknown(String name, String json);

        /** True to hand values of the wrong type to {@link #mismatched} instead of failing the record. */
        boolean rescues();

        /** A top-level value its column's type cannot take. */
        void mismatched(String name, String json);
    }

    /** Jackson's complaint about malformed input as a bad record. */
    public static BadRecordException malformed(JsonProcessingException e) {
        String message = String.valueOf(e.getOriginalMessage());
        if (e instanceof JsonEOFException || message.startsWith("Unexpected end-of-input")) {
            return SchemaErrors.truncatedLine();
        }
        return SchemaErrors.malformedJson(message);
    }

    /**
     * Reads one record: a JSON object (its first token not yet read) and nothing after it, handing
     * what the schema does not take to {@code leftovers} (null: ignore unknown fields, fail on a
     * value of the wrong type). {@code bytes} from {@code offset} are what {@code p} parses.
     */
    public Object[] record(JsonParser p, byte[] bytes, int offset, Leftovers leftovers) throws IOException {
        return record(p, new Source(bytes, offset), leftovers);
    }

    /**
     * Reads the fields of an object whose START_OBJECT {@code p} just read, up to its END_OBJECT,
     * as a row of the schema ({@link #record}'s rules, for objects inside a larger document).
     */
    public Object[] object(JsonParser p, byte[] bytes, int offset, Leftovers leftovers) throws IOException {
        return object(p, schema, new Source(bytes, offset), leftovers);
    }

    private Object[] record(JsonParser p, Source src, Leftovers leftovers) throws IOException {
        JsonToken first = p.nextToken();
        if (first != JsonToken.START_OBJECT) {
            throw SchemaErrors.notAnObject(describe(first));
        }
        Object[] row = object(p, schema, src, leftovers);
        JsonToken trailing = p.nextToken();
        if (trailing != null) {
            throw SchemaErrors.trailingContent(describe(trailing));
        }
        return row;
    }

    /** Reads the fields of an object whose START_OBJECT was just read, up to its END_OBJECT. */
    private Object[] object(JsonParser p, Schema schema, Source src, Leftovers leftovers) throws IOException {
        Object[] row = new Object[schema.size()];
        JsonToken t;
        while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            int i = schema.fieldIndex(name);
            com.fasterxml.jackson.core.JsonStreamContext objectContext = p.getParsingContext();
            JsonToken v = p.nextToken();
            if (i < 0) {
                if (leftovers == null) {
                    p.skipChildren();
                } else {
                    long start = valueStart(p, v);
                    p.skipChildren();
                    leftovers.unknown(name, exactText(p, src, start));
                }
                continue;
            }
            if (leftovers == null || !leftovers.rescues()) {
                row[i] = value(p, v, schema.field(i), src);
                continue;
            }
            long start = valueStart(p, v);
            try {
                row[i] = value(p, v, schema.field(i), src);
            } catch (BadRecordException e) {
                while (p.getParsingContext() != objectContext) {
                    if (p.nextToken() == null) {
                        throw e;
                    }
                }
                leftovers.mismatched(name, exactText(p, src, start));
            }
        }
        if (t != JsonToken.END_OBJECT) {
            throw SchemaErrors.malformedObject();
        }
        for (int i = 0; i < row.length; i++) {
            if (row[i] == null && !schema.field(i).nullable()) {
                throw SchemaErrors.missingNotNull(schema.field(i).name());
            }
        }
        return row;
    }

    private Object value(JsonParser p, JsonToken t, Field f, Source src) throws IOException {
        DataType type = f.type();
        if (type.isVariant()) {
            return variants.read(p, t, f.name()); // JSON input: a null is a variant null, as in Spark's JSON reader
        }
        if (t == JsonToken.VALUE_NULL) {
            return null;
        }
        switch (type.kind()) {
            case STRING:
                if (t == JsonToken.VALUE_STRING) {
                    return p.getText();
                }
                return rawText(p, t, src);
            case BOOLEAN:
                if (t == JsonToken.VALUE_TRUE || t == JsonToken.VALUE_FALSE) {
                    return t == JsonToken.VALUE_TRUE;
                }
                break;
            case BYTE:
            case SHORT:
            case INT:
            case LONG:
                if (t == JsonToken.VALUE_NUMBER_INT) {
                    return integral(p, f);
                }
                break;
            case FLOAT:
            case DOUBLE:
                if (t == JsonToken.VALUE_NUMBER_INT || t == JsonToken.VALUE_NUMBER_FLOAT) {
                    double d = p.getDoubleValue();
                    return type.kind() == DataType.Kind.FLOAT ? (Object) (float) d : (Object) d;
                }
                if (t == JsonToken.VALUE_STRING) {
                    Double special = RowJson.special(p.getText());
                    if (special != null) {
                        return type.kind() == DataType.Kind.FLOAT ? (Object) special.floatValue() : (Object) special;
                    }
                }
                break;
            case DECIMAL:
                if (t == JsonToken.VALUE_NUMBER_INT || t == JsonToken.VALUE_NUMBER_FLOAT || t == JsonToken.VALUE_STRING) {
                    return decimal(p, t, f);
                }
                break;
            case DATE:
                if (t == JsonToken.VALUE_STRING) {
                    Integer days = times.days(p.getText());
                    if (days != null) {
                        return days;
                    }
                    throw SchemaErrors.notADate(f.name(), p.getText(), times.expectedDate());
                }
                break;
            case TIMESTAMP:
            case TIMESTAMP_NTZ:
                if (t == JsonToken.VALUE_STRING) {
                    boolean withZone = type.kind() == DataType.Kind.TIMESTAMP;
                    Long micros = times.micros(p.getText(), withZone);
                    if (micros != null) {
                        return micros;
                    }
                    throw SchemaErrors.notATimestamp(f.name(), p.getText(), times.expectedTimestamp(withZone));
                }
                if (t == JsonToken.VALUE_NUMBER_INT) {
                    try {
                        return Math.multiplyExact(p.getLongValue(), 1_000_000L);
                    } catch (ArithmeticException | IOException e) {
                        throw SchemaErrors.epochOutOfRange(f.name(), p.getText());
                    }
                }
                break;
            case STRUCT:
                if (t == JsonToken.START_OBJECT) {
                    try {
                        return object(p, type.struct(), src, null);
                    } catch (BadRecordException e) {
                        throw SchemaErrors.inStructField(f.name() + (e.field() == null ? "" : "." + e.field()), e.reason());
                    }
                }
                break;
            case ARRAY:
                if (t == JsonToken.START_ARRAY) {
                    return array(p, f, src);
                }
                break;
            case MAP:
                if (t == JsonToken.START_OBJECT) {
                    return map(p, f, src);
                }
                break;
            case BINARY:
                if (t == JsonToken.VALUE_STRING) {
                    try {
                        return Base64.getDecoder().decode(p.getText());
                    } catch (IllegalArgumentException e) {
                        throw SchemaErrors.notBase64(f.name(), e.getMessage());
                    }
                }
                break;
            default:
                break;
        }
        throw SchemaErrors.wrongType(f.name(), type.ddl(), describe(t), t.isScalarValue() ? p.getText() : null);
    }

    /** The elements of an array whose START_ARRAY was just read, up to its END_ARRAY. */
    private List<Object> array(JsonParser p, Field f, Source src) throws IOException {
        Field element = new Field(f.name() + "[]", f.type().element(), true);
        List<Object> values = new ArrayList<>();
        JsonToken t;
        while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
            if (t == null) {
                throw SchemaErrors.malformedArray(f.name());
            }
            try {
                values.add(value(p, t, element, src));
            } catch (BadRecordException e) {
                throw SchemaErrors.inArray(f.name(), values.size(), (e.field() == null ? "" : e.field().substring(element.name().length())), e.reason());
            }
        }
        return values;
    }

    /** The entries of an object read as a MAP, whose START_OBJECT was just read, up to its END_OBJECT. */
    private Map<Object, Object> map(JsonParser p, Field f, Source src) throws IOException {
        Field value = new Field(f.name() + ".", f.type().valueType(), true);
        DataType keyType = f.type().keyType();
        Map<Object, Object> entries = new LinkedHashMap<>();
        JsonToken t;
        while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
            String key = p.currentName();
            Object k = MapKeys.read(keyType, key, times);
            if (k == null) {
                throw SchemaErrors.badMapKey(f.name(), key, keyType.ddl());
            }
            Object v;
            try {
                v = value(p, p.nextToken(), value, src);
            } catch (BadRecordException e) {
                throw SchemaErrors.inMap(f.name(), key, (e.field() == null ? "" : e.field().substring(value.name().length())), e.reason());
            }
            entries.put(k, v); // a key given twice (or two texts of one key: "1" and "01"): the last value wins, as in Spark's JSON reader
        }
        if (t != JsonToken.END_OBJECT) {
            throw SchemaErrors.malformedMap(f.name());
        }
        return entries;
    }

    private static Object integral(JsonParser p, Field f) throws IOException {
        long min;
        long max;
        switch (f.type().kind()) {
            case BYTE -> { min = Byte.MIN_VALUE; max = Byte.MAX_VALUE; }
            case SHORT -> { min = Short.MIN_VALUE; max = Short.MAX_VALUE; }
            case INT -> { min = Integer.MIN_VALUE; max = Integer.MAX_VALUE; }
            default -> { min = Long.MIN_VALUE; max = Long.MAX_VALUE; }
        }
        if (p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
            throw SchemaErrors.doesNotFit(f.name(), p.getText(), f.type().ddl());
        }
        long v = p.getLongValue();
        if (v < min || v > max) {
            throw SchemaErrors.doesNotFit(f.name(), p.getText(), f.type().ddl());
        }
        return switch (f.type().kind()) {
            case BYTE -> (byte) v;
            case SHORT -> (short) v;
            case INT -> (int) v;
            default -> v;
        };
    }

    private static BigDecimal decimal(JsonParser p, JsonToken t, Field f) throws IOException {
        BigDecimal d;
        try {
            d = t == JsonToken.VALUE_STRING ? new BigDecimal(p.getText().strip()) : p.getDecimalValue();
        } catch (NumberFormatException | JsonProcessingException e) {
            throw SchemaErrors.notADecimal(f.name(), p.getText());
        }
        int scale = f.type().scale();
        BigDecimal scaled = d.setScale(scale, RoundingMode.HALF_UP);
        if (scaled.precision() - scaled.scale() > f.type().precision() - scale) {
            throw SchemaErrors.doesNotFit(f.name(), p.getText(), f.type().ddl());
        }
        return scaled;
    }

    /** The byte offset where the value {@code t} (the current token) starts; its text is complete after this. */
    private static long valueStart(JsonParser p, JsonToken t) throws IOException {
        if (t == JsonToken.VALUE_STRING) {
            p.getText(); // a string is read lazily: finish it, so that the location after it is known
        }
        return p.currentTokenLocation().getByteOffset();
    }

    /** The input from {@code start} to the parser's position: the exact JSON text of the value just read. */
    private static String exactText(JsonParser p, Source src, long start) {
        long end = p.currentLocation().getByteOffset();
        return new String(src.bytes(), src.offset() + (int) start, (int) (end - start), java.nio.charset.StandardCharsets.UTF_8);
    }

    /** The bytes being parsed, for the exact text of a value; Jackson's byte offsets count from {@code offset}. */
    private record Source(byte[] bytes, int offset) {
    }

    /**
     * The text of a non-string value for a STRING column: exactly as the input writes it, as Spark's
     * JSON reader keeps it ({@code spark.sql.json.enableExactStringParsing}, on by default).
     */
    private static String rawText(JsonParser p, JsonToken t, Source src) throws IOException {
        if (t.isScalarValue()) {
            return p.getText();
        }
        long start = p.currentTokenLocation().getByteOffset();
        if (src != null && start >= 0) {
            p.skipChildren();
            long end = p.currentLocation().getByteOffset();
            return new String(src.bytes(), src.offset() + (int) start, (int) (end - start), java.nio.charset.StandardCharsets.UTF_8);
        }
        StringWriter w = new StringWriter();
        try (JsonGenerator g = RowJson.JSON.createGenerator(w)) {
            g.copyCurrentStructure(p);
        }
        return w.toString();
    }

    /** A token in words, for an error message. */
    public static String describe(JsonToken t) {
        if (t == null) {
            return "end of input";
        }
        return switch (t) {
            case START_OBJECT -> "an object";
            case START_ARRAY -> "an array";
            case VALUE_STRING -> "a string";
            case VALUE_NUMBER_INT -> "an integer";
            case VALUE_NUMBER_FLOAT -> "a decimal number";
            case VALUE_TRUE, VALUE_FALSE -> "a boolean";
            default -> t.asString() == null ? t.name() : "'" + t.asString() + "'";
        };
    }
}
