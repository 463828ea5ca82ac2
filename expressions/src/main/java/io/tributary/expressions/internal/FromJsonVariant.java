package io.tributary.expressions.internal;

import static io.tributary.schema.DataType.STRING;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.tributary.expressions.JsonInputVariants;
import io.tributary.schema.BadRecordException;
import io.tributary.schema.DataType;
import io.tributary.schema.VariantValue;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.spark.types.variant.Variant;

/**
 * Spark 4.2's {@code from_json(json, 'variant')}: the text's first JSON value whole as one VARIANT, built as Spark's JSON
 * reader builds it ({@link JsonInputVariants}; what follows the value is not read, as in Spark). Empty text, text that is not
 * JSON and an object with a key twice give NULL in the default PERMISSIVE mode; with {@code mode} FAILFAST the row fails with
 * {@code MALFORMED_RECORD_IN_PARSING.WITHOUT_SUGGESTION} or {@code VARIANT_DUPLICATE_KEY}, as Spark's.
 */
final class FromJsonVariant {
    private FromJsonVariant() {
    }

    /** True for the schema text {@code 'variant'} (any case), which {@code from_json} reads as one VARIANT. */
    static boolean isVariant(String ddl) {
        return ddl.strip().equalsIgnoreCase("variant");
    }

    static Bound bind(Analyzer.Call call, Bound json, JsonOptions options) {
        return call.apply(List.of(call.as(json, STRING)), DataType.VARIANT, (Kernel.Unary) text -> {
            options.check();
            return read((String) text, options);
        });
    }

    private static Variant read(String text, JsonOptions options) {
        if (text.isBlank()) {
            return null;
        }
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        try (JsonParser p = options.factory().createParser(bytes, 0, bytes.length)) {
            JsonToken first = p.nextToken();
            if (first == null) {
                return null;
            }
            VariantValue v = JsonInputVariants.INSTANCE.read(p, first, "value");
            return new Variant(v.value(), v.metadata());
        } catch (BadRecordException bad) {
            if (options.failFast()) {
                throw bad.getMessage().contains("VARIANT_DUPLICATE_KEY") ? Failure.of("VARIANT_DUPLICATE_KEY", bad.getMessage())
                        : Failure.of("MALFORMED_RECORD_IN_PARSING.WITHOUT_SUGGESTION", bad.getMessage());
            }
            return null;
        } catch (IOException | RuntimeException malformed) {
            if (options.failFast()) {
                throw Failure.of("MALFORMED_RECORD_IN_PARSING.WITHOUT_SUGGESTION", "the text is not JSON: " + malformed.getMessage());
            }
            return null;
        }
    }
}
