package io.tributary.expressions.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.StringWriter;
import java.util.List;

/**
 * get_json_object over a path with the wildcard {@code [*]}, as Spark (and Hive before it) walks it: the matches under a
 * wildcard are gathered into a JSON array, unwrapped when there is one match only, null when there is none; two
 * wildcards in a row ({@code [*][*]}) flatten the nested arrays into one array, which stays an array even of one match.
 * Text is written bare at the top of the result, quoted inside an array.
 */
final class JsonWildcard {
    private enum Style { RAW, QUOTED, FLATTEN }

    private JsonWildcard() {
    }

    /** The value at {@code path} (names, indexes and {@link JsonPath#WILDCARD}) in {@code json}; null on no match or bad JSON. */
    static String extract(JsonFactory json, String text, List<Object> path) {
        try (JsonParser p = json.createParser(text)) {
            StringWriter out = new StringWriter();
            boolean matched;
            try (JsonGenerator g = json.createGenerator(out)) {
                p.nextToken();
                matched = evaluate(json, p, g, Style.RAW, path);
            }
            return matched ? out.toString() : null;
        } catch (IOException e) {
            return null;
        }
    }

    private static boolean evaluate(JsonFactory json, JsonParser p, JsonGenerator g, Style style, List<Object> path) throws IOException {
        JsonToken t = p.currentToken();
        if (path.isEmpty()) {
            if (t == JsonToken.VALUE_STRING && style == Style.RAW) {
                g.writeRaw(p.getText());
                return true;
            }
            if (t == JsonToken.START_ARRAY && style == Style.FLATTEN) {
                boolean dirty = false;
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    dirty |= evaluate(json, p, g, style, path);
                }
                return dirty;
            }
            g.copyCurrentStructure(p);
            return true;
        }
        Object step = path.get(0);
        List<Object> rest = path.subList(1, path.size());
        if (t == JsonToken.START_OBJECT && step instanceof String name) {
            boolean dirty = false;
            while (p.nextToken() != JsonToken.END_OBJECT) {
                if (dirty) {
                    p.skipChildren();
                } else {
                    dirty = field(json, p, g, style, name, rest);
                }
            }
            return dirty;
        }
        if (t == JsonToken.START_ARRAY && step == JsonPath.WILDCARD) {
            if (!rest.isEmpty() && rest.get(0) == JsonPath.WILDCARD) {
                boolean dirty = false;
                g.writeStartArray();
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    dirty |= evaluate(json, p, g, Style.FLATTEN, rest.subList(1, rest.size()));
                }
                g.writeEndArray();
                return dirty;
            }
            if (style != Style.QUOTED) {
                Style next = style == Style.RAW ? Style.QUOTED : Style.FLATTEN;
                StringWriter buffer = new StringWriter();
                int dirty = 0;
                try (JsonGenerator inner = json.createGenerator(buffer)) {
                    inner.writeStartArray();
                    while (p.nextToken() != JsonToken.END_ARRAY) {
                        dirty += evaluate(json, p, inner, next, rest) ? 1 : 0;
                    }
                    inner.writeEndArray();
                }
                String buf = buffer.toString();
                if (dirty > 1) {
                    g.writeRawValue(buf);
                } else if (dirty == 1) {
                    g.writeRawValue(buf.substring(1, buf.length() - 1));
                }
                return dirty > 0;
            }
            boolean dirty = false;
            g.writeStartArray();
            while (p.nextToken() != JsonToken.END_ARRAY) {
                dirty |= evaluate(json, p, g, Style.QUOTED, rest);
            }
            g.writeEndArray();
            return dirty;
        }
        if (t == JsonToken.START_ARRAY && step instanceof Integer index) {
            p.nextToken();
            Style next = !rest.isEmpty() && rest.get(0) == JsonPath.WILDCARD ? Style.QUOTED : style;
            for (int i = index; ; i--) {
                if (p.currentToken() == JsonToken.END_ARRAY) {
                    return false;
                }
                if (i == 0) {
                    boolean dirty = evaluate(json, p, g, next, rest);
                    while (p.nextToken() != JsonToken.END_ARRAY) {
                        p.skipChildren();
                    }
                    return dirty;
                }
                p.skipChildren();
                p.nextToken();
            }
        }
        p.skipChildren();
        return false;
    }

    /** On a field name in an object: the rest of the path evaluated in its value when it is the field named. */
    private static boolean field(JsonFactory json, JsonParser p, JsonGenerator g, Style style, String name, List<Object> rest) throws IOException {
        if (p.currentToken() == JsonToken.FIELD_NAME && p.currentName().equals(name)) {
            return p.nextToken() != JsonToken.VALUE_NULL && evaluate(json, p, g, style, rest);
        }
        p.skipChildren();
        return false;
    }
}
