package io.tributary.ingest.internal.format;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.ingest.FileFormat;
import io.tributary.ingest.IngestConfig;
import io.tributary.ingest.internal.FileDiscovery;
import io.tributary.ingest.internal.FileStat;
import io.tributary.ingest.internal.LineReader;
import io.tributary.schema.DataType;
import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;

/**
 * The columns of sampled input files, typed as Spark's readers infer them: JSON as Spark's JSON
 * inference (columns sorted by name, as Spark sorts them; malformed lines skipped; text TIMESTAMP only with inferTimestamp), CSV named by
 * the header ({@code _c0}, {@code _c1}... without one) and STRING unless {@code inferSchema} (then
 * INT, BIGINT, DECIMAL(n, 0), DOUBLE, DATE, TIMESTAMP, BOOLEAN or STRING, as Spark's CSV inference), Parquet as the
 * first file's footer says.
 */
public final class InferredColumns {
    private InferredColumns() {
    }

    /** The columns of {@code files} (read in full) for {@code config}'s format. */
    public static Map<String, DataType> of(IngestConfig config, FileDiscovery discovery, List<FileStat> files) throws IOException {
        FileFormat format = config.format();
        return switch (format.kind()) {
            case PARQUET -> parquet(discovery, files.get(0));
            case CSV -> csv(config, discovery, files);
            default -> json(config, discovery, files);
        };
    }

    private static Map<String, DataType> json(IngestConfig config, FileDiscovery discovery, List<FileStat> files) throws IOException {
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
        Map<String, DataType> out = new LinkedHashMap<>();
        columns.forEach((k, v) -> out.put(k, JsonTypes.finish(v)));
        return out;
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * Spark's JSON {@code inferTimestamp}: a text value that reads as a timestamp types its field
     * TIMESTAMP, at any depth (struct fields and array elements too, as Spark's JSON inference).
     */
    private static Map<String, DataType> timestamps(String line, Map<String, DataType> fields, TimeFormats times) {
        if (fields.values().stream().noneMatch(InferredColumns::hasText)) {
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

    private static Map<String, DataType> csv(IngestConfig config, FileDiscovery discovery, List<FileStat> files) throws IOException {
        FileFormat format = config.format();
        boolean typed = format.flag("inferschema", false);
        boolean header = format.flag("header", false);
        TimeFormats times = format.times(config.timeZone());
        String nullValue = format.option("nullvalue", "");
        List<String> names = new ArrayList<>();
        List<DataType> types = new ArrayList<>();
        Schema placeholder = new Schema(List.of(new Field("value", DataType.STRING, true)));
        for (FileStat f : files) {
            try (InputStream in = Compression.decompress(f.relPath(), discovery.open(f));
                 CsvReader reader = new CsvReader(in, FileFormat.of("csv", withoutHeader(format)), new CsvValues(placeholder, format, times),
                         config.maxLineBytes())) {
                boolean first = true;
                while (reader.next()) {
                    String[] tokens = reader.tokens();
                    if (tokens == null) {
                        continue;
                    }
                    if (first && header) {
                        first = false;
                        if (names.isEmpty()) {
                            for (int i = 0; i < tokens.length; i++) {
                                names.add(tokens[i] == null || tokens[i].isBlank() ? "_c" + i : tokens[i].strip());
                            }
                        }
                        continue;
                    }
                    first = false;
                    for (int i = 0; i < tokens.length; i++) {
                        while (types.size() <= i) {
                            types.add(null);
                        }
                        String t = tokens[i];
                        if (t != null && !t.equals(nullValue)) {
                            types.set(i, mergeCsv(types.get(i), typed ? csvType(t, times) : DataType.STRING));
                        }
                    }
                }
            }
        }
        Map<String, DataType> out = new LinkedHashMap<>();
        int n = Math.max(names.size(), types.size());
        for (int i = 0; i < n; i++) {
            String name = i < names.size() ? names.get(i) : "_c" + i;
            DataType t = i < types.size() ? types.get(i) : null;
            out.putIfAbsent(name, t == null ? DataType.STRING : t);
        }
        return out;
    }

    private static Map<String, String> withoutHeader(FileFormat format) {
        Map<String, String> o = new LinkedHashMap<>(format.options());
        o.remove("header");
        o.remove("inferschema");
        return o;
    }

    private static final java.util.regex.Pattern BIG_INTEGER = java.util.regex.Pattern.compile("[+-]?\\d+");
    private static final java.util.regex.Pattern ISO_DATE = java.util.regex.Pattern.compile("\\d{4}-\\d{1,2}-\\d{1,2}");

    /** Spark's CSV inference of one value: INT, BIGINT, DOUBLE, DATE, TIMESTAMP, BOOLEAN, else STRING. */
    static DataType csvType(String t, TimeFormats times) {
        try {
            Integer.parseInt(t);
            return DataType.INT;
        } catch (NumberFormatException e) {
            // wider
        }
        try {
            Long.parseLong(t);
            return DataType.LONG;
        } catch (NumberFormatException e) {
            // wider
        }
        if (BIG_INTEGER.matcher(t).matches()) {
            int digits = t.replaceFirst("^[+-]?0*", "").length();
            return digits <= 38 ? DataType.decimal(Math.max(digits, 1), 0) : DataType.DOUBLE; // Spark: DECIMAL(n, 0) past BIGINT
        }
        try {
            Double.parseDouble(t);
            return DataType.DOUBLE;
        } catch (NumberFormatException e) {
            // not a number
        }
        if (t.equalsIgnoreCase("true") || t.equalsIgnoreCase("false")) {
            return DataType.BOOLEAN;
        }
        if (times.isDefault() ? ISO_DATE.matcher(t).matches() && times.days(t) != null : times.days(t) != null) {
            return DataType.DATE; // Spark's prefersDate: a date before a timestamp
        }
        if (t.length() >= 10 && times.micros(t, true) != null) {
            return DataType.TIMESTAMP;
        }
        return DataType.STRING;
    }

    private static DataType mergeCsv(DataType a, DataType b) {
        if (a == null || a.equals(b)) {
            return b;
        }
        if (isNumber(a) && isNumber(b)) {
            if (a.kind() == DataType.Kind.DOUBLE || b.kind() == DataType.Kind.DOUBLE) {
                return DataType.DOUBLE;
            }
            if (a.kind() != DataType.Kind.DECIMAL && b.kind() != DataType.Kind.DECIMAL) {
                return DataType.LONG;
            }
            int digits = Math.max(integerDigits(a), integerDigits(b));
            return digits > 38 ? DataType.DOUBLE : DataType.decimal(digits, 0);
        }
        boolean times = (a.kind() == DataType.Kind.DATE || a.kind() == DataType.Kind.TIMESTAMP)
                && (b.kind() == DataType.Kind.DATE || b.kind() == DataType.Kind.TIMESTAMP);
        if (times) {
            return DataType.TIMESTAMP; // Spark: a date column with a timestamp in it is a timestamp column
        }
        return DataType.STRING;
    }

    private static boolean isNumber(DataType t) {
        return switch (t.kind()) {
            case INT, LONG, DOUBLE, DECIMAL -> true;
            default -> false;
        };
    }

    private static int integerDigits(DataType t) {
        return switch (t.kind()) {
            case INT -> 10;
            case LONG -> 20;
            default -> t.precision() - t.scale();
        };
    }

    private static Map<String, DataType> parquet(FileDiscovery discovery, FileStat f) throws IOException {
        Path local = f.path();
        Path copy = null;
        if (local == null) {
            copy = Files.createTempFile("tributary-", ".parquet");
            try (InputStream in = discovery.open(f)) {
                Files.copy(in, copy, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
            local = copy;
        }
        try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(local),
                ParquetReadOptions.builder(new PlainParquetConfiguration()).build())) {
            MessageType schema = reader.getFooter().getFileMetaData().getSchema();
            Map<String, DataType> out = new LinkedHashMap<>();
            for (Type t : schema.getFields()) {
                out.put(t.getName(), type(t, discovery.display(f.relPath())));
            }
            return out;
        } finally {
            if (copy != null) {
                Files.deleteIfExists(copy);
            }
        }
    }

    /** The type Spark gives a Parquet field. */
    static DataType type(Type t, String file) {
        if (t.isPrimitive()) {
            return primitive(t.asPrimitiveType(), file);
        }
        GroupType g = t.asGroupType();
        LogicalTypeAnnotation a = g.getLogicalTypeAnnotation();
        if (a instanceof LogicalTypeAnnotation.ListLogicalTypeAnnotation) {
            Type r = g.getType(0);
            boolean direct = r.isPrimitive() || r.asGroupType().getFieldCount() != 1 || r.getName().equals("array")
                    || r.getName().equals(g.getName() + "_tuple");
            return DataType.array(direct ? type(r, file) : type(r.asGroupType().getType(0), file));
        }
        if (a instanceof LogicalTypeAnnotation.MapLogicalTypeAnnotation || a instanceof LogicalTypeAnnotation.MapKeyValueTypeAnnotation) {
            GroupType kv = g.getType(0).asGroupType();
            DataType key = type(kv.getType(0), file);
            if (key.kind() != DataType.Kind.STRING) {
                throw new TributaryException("file " + file + ": column '" + g.getName() + "' is a map with " + key.ddl()
                        + " keys, which Tributary does not read (MAP<STRING, ...> only); give source.files.schema without it");
            }
            return DataType.map(kv.getFieldCount() > 1 ? type(kv.getType(1), file) : DataType.STRING);
        }
        List<Field> fields = new ArrayList<>();
        for (Type c : g.getFields()) {
            fields.add(new Field(c.getName(), type(c, file), true));
        }
        return DataType.struct(new Schema(fields));
    }

    private static DataType primitive(PrimitiveType p, String file) {
        LogicalTypeAnnotation a = p.getLogicalTypeAnnotation();
        if (a instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation d) {
            return DataType.decimal(d.getPrecision(), d.getScale());
        }
        return switch (p.getPrimitiveTypeName()) {
            case BOOLEAN -> DataType.BOOLEAN;
            case INT32 -> {
                if (a instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation) {
                    yield DataType.DATE;
                }
                if (a instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation i && i.getBitWidth() <= 16) {
                    yield i.getBitWidth() == 8 ? DataType.BYTE : DataType.SHORT;
                }
                yield DataType.INT;
            }
            case INT64 -> a instanceof LogicalTypeAnnotation.TimestampLogicalTypeAnnotation ts
                    ? (ts.isAdjustedToUTC() ? DataType.TIMESTAMP : DataType.TIMESTAMP_NTZ) : DataType.LONG;
            case INT96 -> DataType.TIMESTAMP;
            case FLOAT -> DataType.FLOAT;
            case DOUBLE -> DataType.DOUBLE;
            case BINARY -> a == null ? DataType.BINARY : DataType.STRING;
            case FIXED_LEN_BYTE_ARRAY -> DataType.BINARY;
        };
    }
}
