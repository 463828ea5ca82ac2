package io.tributary.expressions.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import io.tributary.schema.DataType;
import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import io.tributary.schema.JsonTypes;
import java.io.IOException;
import java.util.List;
import java.util.function.Consumer;

/**
 * Spark's {@code schema_of_json}: the type Spark's JSON schema inference gives a constant JSON text
 * ({@link JsonTypes}), as Spark's DDL text ({@code STRUCT<a: BIGINT, b: STRING>}), computed once at start.
 */
final class JsonSchemaFunctions {
    /** Spark's JSON options by default, as the inference reads them: single quotes and NaN, Infinity allowed. */
    private static final JsonFactory JSON = JsonFactory.builder().enable(JsonReadFeature.ALLOW_SINGLE_QUOTES)
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build();

    /** The options of Spark's JSON reader that only change how the text reads (lower case), and mode, which does nothing here. */
    private static final List<String> READING_OPTIONS = List.of("allowcomments", "allowunquotedfieldnames", "allowsinglequotes",
            "allownumericleadingzeros", "allownonnumericnumbers", "allowbackslashescapinganycharacter", "allowunquotedcontrolchars", "mode");

    private JsonSchemaFunctions() {
    }

    static void register(Consumer<FunctionDef> add) {
        add.accept(Fn.custom("schema_of_json", 1, 2, "schema_of_json(json STRING[, options MAP<STRING, STRING>]) → STRING", "never null",
                "the type of the JSON text (a constant) as Spark infers it, as DDL text: STRUCT<a: BIGINT, b: ARRAY<DOUBLE>>;"
                        + " objects' fields sorted by name, whole numbers BIGINT, others DOUBLE; options as Spark's JSON reader's"
                        + " that change how the text reads: allowComments, allowUnquotedFieldNames, allowSingleQuotes,"
                        + " allowNumericLeadingZeros, allowNonNumericNumbers, allowBackslashEscapingAnyCharacter,"
                        + " allowUnquotedControlChars (and mode, which changes nothing here)", JsonSchemaFunctions::schemaOfJson));
    }

    private static Bound schemaOfJson(Analyzer.Call call, List<Bound> args) {
        Bound json = args.get(0);
        if (json.type() == null || !Types.is(json.type(), DataType.Kind.STRING) || !Bound.constant(json)) {
            throw call.typeError("[DATATYPE_MISMATCH.NON_FOLDABLE_INPUT] the json of schema_of_json must be a constant text such as"
                    + " '{\"a\": 1}', and '" + json.text() + "' is not one");
        }
        Object text = Interpreter.eval(json, new Object[0]);
        if (text == null) {
            throw call.typeError("[DATATYPE_MISMATCH.UNEXPECTED_NULL] the json of schema_of_json must not be null");
        }
        JsonFactory factory = JSON;
        if (args.size() > 1) {
            if (args.get(1).type() != null && Types.is(args.get(1).type(), DataType.Kind.MAP) && Bound.constant(args.get(1))) {
                @SuppressWarnings("unchecked")
                java.util.Map<String, String> map = (java.util.Map<String, String>) Interpreter.eval(args.get(1), new Object[0]);
                for (String key : map == null ? java.util.Set.<String>of() : map.keySet()) {
                    if (!READING_OPTIONS.contains(key.toLowerCase(java.util.Locale.ROOT))) {
                        throw call.typeError("the schema_of_json option '" + key + "' is not supported yet; supported: " + String.join(", ",
                                READING_OPTIONS));
                    }
                }
            }
            factory = JsonOptions.of(call, args.get(1)).factory();
        }
        String problem = unsupported(factory, (String) text);
        if (problem != null) {
            throw call.typeError("schema_of_json of '" + text + "': " + problem);
        }
        String ddl = Types.name(strings(JsonTypes.infer(factory, (String) text, true)));
        return new Bound.Literal(ddl, DataType.STRING, call.text());
    }

    /** {@code t} with every field only ever null read as STRING, as Spark's inference ends. */
    private static DataType strings(DataType t) {
        if (t == null) {
            return DataType.STRING;
        }
        if (t.kind() == DataType.Kind.ARRAY) {
            return DataType.array(strings(t.element()));
        }
        if (t.kind() == DataType.Kind.STRUCT) {
            return DataType.struct(new Schema(t.struct().fields().stream().map(f -> new Field(f.name(), strings(f.type()), true)).toList()));
        }
        return t;
    }

    /**
     * Why the first JSON value of {@code text} is refused, or null: text that is not JSON (Spark fails the row with its parser's
     * bare exception), and an empty object (Spark drops it from the schema; the inference Tributary shares with the sources reads
     * it as STRING).
     */
    private static String unsupported(JsonFactory factory, String text) {
        try (JsonParser p = factory.createParser(text)) {
            int depth = 0;
            JsonToken previous = null;
            for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
                if (t == JsonToken.END_OBJECT && previous == JsonToken.START_OBJECT) {
                    return "an empty object ({}) is not supported yet";
                }
                depth += t.isStructStart() ? 1 : t.isStructEnd() ? -1 : 0;
                previous = t;
                if (depth == 0) {
                    return null;
                }
            }
            return depth == 0 ? null : "it is not JSON: it ends inside an object or array";
        } catch (IOException e) {
            return "it is not JSON (" + e.getMessage().lines().findFirst().orElse("") + ")";
        }
    }
}
