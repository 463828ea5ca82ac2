package io.tributary.schema;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;

/**
 * How a VARIANT value reads from a row's JSON, a named strategy of {@link JsonRowReader}: {@link #CANONICAL}, the topics' form
 * of its bytes ({@link VariantValue}), or, for JSON input (a file source's lines, a Kafka source's values), Spark's JSON
 * reader's: the value's own JSON made a variant, JSON {@code null} a variant null (the expressions module's
 * {@code JsonInputVariants}, built on Spark's variant encoding, which this module does not carry).
 */
public interface JsonVariants {
    /** The topics' form: {@code {"value": "<base64>", "metadata": "<base64>"}}; {@code null} is SQL NULL. */
    JsonVariants CANONICAL = (p, t, field) -> t == JsonToken.VALUE_NULL ? null : VariantValue.read(p, t, field);

    /**
     * The VARIANT of column (or nested field) {@code field} whose first token {@code t} {@code p} has just read, leaving
     * {@code p} on its last token; null for SQL NULL. A value it cannot take is a {@link BadRecordException} naming {@code field}.
     */
    VariantValue read(JsonParser p, JsonToken t, String field) throws IOException;
}
