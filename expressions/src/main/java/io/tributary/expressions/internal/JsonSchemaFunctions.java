package io.tributary.expressions.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import io.tributary.schema.DataType;
import io.tributary.schema.TimeTexts;
import java.io.IOException;
import java.time.ZoneOffset;
import java.util.List;
import java.util.function.Consumer;

/**
 * Spark's {@code schema_of_json}: the type Spark's JSON schema inference gives a constant JSON text
 * ({@link JsonSchemaInference}), as Spark's DDL text ({@code STRUCT<a: BIGINT, b: STRING>}), computed once at start.
 */
final class JsonSchemaFunctions {
    /** Spark's JSON options by default, as the inference reads them: single quotes and NaN, Infinity allowed. */
    private static final JsonFactory JSON = JsonFactory.builder().enable(JsonReadFeature.ALLOW_SINGLE_QUOTES)
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build();

    /**
     * The options of Spark's JSON reader schema_of_json follows (lower case): those that change how the text reads, those of
     * the inference, and those that change nothing here (mode, samplingRatio, multiLine, lineSep, encoding, timeZone, ...).
     */
    private static final List<String> OPTIONS = List.of("allowcomments", "allowunquotedfieldnames", "allowsinglequotes",
            "allownumericleadingzeros", "allownonnumericnumbers", "allowbackslashescapinganycharacter", "allowunquotedcontrolchars", "mode",
            "primitivesasstring", "prefersdecimal", "infertimestamp", "timestampformat", "dropfieldifallnull", "samplingratio", "multiline",
            "linesep", "encoding", "charset", "timezone", "dateformat", "timestampntzformat", "columnnameofcorruptrecord", "locale",
            "prefersdate");

    /** The inference's flags, which Spark reads as true or false and fails on otherwise. */
    private static final List<String> FLAGS = List.of("primitivesasstring", "prefersdecimal", "infertimestamp", "dropfieldifallnull");

    private JsonSchemaFunctions() {
    }

    static void register(Consumer<FunctionDef> add) {
        add.accept(Fn.custom("schema_of_json", 1, 2, "schema_of_json(json STRING[, options MAP<STRING, STRING>]) → STRING", "never null",
                "the type of the JSON text (a constant) as Spark infers it, as DDL text: STRUCT<a: BIGINT, b: ARRAY<DOUBLE>>;"
                        + " objects' fields sorted by name (case-sensitively), empty objects and empty names dropped (STRUCT<> when"
                        + " nothing is left), whole numbers BIGINT, others DOUBLE; options as Spark's JSON reader's"
                        + " that change how the text reads: allowComments, allowUnquotedFieldNames, allowSingleQuotes,"
                        + " allowNumericLeadingZeros, allowNonNumericNumbers, allowBackslashEscapingAnyCharacter,"
                        + " allowUnquotedControlChars; of the inference primitivesAsString, prefersDecimal, inferTimestamp (with"
                        + " timestampFormat), dropFieldIfAllNull", JsonSchemaFunctions::schemaOfJson));
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
        JsonSchemaInference.Options inference = JsonSchemaInference.Options.DEFAULT;
        if (args.size() > 1) {
            java.util.Map<String, String> lower = new java.util.HashMap<>();
            if (args.get(1).type() != null && Types.is(args.get(1).type(), DataType.Kind.MAP) && Bound.constant(args.get(1))) {
                @SuppressWarnings("unchecked")
                java.util.Map<String, String> map = (java.util.Map<String, String>) Interpreter.eval(args.get(1), new Object[0]);
                (map == null ? java.util.Map.<String, String>of() : map).forEach((k, v) -> lower.put(k.toLowerCase(java.util.Locale.ROOT), v));
                for (String key : map == null ? java.util.Set.<String>of() : map.keySet()) {
                    if (!OPTIONS.contains(key.toLowerCase(java.util.Locale.ROOT))) {
                        throw call.typeError("the schema_of_json option '" + key + "' is not supported yet; supported: " + String.join(", ",
                                OPTIONS));
                    }
                }
                String locale = lower.get("locale");
                if (locale != null && !java.util.Locale.forLanguageTag(locale).equals(java.util.Locale.US) && flag(lower, "prefersdecimal")) {
                    throw call.typeError("the schema_of_json option 'locale' is not supported yet with prefersDecimal for another locale than"
                            + " en-US, and it is '" + locale + "'");
                }
            }
            factory = JsonOptions.of(call, args.get(1)).factory();
            for (String flag : FLAGS) {
                String v = lower.get(flag);
                if (v != null && !v.equalsIgnoreCase("true") && !v.equalsIgnoreCase("false")) {
                    Failure bad = Failure.of("IllegalArgumentException", "the schema_of_json option " + flag + " is true or false, not '" + v + "'");
                    return call.apply(List.of(json), DataType.STRING, (Kernel.Unary) x -> {
                        throw bad;
                    });
                }
            }
            String ts = lower.get("timestampformat");
            inference = new JsonSchemaInference.Options(flag(lower, "primitivesasstring"), flag(lower, "prefersdecimal"),
                    flag(lower, "infertimestamp"), ts == null ? TimeTexts.of(ZoneOffset.UTC) : new PatternTimes(TimeTexts.of(ZoneOffset.UTC), ts, ts,
                    null, ZoneOffset.UTC, java.util.Locale.US), flag(lower, "dropfieldifallnull"));
        }
        String problem = unsupported(factory, (String) text);
        if (problem != null) {
            throw call.typeError("schema_of_json of '" + text + "': " + problem);
        }
        try {
            return new Bound.Literal(JsonSchemaInference.ddl(factory, (String) text, inference), DataType.STRING, call.text());
        } catch (Failure f) { // what Spark fails the row on
            return call.apply(List.of(json), DataType.STRING, (Kernel.Unary) x -> {
                throw f;
            });
        } catch (JsonSchemaInference.Unsupported e) {
            throw call.typeError("schema_of_json of '" + text + "': " + e.getMessage() + "; not supported yet");
        } catch (IOException e) {
            throw call.typeError("schema_of_json of '" + text + "': it is not JSON (" + e.getMessage().lines().findFirst().orElse("") + ")");
        }
    }

    private static boolean flag(java.util.Map<String, String> options, String key) {
        return "true".equalsIgnoreCase(options.get(key));
    }

    /**
     * Why the first JSON value of {@code text} is refused, or null: text that is not JSON (Spark fails the row with its parser's
     * bare exception).
     */
    private static String unsupported(JsonFactory factory, String text) {
        try (JsonParser p = factory.createParser(text)) {
            int depth = 0;
            for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
                depth += t.isStructStart() ? 1 : t.isStructEnd() ? -1 : 0;
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
