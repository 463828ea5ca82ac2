package io.tributary.schema;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Base64;
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
 * array, a MAP a JSON object (its keys cast to the key type as Spark's CAST reads text, {@code MapKeys}), each
 * element or value by the same rules. Anything
 * else is a {@link BadRecordException} naming the field ({@code tags[2]}, {@code attrs.k} inside
 * an array or a map).
 *
 * <p>{@link #write} gives the canonical form that {@link #parse} reads back to an equal row; it
 * is the value format of Tributary's topics. Reading takes the fast path ({@code FlatRowReader})
 * when it is sure and {@link JsonRowReader} otherwise. What only input files need (fields the
 * schema lacks kept for schema evolution, rescued data, {@code multiLine} documents, Spark's
 * {@code timestampFormat} and {@code dateFormat}) is the file source's, built on
 * {@link JsonRowReader} and {@link TimeTexts}.
 */
public final class RowJson {
    /**
     * Spark's JSON reader defaults: single quotes and unquoted NaN/Infinity allowed, nothing else lenient. Doubles are read
     * by the FastDoubleParser Jackson carries, which gives {@code Double.parseDouble}'s value, several times faster.
     */
    static final JsonFactory JSON = JsonFactory.builder()
            .enable(StreamReadFeature.USE_FAST_DOUBLE_PARSER)
            .enable(JsonReadFeature.ALLOW_SINGLE_QUOTES)
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN)
            .build();

    private final Schema schema;
    /** Jackson's path: every record the fast path is not sure of. */
    private final JsonRowReader reader;
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
        this(schema, TimeTexts.of(sessionZone));
    }

    /** Rows of {@code schema} whose TIMESTAMP and DATE texts read as {@code times} says (the file source's timestampFormat, dateFormat). */
    public RowJson(Schema schema, TimeTexts times) {
        this(schema, times, JsonVariants.CANONICAL);
    }

    /**
     * Rows of {@code schema} whose VARIANT values (at any depth) read as {@code variants} says: JSON input (a file source's
     * lines, a Kafka source's values) reads each as a variant of its own JSON. {@link #write} writes the canonical form all the same.
     */
    public RowJson(Schema schema, TimeTexts times, JsonVariants variants) {
        this.schema = schema;
        this.reader = new JsonRowReader(schema, times, variants);
        boolean inputVariants = variants != JsonVariants.CANONICAL && schema.fields().stream().anyMatch(f -> f.type().holdsVariant());
        this.flatReader = inputVariants ? null : FlatRowReader.of(schema, times);
        this.strictReader = flatReader == null ? null : flatReader.strict();
        this.flatWriter = FlatRowWriter.of(schema, JSON);
    }

    public Schema schema() {
        return schema;
    }

    /** Jackson's path of this reader, for readers that keep what the schema does not take ({@link JsonRowReader.Leftovers}). */
    public JsonRowReader reader() {
        return reader;
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
     * The fast path alone, leaving a record with a top-level field the schema lacks to Jackson: the
     * row, or null when {@link #reader()} must parse the record (with {@link JsonRowReader.Leftovers}).
     */
    public Object[] parseFastKnownFields(byte[] bytes, int offset, int length) {
        return strictReader == null ? null : strictReader.parse(bytes, offset, length);
    }

    /** {@link #parse(byte[], int, int)} without the fast path (the reference the fast path is tested against). */
    Object[] parseWithJackson(byte[] bytes, int offset, int length) {
        try (JsonParser p = JSON.createParser(bytes, offset, length)) {
            return reader.record(p, bytes, offset, null);
        } catch (JsonProcessingException e) {
            throw JsonRowReader.malformed(e);
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
            return reader.record(p, bytes, 0, null);
        } catch (JsonProcessingException e) {
            throw JsonRowReader.malformed(e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
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
            case BINARY -> {
                if (type.isVariant()) {
                    VariantValue.write(g, (VariantValue) v);
                } else {
                    g.writeString(Base64.getEncoder().encodeToString((byte[]) v));
                }
            }
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
                    g.writeFieldName(MapKeys.text(type.keyType(), e.getKey()));
                    writeValue(g, type.valueType(), e.getValue());
                }
                g.writeEndObject();
            }
            default -> throw new IllegalStateException(type.ddl());
        }
    }

    /** A FLOAT or DOUBLE column's string value that Spark's JSON reader takes as a number: NaN and the infinities; null otherwise. */
    static Double special(String s) {
        return switch (s) {
            case "NaN" -> Double.NaN;
            case "Infinity", "+Infinity", "+INF" -> Double.POSITIVE_INFINITY;
            case "-Infinity", "-INF" -> Double.NEGATIVE_INFINITY;
            default -> null;
        };
    }

    private static void writeFloating(JsonGenerator g, double d) throws IOException {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            g.writeString(Double.isNaN(d) ? "NaN" : d > 0 ? "Infinity" : "-Infinity");
        } else {
            g.writeNumber(d);
        }
    }
}
