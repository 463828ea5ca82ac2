package io.tributary.expressions;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.tributary.expressions.internal.Failure;
import io.tributary.expressions.internal.VariantJson;
import io.tributary.schema.JsonVariants;
import io.tributary.schema.VariantValue;
import java.io.IOException;
import org.apache.spark.types.variant.Variant;

/**
 * A VARIANT field of a Debezium change event's row: Debezium writes a JSON column (its semantic type
 * {@code io.debezium.data.Json}: PostgreSQL's {@code json} and {@code jsonb}, MySQL's {@code JSON}, a MongoDB document) as a
 * string holding the JSON, so a string is the variant Spark's {@code parse_json} makes of its text (what a Spark job does with
 * {@code parse_json(after.doc)}), and a string {@code parse_json} fails on is a bad record naming the field and Spark's error
 * class ({@code MALFORMED_RECORD_IN_PARSING.WITHOUT_SUGGESTION}, which Spark gives a row's text with a key twice too). JSON {@code null} is SQL
 * NULL (the column's NULL, as {@code parse_json(NULL)} is); any other JSON value (an object or a number a converter wrote as
 * such) the variant of its own JSON, as {@link JsonInputVariants} reads it, which is what {@code parse_json} makes of its text.
 */
public final class JsonTextVariants implements JsonVariants {
    /** The one instance: it keeps no state. */
    public static final JsonTextVariants INSTANCE = new JsonTextVariants();

    private JsonTextVariants() {
    }

    @Override
    public VariantValue read(JsonParser p, JsonToken t, String field) throws IOException {
        if (t == JsonToken.VALUE_NULL) {
            return null;
        }
        if (t != JsonToken.VALUE_STRING) {
            return JsonInputVariants.INSTANCE.read(p, t, field);
        }
        Variant v;
        try {
            v = VariantJson.parse(p.getText());
        } catch (Failure f) {
            // over a row's value Spark reports a key written twice as malformed too (golden/variant/debezium-failing.tsv)
            String condition = f.condition().equals("VARIANT_DUPLICATE_KEY") ? "MALFORMED_RECORD_IN_PARSING.WITHOUT_SUGGESTION" : f.condition();
            throw ExpressionErrors.jsonTextNotVariant(field, condition, f.reason());
        }
        return new VariantValue(v.getValue(), v.getMetadata());
    }
}
