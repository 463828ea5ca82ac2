package io.tributary.expressions.internal;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The JSON paths of Spark's get_json_object: {@code $} then steps {@code .name}, {@code ['name']} and {@code [n]}, parsed
 * into a list of field names (String), array indexes (Integer) and the wildcard {@code [*]} ({@link #WILDCARD}).
 */
final class JsonPath {
    /** The step {@code [*]}: every element of an array. */
    static final Object WILDCARD = new Object();

    private JsonPath() {
    }

    /** The steps of {@code path}, or null when it is not a path (Spark's get_json_object then gives null). */
    static List<Object> parse(String path) {
        if (!path.startsWith("$")) {
            return null;
        }
        List<Object> steps = new ArrayList<>();
        int i = 1;
        while (i < path.length()) {
            char c = path.charAt(i);
            if (c == '.') {
                int end = i + 1;
                while (end < path.length() && path.charAt(end) != '.' && path.charAt(end) != '[') {
                    end++;
                }
                String name = path.substring(i + 1, end);
                if (name.isEmpty() || name.equals("*")) {
                    return null;
                }
                steps.add(name);
                i = end;
            } else if (path.startsWith("['", i)) {
                int end = path.indexOf("']", i + 2);
                if (end < 0) {
                    return null;
                }
                steps.add(path.substring(i + 2, end));
                i = end + 2;
            } else if (c == '[') {
                int end = path.indexOf(']', i);
                if (end < 0) {
                    return null;
                }
                String n = path.substring(i + 1, end).strip();
                if (n.equals("*")) {
                    steps.add(WILDCARD);
                    i = end + 1;
                    continue;
                }
                if (n.isEmpty() || !n.chars().allMatch(Character::isDigit) || n.length() > 9) {
                    return null;
                }
                steps.add(Integer.parseInt(n));
                i = end + 1;
            } else {
                return null;
            }
        }
        return steps;
    }

    /** Moves {@code p}, on a value, to the value {@code step} names in it; false when there is none. */
    static boolean step(JsonParser p, Object step) throws IOException {
        if (step instanceof String name) {
            if (p.currentToken() != JsonToken.START_OBJECT) {
                return false;
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                p.nextToken();
                if (field.equals(name)) {
                    return true;
                }
                p.skipChildren();
            }
            return false;
        }
        int index = (Integer) step;
        if (p.currentToken() != JsonToken.START_ARRAY) {
            return false;
        }
        int i = 0;
        for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY && t != null; t = p.nextToken()) {
            if (i++ == index) {
                return true;
            }
            p.skipChildren();
        }
        return false;
    }
}
