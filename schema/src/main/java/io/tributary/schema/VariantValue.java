package io.tributary.schema;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.Arrays;
import java.util.Base64;

/**
 * A value of a {@link DataType#VARIANT} column outside an expression: Spark's variant binary encoding, its {@code value} and
 * {@code metadata} bytes, as Delta's {@code variantType} feature stores them in Parquet (a group of two BINARY fields) and as
 * Spark's {@code VariantVal} holds them. The bytes are kept as they are, never re-encoded.
 *
 * <p>In a topic's canonical JSON a VARIANT is {@code {"value": "<base64>", "metadata": "<base64>"}}. Not the value's JSON text:
 * Spark's {@code to_json} of a variant is not lossless (a DATE, TIMESTAMP, BINARY, DECIMAL or FLOAT inside it, made by a cast or
 * {@code to_variant_object}, becomes a JSON string or number that {@code parse_json} reads back as another type), and an
 * object's key order, field ids and dictionary would be rebuilt; the bytes carry every variant exactly.
 */
public record VariantValue(byte[] value, byte[] metadata) {
    public VariantValue {
        java.util.Objects.requireNonNull(value, "value");
        java.util.Objects.requireNonNull(metadata, "metadata");
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof VariantValue v && Arrays.equals(value, v.value) && Arrays.equals(metadata, v.metadata);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(value) + Arrays.hashCode(metadata);
    }

    @Override
    public String toString() {
        return "VariantValue[value=" + Base64.getEncoder().encodeToString(value) + ", metadata="
                + Base64.getEncoder().encodeToString(metadata) + "]";
    }

    /** Writes {@code v} as the canonical JSON writes a VARIANT: {@code {"value":"...","metadata":"..."}}. */
    static void write(JsonGenerator g, VariantValue v) throws IOException {
        g.writeStartObject();
        g.writeStringField("value", Base64.getEncoder().encodeToString(v.value));
        g.writeStringField("metadata", Base64.getEncoder().encodeToString(v.metadata));
        g.writeEndObject();
    }

    /** Reads the VARIANT of column {@code field} that starts at {@code t}; a {@link BadRecordException} naming it when it is none. */
    static VariantValue read(JsonParser p, JsonToken t, String field) throws IOException {
        if (t != JsonToken.START_OBJECT) {
            throw SchemaErrors.notAVariant(field, t == JsonToken.START_ARRAY ? "an array" : "'" + p.getText() + "'");
        }
        byte[] value = null;
        byte[] metadata = null;
        for (JsonToken k = p.nextToken(); k == JsonToken.FIELD_NAME; k = p.nextToken()) {
            String name = p.currentName();
            JsonToken v = p.nextToken();
            if (v != JsonToken.VALUE_STRING || !(name.equals("value") || name.equals("metadata"))) {
                throw SchemaErrors.notAVariant(field, "a field '" + name + "'");
            }
            byte[] bytes;
            try {
                bytes = Base64.getDecoder().decode(p.getText());
            } catch (IllegalArgumentException e) {
                throw SchemaErrors.notBase64(field + "." + name, e.getMessage());
            }
            if (name.equals("value")) {
                value = bytes;
            } else {
                metadata = bytes;
            }
        }
        if (value == null || metadata == null) {
            throw SchemaErrors.notAVariant(field, "an object without " + (value == null ? "'value'" : "'metadata'"));
        }
        return new VariantValue(value, metadata);
    }
}
