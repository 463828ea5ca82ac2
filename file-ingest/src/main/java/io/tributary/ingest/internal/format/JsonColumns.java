package io.tributary.ingest.internal.format;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.ingest.IngestConfig;
import io.tributary.ingest.internal.FileDiscovery;
import io.tributary.ingest.internal.FileStat;
import io.tributary.ingest.internal.LineReader;
import io.tributary.schema.DataType;
import io.tributary.schema.JsonTypes;
import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The columns of JSON files as Spark's JSON inference types them: sorted by name, malformed lines
 * skipped, the files' types merged; text typed TIMESTAMP only with {@code inferTimestamp}.
 */
final class JsonColumns {
    private static final ObjectMapper JSON = new ObjectMapper();

    private JsonColumns() {
    }

    static Map<String, DataType> columns(IngestConfig config, FileDiscovery discovery, List<FileStat> files) throws IOException {
        Map<String, DataType> columns = new TreeMap<>();
        boolean document = config.format().flag("multiline", false);
        TimeFormats times = config.format().flag("infertimestamp", false) ? config.format().times(config.timeZone()) : null;
        for (FileStat f : files) {
            try (InputStream in = Compression.decompress(f.relPath(), discovery.open(f))) {
                if (document) {
                    String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                    DataType t = JsonTypes.infer(text, true);
                    if (t != null && times != null) {
                        t = timestamps(t, tree(text), times);
                    }
                    if (t != null && t.kind() == DataType.Kind.ARRAY) {
                        t = t.element();
                    }
                    if (t != null && t.kind() == DataType.Kind.STRUCT) {
                        for (Field c : t.struct().fields()) {
                            columns.merge(c.name(), c.type(), JsonTypes::merge);
                        }
                    }
                    continue;
                }
                LineReader lines = new LineReader(in, config.maxLineBytes(), null);
                while (lines.next()) {
                    if (lines.problem() != LineReader.Problem.NONE) {
                        continue;
                    }
                    String line = new String(lines.bytes(), lines.start(), lines.length(), StandardCharsets.UTF_8);
                    Map<String, DataType> fields = JsonTypes.fields(line, true);
                    if (times != null) {
                        fields = timestamps(line, fields, times);
                    }
                    fields.forEach((k, v) -> columns.put(k, columns.containsKey(k) ? JsonTypes.merge(columns.get(k), v) : v));
                }
            }
        }
        return JsonTypes.finish(columns); // Spark drops a column only ever {}
    }

    /**
     * Spark's JSON {@code inferTimestamp}: a text value that reads as a timestamp types its field
     * TIMESTAMP, at any depth (struct fields and array elements too, as Spark's JSON inference).
     */
    private static Map<String, DataType> timestamps(String line, Map<String, DataType> fields, TimeFormats times) {
        if (fields.values().stream().noneMatch(JsonColumns::hasText)) {
            return fields;
        }
        JsonNode tree = tree(line);
        Map<String, DataType> out = new TreeMap<>(fields);
        fields.forEach((k, v) -> out.put(k, timestamps(v, tree == null ? null : tree.get(k), times)));
        return out;
    }

    private static JsonNode tree(String text) {
        try {
            return JSON.readTree(text);
        } catch (IOException e) {
            return null;
        }
    }

    /** {@code t} retyped by the timestamps in {@code n}, the types of fields {@code n} lacks kept. */
    private static DataType timestamps(DataType t, JsonNode n, TimeFormats times) {
        return fill(retyped(t, n, times), t);
    }

    /** {@code t} retyped by the timestamps in {@code n}; null where {@code n} has no value (nothing learnt). */
    private static DataType retyped(DataType t, JsonNode n, TimeFormats times) {
        if (t == null || n == null || n.isNull()) {
            return null;
        }
        if (!hasText(t)) {
            return t;
        }
        switch (t.kind()) {
            case STRING:
                return n.isTextual() && times.micros(n.textValue(), true) != null ? DataType.TIMESTAMP : t;
            case STRUCT:
                if (!n.isObject()) {
                    return t;
                }
                List<Field> out = new ArrayList<>();
                for (Field f : t.struct().fields()) {
                    out.add(new Field(f.name(), retyped(f.type(), n.get(f.name()), times), f.nullable()));
                }
                return DataType.struct(new Schema(out));
            case ARRAY:
                if (!n.isArray()) {
                    return t;
                }
                DataType element = null;
                for (JsonNode e : n) {
                    element = JsonTypes.merge(element, retyped(t.element(), e, times));
                }
                return element == null ? null : DataType.array(element);
            default:
                return t;
        }
    }

    /** {@code r} with {@code t}'s types wherever {@code r} learnt nothing (null). */
    private static DataType fill(DataType r, DataType t) {
        if (r == null) {
            return t;
        }
        if (t == null || r.kind() != t.kind()) {
            return r;
        }
        if (r.kind() == DataType.Kind.STRUCT) {
            List<Field> out = new ArrayList<>();
            for (Field f : r.struct().fields()) {
                int i = t.struct().indexOf(f.name());
                out.add(new Field(f.name(), fill(f.type(), i < 0 ? null : t.struct().field(i).type()), f.nullable()));
            }
            return DataType.struct(new Schema(out));
        }
        return r.kind() == DataType.Kind.ARRAY ? DataType.array(fill(r.element(), t.element())) : r;
    }

    private static boolean hasText(DataType t) {
        if (t == null) {
            return false;
        }
        return switch (t.kind()) {
            case STRING -> true;
            case STRUCT -> t.struct().fields().stream().anyMatch(f -> hasText(f.type()));
            case ARRAY -> hasText(t.element());
            default -> false;
        };
    }
}
