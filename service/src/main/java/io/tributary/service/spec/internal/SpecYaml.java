package io.tributary.service.spec.internal;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.tributary.schema.TributaryException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * Reads a YAML spec into dotted keys ({@code source: {files: {path: in/}}} gives
 * {@code source.files.path}) in the file's order, each with the line it is on. A list becomes
 * its items joined by commas. A syntax error, an empty file and a key given twice are each one
 * line naming the place and the fix (a list of mappings gives its items' keys under their index, {@code join.0.table}); a key given twice in one mapping is found by the parser
 * itself ({@link StreamReadFeature#STRICT_DUPLICATE_DETECTION}).
 */
public final class SpecYaml {
    private static final YAMLFactory YAML = YAMLFactory.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();
    private static final Pattern DUPLICATE = Pattern.compile("Duplicate (?:field|Object property) '(.*)'", Pattern.DOTALL);

    /** A value and the line of its key (1-based). */
    public record Entry(String value, int line) {
    }

    private final String file;
    private final Map<String, Entry> entries = new LinkedHashMap<>();
    private final Map<String, Integer> keyLines = new HashMap<>();

    private SpecYaml(String file) {
        this.file = file;
    }

    /**
     * The keys of a spec, in file order; a key with an empty value ({@code path:}) has a null value.
     *
     * @param file the spec as the user named it, for messages
     */
    public static Map<String, Entry> read(String file, byte[] yaml) {
        SpecYaml reader = new SpecYaml(file);
        try (JsonParser p = YAML.createParser(yaml)) {
            reader.document(p);
        } catch (JsonProcessingException e) {
            throw reader.syntaxError(e);
        } catch (IOException e) {
            throw SpecErrors.cannotReadSpec(file, e.getMessage());
        }
        return reader.entries;
    }

    private void document(JsonParser p) throws IOException {
        JsonToken t = p.nextToken();
        boolean nothing = t == JsonToken.VALUE_NULL || t == JsonToken.VALUE_STRING && p.getText().isEmpty(); // "---" alone
        if (t == null || nothing && p.nextToken() == null) {
            throw SpecErrors.emptySpec(file);
        }
        if (t != JsonToken.START_OBJECT) {
            throw SpecErrors.notAMapping(at(p));
        }
        mapping(p, "");
        if (p.nextToken() != null) {
            throw SpecErrors.secondDocument(at(p));
        }
    }

    private void mapping(JsonParser p, String prefix) throws IOException {
        while (true) {
            JsonToken t;
            try {
                t = p.nextToken();
            } catch (JsonProcessingException e) {
                throw duplicateOr(e, prefix);
            }
            if (t == JsonToken.END_OBJECT) {
                return;
            }
            String key = prefix + p.currentName();
            int line = p.currentTokenLocation().getLineNr();
            keyLines.putIfAbsent(key, line);
            switch (p.nextToken()) {
                case START_OBJECT -> mapping(p, key + ".");
                case START_ARRAY -> {
                    String items = list(p, key);
                    if (items != null) {
                        put(key, items, line);
                    }
                }
                case VALUE_NULL -> put(key, null, line);
                default -> put(key, scalar(p), line);
            }
        }
    }

    /**
     * A list's items joined by commas; a list of mappings ({@code join: [{table: ..., as: ...}]}) gives each
     * item's keys under its index instead ({@code join.0.table}), and null.
     */
    private String list(JsonParser p, String key) throws IOException {
        List<String> items = new ArrayList<>();
        int mappings = 0;
        for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
            if (t == JsonToken.START_OBJECT && items.isEmpty()) {
                mapping(p, key + "." + mappings++ + ".");
                continue;
            }
            if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY || mappings > 0) {
                throw SpecErrors.nestedList(at(p), key);
            }
            if (t != JsonToken.VALUE_NULL) {
                items.add(scalar(p));
            }
        }
        return mappings > 0 ? null : String.join(",", items);
    }

    private static String scalar(JsonParser p) throws IOException {
        return switch (p.currentToken()) {
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> String.valueOf(p.getNumberValue());
            case VALUE_TRUE -> "true";
            case VALUE_FALSE -> "false";
            default -> p.getText();
        };
    }

    /** A leaf key: given twice when a dotted key ({@code sink.delta.path:}) repeats a nested one. */
    private void put(String key, String value, int line) {
        Entry before = entries.get(key);
        if (before != null) {
            throw SpecErrors.givenTwice(file, key, before.line(), line);
        }
        entries.put(key, new Entry(value, line));
    }

    private TributaryException duplicateOr(JsonProcessingException e, String prefix) {
        Matcher m = DUPLICATE.matcher(e.getOriginalMessage());
        if (e.getCause() == null && m.matches()) {
            String key = prefix + m.group(1);
            Integer first = keyLines.get(key);
            int second = e.getLocation() == null ? -1 : e.getLocation().getLineNr();
            if (first != null && second > 0) {
                return SpecErrors.givenTwice(file, key, first, second);
            }
        }
        return syntaxError(e);
    }

    private TributaryException syntaxError(JsonProcessingException e) {
        if (e.getCause() instanceof MarkedYAMLException y && y.getProblemMark() != null) {
            return yamlError(y);
        }
        String what = e.getOriginalMessage().lines().findFirst().orElse("").strip();
        String where = e.getLocation() == null ? "spec " + file
                : "spec " + file + " line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr();
        return SpecErrors.notValidYaml(where, what);
    }

    private TributaryException yamlError(MarkedYAMLException y) {
        String problem = oneLine(y.getProblem());
        String context = oneLine(y.getContext());
        Mark pm = y.getProblemMark();
        Mark cm = y.getContextMark();
        if (problem.contains("TAB") || problem.contains("'\\t'")) {
            return SpecErrors.tab(place(pm));
        }
        if (context.contains("quoted scalar") && cm != null) {
            return SpecErrors.unclosedQuote(place(cm), problem);
        }
        String because = problem + (context.isEmpty() ? "" : " " + context + (cm == null ? "" : " at line " + (cm.getLine() + 1) + ", column " + (cm.getColumn() + 1)));
        if (problem.startsWith("expected <block end>")) {
            return SpecErrors.keysOutOfLine(place(pm), because);
        }
        if (problem.startsWith("mapping values are not allowed") || problem.startsWith("could not find expected ':'")) {
            return SpecErrors.keyUnderValue(place(pm), because);
        }
        return SpecErrors.badYaml(place(pm), because);
    }

    private String place(Mark m) {
        return "spec " + file + " line " + (m.getLine() + 1) + ", column " + (m.getColumn() + 1);
    }

    private String at(JsonParser p) {
        return "spec " + file + " line " + p.currentTokenLocation().getLineNr();
    }

    private static String oneLine(String s) {
        return s == null ? "" : s.replaceAll("\\s*\\R\\s*", " ").strip();
    }
}
