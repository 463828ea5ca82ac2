package io.tributary.expressions;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.util.JsonParserDelegate;
import io.tributary.schema.JsonVariants;
import io.tributary.schema.VariantValue;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Set;
import org.apache.spark.types.variant.Variant;
import org.apache.spark.types.variant.VariantBuilder;

/**
 * Spark's JSON reader's VARIANT ({@code JacksonParser.parseVariant}): a field of type VARIANT (at any depth of the schema)
 * is the variant of the field's JSON value, built by spark-variant's {@code VariantBuilder} straight from the parser as
 * Spark builds it, so its bytes are Spark's: an object, an array or a scalar; JSON {@code null} a variant null, not SQL's
 * NULL; integers BIGINT, or DECIMAL past BIGINT (DOUBLE past 38 digits); decimals without an exponent DECIMAL, with one
 * DOUBLE. An object with a key twice is a bad record ({@code VARIANT_DUPLICATE_KEY}, Spark's default
 * {@code spark.sql.variant.allowDuplicateKeys=false}), as is a string with an unpaired UTF-16 surrogate
 * ({@code spark.sql.variant.validateUnicodeInJsonParsing}) and a value past spark-variant's size limit.
 */
public final class JsonInputVariants implements JsonVariants {
    /** The one instance: it keeps no state. */
    public static final JsonInputVariants INSTANCE = new JsonInputVariants();

    private JsonInputVariants() {
    }

    @Override
    public VariantValue read(JsonParser p, JsonToken t, String field) throws IOException {
        UniqueKeys checked = new UniqueKeys(p);
        Variant v;
        try {
            v = VariantBuilder.parseJson(checked, true, true); // duplicate keys are UniqueKeys' to find: Spark's error class needs Spark
        } catch (DuplicateKey e) {
            throw ExpressionErrors.variantDuplicateKey(field, e.key);
        } catch (IOException e) {
            throw e;
        } catch (RuntimeException | LinkageError e) { // spark-variant's size limit and its unicode check throw Spark classes
            throw ExpressionErrors.variantNotBuilt(field, String.valueOf(e.getMessage()));
        }
        return new VariantValue(v.getValue(), v.getMetadata());
    }

    /** The parser, failing on an object's key written twice, as spark-variant does without {@code allowDuplicateKeys}. */
    private static final class UniqueKeys extends JsonParserDelegate {
        private final Deque<Set<String>> objects = new ArrayDeque<>();

        UniqueKeys(JsonParser p) {
            super(p);
            if (p.currentToken() == JsonToken.START_OBJECT) {
                objects.push(new HashSet<>());
            }
        }

        @Override
        public JsonToken nextToken() throws IOException {
            JsonToken t = delegate.nextToken();
            if (t == JsonToken.START_OBJECT) {
                objects.push(new HashSet<>());
            } else if (t == JsonToken.END_OBJECT) {
                objects.pop();
            } else if (t == JsonToken.FIELD_NAME && !objects.peek().add(delegate.currentName())) {
                throw new DuplicateKey(delegate.currentName());
            }
            return t;
        }
    }

    private static final class DuplicateKey extends RuntimeException {
        private final String key;

        DuplicateKey(String key) {
            super(null, null, false, false);
            this.key = key;
        }
    }
}
