package io.tributary.expressions.internal;

import static io.tributary.schema.DataType.STRING;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import io.tributary.expressions.JsonInputVariants;
import io.tributary.schema.DataType;
import io.tributary.schema.Field;
import io.tributary.schema.JsonRowReader;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * Spark's JSON functions: {@code get_json_object} (a value at a JSON path, as text), {@code from_json} (text into a
 * STRUCT by a DDL schema, Spark's PERMISSIVE mode or the options map's; {@link JsonOptions}) and {@code to_json} (a STRUCT, ARRAY or MAP as JSON text, as
 * Spark's JSON writer writes it; {@link JsonWriter}).
 */
final class JsonFunctions {
    /** Spark's factory for get_json_object: control characters allowed unescaped in strings. */
    static final JsonFactory JSON = JsonFactory.builder().enable(JsonReadFeature.ALLOW_UNESCAPED_CONTROL_CHARS).build();

    /** Spark's partial results: a top-level field of the wrong type is null, the others are read. */
    private static final JsonRowReader.Leftovers PARTIAL = new Partial();

    /** Fields the schema lacks are left out; a field of the wrong type is null. */
    private static class Partial implements JsonRowReader.Leftovers {
        @Override
        public void unknown(String name, String json) {
        }

        @Override
        public boolean rescues() {
            return true;
        }

        @Override
        public void mismatched(String name, String json) {
        }
    }

    private JsonFunctions() {
    }

    static void register(Consumer<FunctionDef> add) {
        add.accept(Fn.custom("get_json_object", 2, 2, "get_json_object(json STRING, path STRING) → STRING", FunctionDef.NULL_IN_NULL_OUT
                + "; null for text that is not JSON, or a path that matches nothing", "the value at the JSON path ($, .name, ['name'], [n], [*]):"
                + " text as it is, an object or array as JSON; the matches of a wildcard [*] as a JSON array, one match unwrapped", JsonFunctions::getJsonObject));
        add.accept(Fn.custom("from_json", 2, 3, "from_json(json STRING, schema STRING[, options MAP<STRING, STRING>]) → STRUCT | VARIANT", FunctionDef.NULL_IN_NULL_OUT,
                "the JSON object read into a STRUCT of the DDL schema (a literal, 'a INT, b STRING'), as Spark's JSON reader in"
                        + " PERMISSIVE mode: a top-level field that does not fit its type is null, the others are read; text that is not a"
                        + " JSON object gives a STRUCT of nulls, empty text null; options as Spark's: mode (PERMISSIVE or FAILFAST),"
                        + " timestampFormat, dateFormat, allowNumericLeadingZeros, allowUnquotedFieldNames, allowSingleQuotes, allowComments,"
                        + " allowNonNumericNumbers; a schema field may be VARIANT (the variant of the field's JSON value), and the schema"
                        + " 'variant' reads the whole text as one VARIANT (null where it is not JSON or an object has a key twice)",
                JsonFunctions::fromJson));
        add.accept(Fn.custom("to_json", 1, 1, "to_json(STRUCT | ARRAY | MAP) → STRING", FunctionDef.NULL_IN_NULL_OUT,
                "the value as JSON text: null fields left out, timestamps as yyyy-MM-dd'T'HH:mm:ss.SSSXXX (UTC), dates yyyy-MM-dd",
                JsonFunctions::toJson));
    }

    private static Bound getJsonObject(Analyzer.Call call, List<Bound> args) {
        List<Bound> cast = List.of(call.as(args.get(0), STRING), call.as(args.get(1), STRING));
        List<Object> fixed = null;
        if (cast.get(1) instanceof Bound.Literal l && l.value() != null) {
            fixed = JsonPath.parse((String) l.value());
        }
        List<Object> path = fixed;
        return call.apply(cast, STRING, (Kernel.Binary) (json, p) -> {
            List<Object> steps = path != null ? path : JsonPath.parse((String) p);
            return steps == null ? null : steps.contains(JsonPath.WILDCARD) ? JsonWildcard.extract(JSON, (String) json, steps) : extract((String) json, steps);
        });
    }

    /** The value at {@code path} in {@code json} as Spark's get_json_object gives it; null on no match or bad JSON. */
    static String extract(String json, List<Object> path) {
        try (JsonParser p = JSON.createParser(json)) {
            if (p.nextToken() == null) {
                return null;
            }
            for (Object step : path) {
                if (!JsonPath.step(p, step)) {
                    return null;
                }
            }
            JsonToken t = p.currentToken();
            String result;
            if (t == JsonToken.VALUE_STRING) {
                result = p.getText();
            } else if (t == JsonToken.VALUE_NULL) {
                result = null;
            } else {
                StringWriter out = new StringWriter();
                try (JsonGenerator g = JSON.createGenerator(out)) {
                    g.copyCurrentStructure(p);
                }
                result = out.toString();
            }
            // Spark reads on to the end of the containers the path entered, and gives null when they do not close
            for (int open = path.size(); open > 0; open--) {
                for (JsonToken n = p.nextToken(); n != JsonToken.END_OBJECT && n != JsonToken.END_ARRAY; n = p.nextToken()) {
                    if (n == null) {
                        return null;
                    }
                    p.skipChildren();
                }
            }
            return result;
        } catch (IOException e) {
            return null;
        }
    }

    private static Bound fromJson(Analyzer.Call call, List<Bound> args) {
        if (!(args.get(1) instanceof Bound.Literal l) || l.value() == null || !Types.is(l.type(), DataType.Kind.STRING)) {
            throw call.typeError("the schema must be a text literal in DDL, 'a INT, b STRING'");
        }
        String ddl = ((String) l.value()).strip();
        if (FromJsonVariant.isVariant(ddl)) { // the whole text one VARIANT
            return FromJsonVariant.bind(call, args.get(0), args.size() > 2 ? JsonOptions.of(call, args.get(2)) : JsonOptions.DEFAULT);
        }
        if (ddl.toUpperCase(Locale.ROOT).startsWith("STRUCT<") && ddl.endsWith(">")) {
            ddl = ddl.substring("STRUCT<".length(), ddl.length() - 1);
        }
        Schema schema;
        try {
            // VARIANT fields, and Spark's STRUCT<a: INT, a: INT> of 'a INT, a INT', the last a filled
            schema = Schema.parseWithRepeatedNames(ddl, true);
        } catch (TributaryException e) {
            throw call.typeError("the schema " + l.text() + " is not a DDL schema: " + e.getMessage());
        }
        for (Field f : schema.fields()) {
            if (f.type().hasTypedMapKeys()) {
                throw call.typeError("[DATATYPE_MISMATCH.INVALID_JSON_MAP_KEY_TYPE] the schema's column '" + f.name() + "' is "
                        + f.type().ddl() + ": Spark's JSON reader takes maps of STRING keys only");
            }
        }
        JsonOptions options = args.size() > 2 ? JsonOptions.of(call, args.get(2)) : JsonOptions.DEFAULT;
        JsonRowReader reader = new JsonRowReader(schema, options.times(), JsonInputVariants.INSTANCE);
        boolean variants = Variants.holdsVariant(schema);
        JsonRowReader.Leftovers leftovers = options.failFast() ? failFast(schema) : PARTIAL;
        int width = schema.size();
        return call.apply(List.of(call.as(args.get(0), STRING)), DataType.struct(schema), (Kernel.Unary) json -> {
            options.check();
            if (((String) json).isBlank()) {
                return null;
            }
            byte[] bytes = ((String) json).getBytes(StandardCharsets.UTF_8);
            try (JsonParser p = options.factory().createParser(bytes, 0, bytes.length)) {
                Object[] row = reader.record(p, bytes, 0, leftovers);
                return row == null ? new Object[width] : variants ? Variants.toSpark(schema, row) : row;
            } catch (Failure f) {
                throw f;
            } catch (IOException | RuntimeException malformed) {
                if (options.failFast()) {
                    throw Failure.of("MALFORMED_RECORD_IN_PARSING.WITHOUT_SUGGESTION", "the text is not a JSON object of the schema: "
                            + malformed.getMessage());
                }
                return new Object[width];
            }
        });
    }

    /** FAILFAST: a top-level value of the wrong type fails the row, as Spark's (a date or time that does not read: malformed). */
    private static JsonRowReader.Leftovers failFast(Schema schema) {
        return new Partial() {
            @Override
            public void mismatched(String name, String json) {
                DataType.Kind kind = schema.field(schema.fieldIndex(name)).type().kind();
                boolean time = kind == DataType.Kind.DATE || kind == DataType.Kind.TIMESTAMP || kind == DataType.Kind.TIMESTAMP_NTZ;
                if (time && json.startsWith("\"")) {
                    throw Failure.of("MALFORMED_RECORD_IN_PARSING.WITHOUT_SUGGESTION", "the field " + name + "'s value " + json
                            + " is not a " + kind);
                }
                throw Failure.of("CANNOT_PARSE_JSON_FIELD", "the field " + name + "'s value " + json + " is not a " + kind);
            }
        };
    }

    private static Bound toJson(Analyzer.Call call, List<Bound> args) {
        Bound x = args.get(0);
        if (x.type() == null) {
            return new Bound.Literal(null, STRING, call.text());
        }
        if (Variants.isVariant(x.type())) {
            return call.apply(List.of(x), STRING, (Kernel.Unary) Variants::json);
        }
        if (!x.type().isNested()) {
            throw call.typeError("to_json takes a STRUCT, an ARRAY or a MAP, and '" + x.text() + "' is " + Types.name(x.type()));
        }
        DataType type = x.type();
        return call.apply(List.of(x), STRING, (Kernel.Unary) v -> {
            try {
                return JsonWriter.write(type, v);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }
}
