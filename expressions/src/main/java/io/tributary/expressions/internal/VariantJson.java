package io.tributary.expressions.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Set;
import org.apache.spark.types.variant.Variant;
import org.apache.spark.types.variant.VariantBuilder;

/**
 * JSON text to a VARIANT as Spark's {@code parse_json} makes it, with spark-variant's {@code VariantBuilder}: a
 * duplicate key in an object fails with {@code VARIANT_DUPLICATE_KEY} (checked here, as Spark's default
 * {@code spark.sql.variant.allowDuplicateKeys=false} does), text that is not one JSON value with
 * {@code MALFORMED_RECORD_IN_PARSING.WITHOUT_SUGGESTION}, a value past spark-variant's size limit (128 MiB) with
 * {@code VARIANT_SIZE_LIMIT}.
 */
public final class VariantJson {
    private static final JsonFactory JSON = new JsonFactory();

    private VariantJson() {
    }

    /** {@code text} as a VARIANT; a {@link Failure} as Spark fails the row. */
    public static Variant parse(String text) {
        try {
            checkKeys(text);
            return VariantBuilder.parseJson(text, true);
        } catch (IOException e) {
            throw Failure.of("MALFORMED_RECORD_IN_PARSING.WITHOUT_SUGGESTION", "the text is not one JSON value: " + brief(text));
        } catch (LinkageError e) { // spark-variant reports its size limit with a Spark class this module does not ship
            throw sizeLimit();
        }
    }

    /** Fails on a key written twice in one object, naming it; reads the first JSON value whole, so that malformed text fails as Spark's parse. */
    private static void checkKeys(String text) throws IOException {
        Deque<Set<String>> open = new ArrayDeque<>();
        int depth = 0;
        try (JsonParser p = JSON.createParser(text)) {
            for (JsonToken t = p.nextToken(); t != null; t = depth == 0 ? null : p.nextToken()) { // the first value only, as Spark reads it
                switch (t) {
                    case START_ARRAY -> depth++;
                    case END_ARRAY -> depth--;
                    case START_OBJECT -> {
                        open.push(new HashSet<>());
                        depth++;
                    }
                    case END_OBJECT -> {
                        open.pop();
                        depth--;
                    }
                    case FIELD_NAME -> {
                        if (!open.peek().add(p.currentName())) {
                            throw Failure.of("VARIANT_DUPLICATE_KEY", "the key '" + p.currentName() + "' is written twice in one JSON object");
                        }
                    }
                    default -> {
                    }
                }
            }
        }
    }

    /** spark-variant's size limit, which it reports with a Spark class this module does not ship. */
    static Failure sizeLimit() {
        return Failure.of("VARIANT_SIZE_LIMIT", "the VARIANT is larger than spark-variant's limit of 128 MiB");
    }

    private static String brief(String text) {
        return text.length() <= 60 ? text : text.substring(0, 60) + "...";
    }
}
