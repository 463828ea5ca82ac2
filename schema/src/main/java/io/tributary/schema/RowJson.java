package io.tributary.schema;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.core.io.JsonEOFException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON object to row and back, with the type rules and default options of Spark's JSON reader
 * (single-quoted strings and unquoted {@code NaN}/{@code Infinity} allowed): a field goes to the
 * column of exactly its name, case included ({@link Schema#fieldIndex}); a missing field or
 * {@code null} is null; unknown fields (a field {@code USER} beside a column {@code user} too) are ignored; numbers must fit the column's type; a STRING
 * column takes the raw text of any other JSON value; FLOAT and DOUBLE also take the strings
 * {@code NaN}, {@code Infinity} and {@code -Infinity}; a TIMESTAMP takes a string in any form
 * {@link Timestamps} reads or an integer number of seconds since the epoch; an ARRAY takes a JSON
 * array, a MAP a JSON object (its keys unique), each element or value by the same rules. Anything
 * else is a {@link BadRecordException} naming the field ({@code tags[2]}, {@code attrs.k} inside
 * an array or a map).
 *
 * <p>{@link #write} gives the canonical form that {@link #parse} reads back to an equal row; it
 * is the value format of Tributary's topics.
 */
public final class RowJson {
    /** Spark's JSON reader defaults: single quotes and unquoted NaN/Infinity allowed, nothing else lenient. */
    private static final JsonFactory JSON = JsonFactory.builder()
            .enable(JsonReadFeature.ALLOW_SINGLE_QUOTES)
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN)
            .build();

    private final Schema schema;
    /** How TIMESTAMP and DATE texts read (Spark's session time zone, timestampFormat, dateFormat). */
    private final TimeFormats times;
    /** The fast paths (null for a schema with DECIMAL columns); Jackson does the rest. */
    private final FlatRowReader flatReader;
    private final FlatRowReader strictReader;
    private final FlatRowWriter flatWriter;

    /** Rows of {@code schema}; a TIMESTAMP written without an offset is UTC's (as every canonical record has one). */
    public RowJson(Schema schema) {
        this(schema, ZoneOffset.UTC);
    }

    /**
     * Rows of {@code schema}; a TIMESTAMP written without an offset is a wall-clock time of
     * {@code sessionZone}, as under Spark's {@code spark.sql.session.timeZone} ({@link Timestamps}).
     */
    public RowJson(Schema schema, ZoneId sessionZone) {
        this(schema, TimeFormats.defaults(sessionZone));
    }

    /** Rows of {@code schema} whose TIMESTAMP and DATE texts read as {@code times} says (Spark's timestampFormat, dateFormat). */
    public RowJson(Schema schema, TimeFormats times) {
        this.schema = schema;
        this.times = times;
        this.flatReader = FlatRowReader.of(schema, times);
        this.strictReader = flatReader == null ? null : flatReader.strict();
        this.flatWriter = FlatRowWriter.of(schema, JSON);
    }

    public Schema schema() {
        return schema;
    }

    /** Parses one JSON object (a JSON-lines line, or a Kafka record value). */
    public Object[] parse(byte[] bytes, int offset, int length) {
        if (flatReader != null) {
            Object[] row = flatReader.parse(bytes, offset, length);
            if (row != null) {
                return row;
            }
        }
        return parseWithJackson(bytes, offset, length);
    }

    /**
     * What parsing a record leaves over, for schema evolution: the top-level fields the schema
     * lacks and, when {@link #rescues()}, the top-level values of the wrong type (their column then
     * null instead of a bad record), each with its exact JSON text.
     */
    public interface Leftovers {
        /** A top-level field the schema lacks. */
        void unknown(String name, String json);

        /** True to hand values of the wrong type to {@link #mismatched} instead of failing the record. */
        boolean rescues();

        /** A top-level value its column's type cannot take. */
        void mismatched(String name, String json);

        /** Before each record (a line, or each object of a document). */
        default void start() {
        }

        /** After each record parsed whole: the row to give (it may fill a column, or throw). */
        default Object[] end(Object[] row) {
            return row;
        }
    }

    /** As {@link #parse(byte[], int, int)}, handing what the schema does not take to {@code leftovers} (null: ignore it). */
    public Object[] parse(byte[] bytes, int offset, int length, Leftovers leftovers) {
        if (leftovers == null) {
            return parse(bytes, offset, length);
        }
        leftovers.start();
        if (strictReader != null) {
            Object[] row = strictReader.parse(bytes, offset, length);
            if (row != null) {
                return leftovers.end(row);
            }
        }
        try (JsonParser p = JSON.createParser(bytes, offset, length)) {
            return leftovers.end(parse(p, new Source(bytes, offset), leftovers));
        } catch (JsonProcessingException e) {
            throw malformed(e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@link #parse(byte[], int, int)} without the fast path (the reference the fast path is tested against). */
    Object[] parseWithJackson(byte[] bytes, int offset, int length) {
        try (JsonParser p = JSON.createParser(bytes, offset, length)) {
            return parse(p, new Source(bytes, offset));
        } catch (JsonProcessingException e) {
            throw malformed(e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public Object[] parse(byte[] bytes) {
        return parse(bytes, 0, bytes.length);
    }

    public Object[] parse(String text) {
        byte[] bytes = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        try (JsonParser p = JSON.createParser(bytes)) {
            return parse(p, new Source(bytes, 0));
        } catch (JsonProcessingException e) {
            throw malformed(e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Parses a whole JSON document, as Spark's {@code multiLine} reads a file: an object is one
     * row, an array of objects one row each. Any error makes the whole document bad.
     */
    public List<Object[]> parseDocument(byte[] bytes, int offset, int length) {
        return parseDocument(bytes, offset, length, null);
    }

    /** As {@link #parseDocument(byte[], int, int)}, with {@link Leftovers} for each object. */
    public List<Object[]> parseDocument(byte[] bytes, int offset, int length, Leftovers leftovers) {
        Source src = new Source(bytes, offset);
        try (JsonParser p = JSON.createParser(bytes, offset, length)) {
            JsonToken first = p.nextToken();
            List<Object[]> rows = new ArrayList<>();
            if (first == JsonToken.START_OBJECT) {
                rows.add(documentObject(p, src, leftovers));
            } else if (first == JsonToken.START_ARRAY) {
                JsonToken t;
                while ((t = p.nextToken()) == JsonToken.START_OBJECT) {
                    rows.add(documentObject(p, src, leftovers));
                }
                if (t != JsonToken.END_ARRAY) {
                    throw new BadRecordException(null, "expected JSON objects in the top-level array, found " + describe(t));
                }
            } else {
                throw new BadRecordException(null, "expected a JSON object or an array of objects, found " + describe(first));
            }
            JsonToken trailing = p.nextToken();
            if (trailing != null) {
                throw new BadRecordException(null, "found " + describe(trailing) + " after the JSON document; a multiLine file holds one document");
            }
            return rows;
        } catch (JsonProcessingException e) {
            throw malformed(e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Object[] documentObject(JsonParser p, Source src, Leftovers leftovers) throws IOException {
        if (leftovers == null) {
            return object(p, schema, src, null);
        }
        leftovers.start();
        return leftovers.end(object(p, schema, src, leftovers));
    }

    private static BadRecordException malformed(JsonProcessingException e) {
        String message = String.valueOf(e.getOriginalMessage());
        if (e instanceof JsonEOFException || message.startsWith("Unexpected end-of-input")) {
            return new BadRecordException(null, "malformed JSON: unexpected end of line (truncated record?)");
        }
        return new BadRecordException(null, "malformed JSON: " + message);
    }

    private Object[] parse(JsonParser p, Source src) throws IOException {
        return parse(p, src, null);
    }

    private Object[] parse(JsonParser p, Source src, Leftovers leftovers) throws IOException {
        JsonToken first = p.nextToken();
        if (first != JsonToken.START_OBJECT) {
            throw new BadRecordException(null, "expected a JSON object, found " + describe(first));
        }
        Object[] row = object(p, schema, src, leftovers);
        JsonToken trailing = p.nextToken();
        if (trailing != null) {
            throw new BadRecordException(null, "found " + describe(trailing)
                    + " after the JSON object; write one JSON object per line");
        }
        return row;
    }

    private Object[] object(JsonParser p, Schema schema, Source src) throws IOException {
        return object(p, schema, src, null);
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
            throw new BadRecordException(null, "malformed JSON object");
        }
        for (int i = 0; i < row.length; i++) {
            if (row[i] == null && !schema.field(i).nullable()) {
                throw new BadRecordException(schema.field(i).name(), "is null or missing, but the column is NOT NULL");
            }
        }
        return row;
    }

    private Object value(JsonParser p, JsonToken t, Field f, Source src) throws IOException {
        if (t == JsonToken.VALUE_NULL) {
            return null;
        }
        DataType type = f.type();
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
                    Double special = special(p.getText());
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
                    throw new BadRecordException(f.name(), "'" + p.getText() + "' is not a date (expected " + times.expectedDate() + ")");
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
                    throw new BadRecordException(f.name(), "'" + p.getText() + "' is not a timestamp (expected "
                            + times.expectedTimestamp(withZone) + ")");
                }
                if (t == JsonToken.VALUE_NUMBER_INT) {
                    try {
                        return Math.multiplyExact(p.getLongValue(), 1_000_000L);
                    } catch (ArithmeticException | IOException e) {
                        throw new BadRecordException(f.name(), p.getText() + " seconds since the epoch is out of range");
                    }
                }
                break;
            case STRUCT:
                if (t == JsonToken.START_OBJECT) {
                    try {
                        return object(p, type.struct(), src);
                    } catch (BadRecordException e) {
                        throw new BadRecordException(f.name() + (e.field() == null ? "" : "." + e.field()), e.reason());
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
                        throw new BadRecordException(f.name(), "is not base64: " + e.getMessage());
                    }
                }
                break;
            default:
                break;
        }
        throw new BadRecordException(f.name(), "expected " + type.ddl() + ", found " + describe(t)
                + (t.isScalarValue() ? " " + p.getText() : ""));
    }

    /** The elements of an array whose START_ARRAY was just read, up to its END_ARRAY. */
    private List<Object> array(JsonParser p, Field f, Source src) throws IOException {
        Field element = new Field(f.name() + "[]", f.type().element(), true);
        List<Object> values = new ArrayList<>();
        JsonToken t;
        while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
            if (t == null) {
                throw new BadRecordException(f.name(), "malformed JSON array");
            }
            try {
                values.add(value(p, t, element, src));
            } catch (BadRecordException e) {
                throw new BadRecordException(f.name() + "[" + values.size() + "]"
                        + (e.field() == null ? "" : e.field().substring(element.name().length())), e.reason());
            }
        }
        return values;
    }

    /** The entries of an object read as a MAP, whose START_OBJECT was just read, up to its END_OBJECT. */
    private Map<String, Object> map(JsonParser p, Field f, Source src) throws IOException {
        Field value = new Field(f.name() + ".", f.type().valueType(), true);
        Map<String, Object> entries = new LinkedHashMap<>();
        JsonToken t;
        while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
            String key = p.currentName();
            Object v;
            try {
                v = value(p, p.nextToken(), value, src);
            } catch (BadRecordException e) {
                throw new BadRecordException(f.name() + "." + key
                        + (e.field() == null ? "" : e.field().substring(value.name().length())), e.reason());
            }
            entries.put(key, v); // a key given twice: the last value wins, as in Spark's JSON reader
        }
        if (t != JsonToken.END_OBJECT) {
            throw new BadRecordException(f.name(), "malformed JSON object");
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
            throw new BadRecordException(f.name(), p.getText() + " does not fit in " + f.type().ddl());
        }
        long v = p.getLongValue();
        if (v < min || v > max) {
            throw new BadRecordException(f.name(), p.getText() + " does not fit in " + f.type().ddl());
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
            throw new BadRecordException(f.name(), "'" + p.getText() + "' is not a decimal number");
        }
        int scale = f.type().scale();
        BigDecimal scaled = d.setScale(scale, RoundingMode.HALF_UP);
        if (scaled.precision() - scaled.scale() > f.type().precision() - scale) {
            throw new BadRecordException(f.name(), p.getText() + " does not fit in " + f.type().ddl());
        }
        return scaled;
    }

    private static Double special(String s) {
        return switch (s) {
            case "NaN" -> Double.NaN;
            case "Infinity", "+Infinity", "+INF" -> Double.POSITIVE_INFINITY;
            case "-Infinity", "-INF" -> Double.NEGATIVE_INFINITY;
            default -> null;
        };
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
        try (JsonGenerator g = JSON.createGenerator(w)) {
            g.copyCurrentStructure(p);
        }
        return w.toString();
    }

    private static String describe(JsonToken t) {
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

    /** The canonical JSON of a row: every column in schema order, nulls included. */
    public byte[] write(Object[] row) {
        if (flatWriter != null) {
            byte[] json = flatWriter.write(row);
            if (json != null) {
                return json;
            }
        }
        return writeWithJackson(row);
    }

    /** Appends the canonical JSON of {@code row} to {@code out} on the fast path; false when it cannot (then {@link #write}). */
    boolean writeFast(FlatRowWriter.Out out, Object[] row) {
        return flatWriter != null && flatWriter.write(out, row);
    }

    /** {@link #write(Object[])} without the fast path (the reference the fast path is tested against). */
    byte[] writeWithJackson(Object[] row) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(64 + 16 * row.length);
        try (JsonGenerator g = JSON.createGenerator(out)) {
            write(g, row);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    public void write(JsonGenerator g, Object[] row) throws IOException {
        write(g, schema, row);
    }

    private static void write(JsonGenerator g, Schema schema, Object[] row) throws IOException {
        g.writeStartObject();
        for (int i = 0; i < row.length; i++) {
            Field f = schema.field(i);
            g.writeFieldName(f.name());
            writeValue(g, f.type(), row[i]);
        }
        g.writeEndObject();
    }

    /** Writes one value of {@code type} (null included) as the canonical JSON writes it. */
    public static void writeValue(JsonGenerator g, DataType type, Object v) throws IOException {
        if (v == null) {
            g.writeNull();
            return;
        }
        switch (type.kind()) {
            case BYTE, SHORT, INT -> g.writeNumber(((Number) v).intValue());
            case LONG -> g.writeNumber((Long) v);
            case FLOAT -> writeFloating(g, ((Float) v).doubleValue());
            case DOUBLE -> writeFloating(g, (Double) v);
            case DECIMAL -> g.writeNumber((BigDecimal) v);
            case STRING -> g.writeString((String) v);
            case BOOLEAN -> g.writeBoolean((Boolean) v);
            case DATE -> g.writeString(Timestamps.formatDays((Integer) v));
            case TIMESTAMP -> g.writeString(Timestamps.formatMicros((Long) v));
            case TIMESTAMP_NTZ -> g.writeString(Timestamps.formatMicrosNtz((Long) v));
            case BINARY -> g.writeString(Base64.getEncoder().encodeToString((byte[]) v));
            case STRUCT -> write(g, type.struct(), (Object[]) v);
            case ARRAY -> {
                g.writeStartArray();
                for (Object e : (List<?>) v) {
                    writeValue(g, type.element(), e);
                }
                g.writeEndArray();
            }
            case MAP -> {
                g.writeStartObject();
                for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                    g.writeFieldName((String) e.getKey());
                    writeValue(g, type.valueType(), e.getValue());
                }
                g.writeEndObject();
            }
            default -> throw new IllegalStateException(type.ddl());
        }
    }

    private static void writeFloating(JsonGenerator g, double d) throws IOException {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            g.writeString(Double.isNaN(d) ? "NaN" : d > 0 ? "Infinity" : "-Infinity");
        } else {
            g.writeNumber(d);
        }
    }
}
