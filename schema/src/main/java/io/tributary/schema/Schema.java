package io.tributary.schema;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An ordered list of typed columns, parsed from a Spark DDL string such as
 * {@code "id INT, user STRING, amt DOUBLE, ts TIMESTAMP"}. Column names are matched
 * case-insensitively, as Spark does by default.
 */
public final class Schema {
    private static final Pattern DECIMAL = Pattern.compile("(?:DECIMAL|DEC|NUMERIC)\\s*(?:\\(\\s*(\\d+)\\s*(?:,\\s*(\\d+)\\s*)?\\))?");
    private static final Pattern SIZED_STRING = Pattern.compile("(?:VARCHAR|CHAR)\\s*\\(\\s*\\d+\\s*\\)");
    private static final Pattern COLUMN = Pattern.compile(
            "(`(?:[^`]|``)+`|[A-Za-z0-9_]+)(?:\\s*:\\s*|\\s+)(.+?)(\\s+NOT\\s+NULL)?"
                    + "(\\s+COMMENT\\s+(?:'(?:[^'\\\\]|\\\\.)*'|\"(?:[^\"\\\\]|\\\\.)*\"))?",
            Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
    private static final Pattern STRUCT = Pattern.compile("STRUCT\\s*<(.*)>", Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
    private static final Pattern ARRAY = Pattern.compile("ARRAY\\s*<(.*)>", Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
    private static final Pattern MAP = Pattern.compile("MAP\\s*<(.*)>", Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
    private static final Pattern PLAIN_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final String VALID_TYPES = "TINYINT (BYTE), SMALLINT (SHORT), INT (INTEGER), BIGINT (LONG), FLOAT (REAL), DOUBLE, "
            + "DECIMAL(p,s) (DEC, NUMERIC), STRING, VARCHAR(n), CHAR(n), BOOLEAN, DATE, TIMESTAMP (TIMESTAMP_LTZ), TIMESTAMP_NTZ, "
            + "BINARY, STRUCT<name: TYPE, ...>, ARRAY<TYPE>, MAP<STRING, TYPE>";
    private static final Map<String, DataType> SIMPLE = Map.ofEntries(
            Map.entry("TINYINT", DataType.BYTE), Map.entry("BYTE", DataType.BYTE),
            Map.entry("SMALLINT", DataType.SHORT), Map.entry("SHORT", DataType.SHORT),
            Map.entry("INT", DataType.INT), Map.entry("INTEGER", DataType.INT),
            Map.entry("BIGINT", DataType.LONG), Map.entry("LONG", DataType.LONG),
            Map.entry("FLOAT", DataType.FLOAT), Map.entry("REAL", DataType.FLOAT),
            Map.entry("DOUBLE", DataType.DOUBLE),
            Map.entry("STRING", DataType.STRING),
            Map.entry("BOOLEAN", DataType.BOOLEAN),
            Map.entry("DATE", DataType.DATE),
            Map.entry("TIMESTAMP", DataType.TIMESTAMP), Map.entry("TIMESTAMP_LTZ", DataType.TIMESTAMP),
            Map.entry("TIMESTAMP_NTZ", DataType.TIMESTAMP_NTZ),
            Map.entry("BINARY", DataType.BINARY));
    private static final List<String> UNSUPPORTED = List.of("INTERVAL", "VARIANT", "VOID", "OBJECT");

    private final List<Field> fields;
    private final Map<String, Integer> index = new HashMap<>();
    /** The columns by their exact names: how a JSON field finds its column ({@link #fieldIndex}). */
    private final Map<String, Integer> exact = new HashMap<>();

    public Schema(List<Field> fields) {
        this(fields, false);
    }

    private Schema(List<Field> fields, boolean repeats) {
        this.fields = List.copyOf(fields);
        for (int i = 0; i < this.fields.size(); i++) {
            exact.put(this.fields.get(i).name(), i);
            String key = this.fields.get(i).name().toLowerCase(Locale.ROOT);
            if (index.putIfAbsent(key, i) != null && !repeats) {
                throw SchemaErrors.duplicateColumn(this.fields.get(i).name());
            }
        }
        if (this.fields.isEmpty()) {
            throw SchemaErrors.noColumns();
        }
    }

    /** Parses a Spark DDL column list. Errors name the column and say how to fix it. */
    public static Schema parse(String ddl) {
        if (ddl == null || ddl.isBlank()) {
            throw SchemaErrors.emptySchema();
        }
        return parseColumns(ddl, "", false);
    }

    /**
     * As {@link #parse}, and a column may be VARIANT or hold one at any depth ({@code STRUCT<v: VARIANT>},
     * {@code ARRAY<VARIANT>}, {@code MAP<STRING, VARIANT>}): a JSON source's schema, whose reader makes each such value a
     * variant of its JSON, and the schema of rows that carry VARIANT columns ({@link #toDdl} writes them VARIANT).
     */
    public static Schema parseWithVariant(String ddl) {
        if (ddl == null || ddl.isBlank()) {
            throw SchemaErrors.emptySchema();
        }
        return parseColumns(ddl, "", true);
    }

    /**
     * As {@link #parse}, and a name may repeat among the columns ({@code 'a INT, a INT'}), as Spark's {@code StructType} allows it:
     * the struct {@code from_csv}, {@code from_json} and {@code from_xml} give of such a schema. {@link #indexOf} gives the first
     * column of a name, {@link #fieldIndex} the last of an exact name (as Spark's JSON and XML readers fill it); no table holds
     * such a struct ({@link #repeatsAName}). With {@code variant}, a column may be VARIANT too, as {@link #parseWithVariant}
     * ({@code from_json}'s schema).
     */
    public static Schema parseWithRepeatedNames(String ddl, boolean variant) {
        if (ddl == null || ddl.isBlank()) {
            throw SchemaErrors.emptySchema();
        }
        return parseColumns(ddl, "", variant, true);
    }

    /** The columns {@code fields}, a name possibly repeated among them ({@link #parseWithRepeatedNames(String, boolean)}). */
    public static Schema withRepeatedNames(List<Field> fields) {
        return new Schema(fields, true);
    }

    /** Whether two columns share a name, compared without case ({@link #parseWithRepeatedNames(String, boolean)}). */
    public boolean repeatsAName() {
        return index.size() < fields.size();
    }

    /** How many columns are named {@code name}, compared without case. */
    public int count(String name) {
        return (int) fields.stream().filter(f -> f.name().equalsIgnoreCase(name)).count();
    }

    private static Schema parseColumns(String ddl, String prefix, boolean variant) {
        return parseColumns(ddl, prefix, variant, false);
    }

    /** Parses the columns of a top-level schema ({@code prefix} empty) or of a struct ({@code prefix} "parent."). */
    private static Schema parseColumns(String ddl, String prefix, boolean variant, boolean repeats) {
        List<Field> fields = new ArrayList<>();
        for (String part : splitTopLevel(ddl)) {
            String col = part.strip();
            Matcher m = COLUMN.matcher(col);
            if (!m.matches()) {
                throw SchemaErrors.badColumnDefinition(col, prefix.isEmpty() ? null : prefix.substring(0, prefix.length() - 1));
            }
            String name = m.group(1);
            if (name.startsWith("`")) {
                name = name.substring(1, name.length() - 1).replace("``", "`");
            }
            fields.add(new Field(name, parseType(prefix + name, m.group(2).strip(), variant), m.group(3) == null));
        }
        try {
            return new Schema(fields, repeats);
        } catch (TributaryException e) {
            if (prefix.isEmpty()) {
                throw e;
            }
            throw SchemaErrors.inStruct(e.getMessage(), prefix.substring(0, prefix.length() - 1));
        }
    }

    private static DataType parseType(String column, String text, boolean variant) {
        String t = text.toUpperCase(Locale.ROOT).replaceAll("\\s+", " ");
        DataType simple = SIMPLE.get(t);
        if (simple != null) {
            return simple;
        }
        if (variant && t.equals("VARIANT")) {
            return DataType.VARIANT;
        }
        if (SIZED_STRING.matcher(t).matches()) {
            return DataType.STRING;
        }
        Matcher st = STRUCT.matcher(text);
        if (st.matches()) {
            if (st.group(1).isBlank()) {
                throw SchemaErrors.emptyStruct(column);
            }
            return DataType.struct(parseColumns(st.group(1), column + ".", variant));
        }
        Matcher arr = ARRAY.matcher(text);
        if (arr.matches()) {
            if (arr.group(1).isBlank()) {
                throw SchemaErrors.emptyArray(column);
            }
            return DataType.array(parseType(column + "[]", arr.group(1).strip(), variant));
        }
        Matcher map = MAP.matcher(text);
        if (map.matches()) {
            List<String> kv = splitTopLevel(map.group(1));
            if (kv.size() != 2 || kv.get(0).isBlank() || kv.get(1).isBlank()) {
                throw SchemaErrors.badMap(column, text);
            }
            DataType key = parseType(column + " key", kv.get(0).strip(), variant);
            if (key.isNested()) {
                throw SchemaErrors.nestedMapKeys(column, text, key.ddl());
            }
            return DataType.map(key, parseType(column + " value", kv.get(1).strip(), variant));
        }
        Matcher d = DECIMAL.matcher(t);
        if (d.matches()) {
            int precision = d.group(1) == null ? 10 : parseSmall(d.group(1));
            int scale = d.group(2) == null ? 0 : parseSmall(d.group(2));
            if (precision < 1 || precision > 38 || scale > precision) {
                throw SchemaErrors.badDecimal(column, text);
            }
            return DataType.decimal(precision, scale);
        }
        for (String u : UNSUPPORTED) {
            if (t.startsWith(u)) {
                throw SchemaErrors.unsupportedType(column, text);
            }
        }
        throw SchemaErrors.unknownType(column, text, VALID_TYPES);
    }

    /** A decimal's precision or scale; too many digits count as out of range. */
    private static int parseSmall(String digits) {
        return digits.length() > 3 ? Integer.MAX_VALUE : Integer.parseInt(digits);
    }

    /** A column name as DDL writes it: plain, or in backticks when it needs them. */
    public static String quote(String name) {
        return PLAIN_NAME.matcher(name).matches() ? name : "`" + name.replace("`", "``") + "`";
    }

    private static List<String> splitTopLevel(String ddl) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        char quote = 0; // the open quote: ` ' " or none
        int start = 0;
        for (int i = 0; i < ddl.length(); i++) {
            char c = ddl.charAt(i);
            if (quote != 0) {
                if (c == '\\' && quote != '`') {
                    i++; // an escaped character inside a string literal
                } else if (c == quote) {
                    quote = 0;
                }
            } else if (c == '`' || c == '\'' || c == '"') {
                quote = c;
            } else if (c == '(' || c == '<') {
                depth++;
            } else if (c == ')' || c == '>') {
                depth--;
            } else if (c == ',' && depth == 0) {
                parts.add(ddl.substring(start, i));
                start = i + 1;
            }
        }
        parts.add(ddl.substring(start));
        return parts;
    }

    public List<Field> fields() {
        return fields;
    }

    public int size() {
        return fields.size();
    }

    public Field field(int i) {
        return fields.get(i);
    }

    /** The position of a column, case-insensitively; -1 if absent. */
    public int indexOf(String name) {
        Integer i = index.get(name.toLowerCase(Locale.ROOT));
        return i == null ? -1 : i;
    }

    /**
     * The position of the column named exactly {@code name}, case included; -1 if none. How a JSON
     * field finds its column, as in Spark's JSON reader ({@code StructType.getFieldIndex}): a field
     * {@code USER} is not the column {@code user}, whatever {@code spark.sql.caseSensitive} says.
     */
    public int fieldIndex(String name) {
        Integer i = exact.get(name);
        return i == null ? -1 : i;
    }

    /** The position of a column, or an error that names {@code what} needs it. */
    public int require(String name, String what) {
        int i = indexOf(name);
        if (i < 0) {
            throw SchemaErrors.notInSchema(what, name, toDdl());
        }
        return i;
    }

    /** The schema as a DDL string that {@link #parse} reads back. */
    public String toDdl() {
        StringBuilder sb = new StringBuilder();
        for (Field f : fields) {
            if (sb.length() > 0) {
                sb.append(", ");
            }
            sb.append(quote(f.name())).append(' ').append(f.type().ddl());
            if (!f.nullable()) {
                sb.append(" NOT NULL");
            }
        }
        return sb.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Schema s && s.fields.equals(fields);
    }

    @Override
    public int hashCode() {
        return fields.hashCode();
    }

    @Override
    public String toString() {
        return toDdl();
    }
}
