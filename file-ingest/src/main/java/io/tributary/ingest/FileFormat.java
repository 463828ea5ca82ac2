package io.tributary.ingest;

import io.tributary.ingest.internal.IngestErrors;
import io.tributary.ingest.internal.SingleVariantErrors;
import io.tributary.ingest.internal.format.TimeFormats;
import io.tributary.schema.CsvValues;
import io.tributary.schema.DataType;
import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The format of the input files and its options, as Spark's file source takes them
 * ({@code spark.readStream.format(...).option(...)}): {@code json} (JSON Lines, or one document
 * per file with {@code multiLine}), {@code csv}, {@code parquet} and {@code text}. Option names
 * are Spark's, matched case-insensitively as Spark matches them; an option Tributary does not
 * read is refused (Spark would ignore it silently). Files named {@code .gz}, {@code .bz2} or
 * {@code .zst} are decompressed by their extension, as Spark's file source does. {@code xml} reads the elements of the
 * {@code rowTag} as rows, as Spark 4's XML source ({@link XmlFormat}). Beyond Spark,
 * {@code debezium-json}: Debezium's JSON change events, read as JSON is (one event per line, or a
 * file of one event or an array of them with {@code multiLine}) into the rows of their
 * {@code after} (a delete's {@code before}) with the change's {@code op} and sequence (docs/cdc.md).
 */
public final class FileFormat {
    /** The formats. */
    public enum Kind { JSON, CSV, PARQUET, TEXT, XML, DEBEZIUM_JSON }

    private static final Map<Kind, Set<String>> OPTIONS = Map.of(
            Kind.JSON, Set.of("multiline", "timestampformat", "timestampntzformat", "dateformat", "infertimestamp", "typedmapkeys",
                    "singlevariantcolumn"),
            Kind.CSV, Set.of("header", "sep", "delimiter", "quote", "escape", "nullvalue", "emptyvalue", "comment", "timestampformat",
                    "timestampntzformat", "dateformat", "multiline", "ignoreleadingwhitespace", "ignoretrailingwhitespace",
                    "nanvalue", "positiveinf", "negativeinf", "enforceschema", "inferschema", "singlevariantcolumn"),
            Kind.PARQUET, Set.of(),
            Kind.TEXT, Set.of("wholetext"),
            Kind.XML, Set.of("rowtag", "attributeprefix", "valuetag", "ignoresurroundingspaces", "nullvalue", "timestampformat",
                    "timestampntzformat", "dateformat", "rowvalidationxsdpath", "samplingratio", "excludeattribute", "ignorenamespace",
                    "locale", "prefersdecimal", "inferschema", "wildcardcolname", "mode", "columnnameofcorruptrecord",
                    "singlevariantcolumn"),
            Kind.DEBEZIUM_JSON, Set.of("multiline", "timestampformat", "timestampntzformat", "dateformat"));

    private final Kind kind;
    private final Map<String, String> options;

    private FileFormat(Kind kind, Map<String, String> options) {
        this.kind = kind;
        this.options = options;
    }

    /** The option of some format named {@code name} (any case, e.g. {@code header}), as Spark spells it, or null. */
    public static String optionNamed(String name) {
        for (Kind kind : Kind.values()) {
            String spelled = names(kind).get(name.toLowerCase(Locale.ROOT));
            if (spelled != null) {
                return spelled;
            }
        }
        return null;
    }

    /** JSON Lines with Spark's defaults: the format of a spec that names none. */
    public static FileFormat json() {
        return new FileFormat(Kind.JSON, Map.of());
    }

    /**
     * The format {@code name} with {@code options} (keys as given, e.g. {@code header}); an
     * error names the option and says what it takes.
     */
    public static FileFormat of(String name, Map<String, String> options) {
        Kind kind;
        try {
            kind = Kind.valueOf((name == null ? "json" : name.strip()).toUpperCase(Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException e) {
            throw IngestErrors.unknownFormat(name);
        }
        Map<String, String> lower = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : options.entrySet()) {
            String key = e.getKey().toLowerCase(Locale.ROOT);
            if (!OPTIONS.get(kind).contains(key)) {
                throw IngestErrors.unknownOption(e.getKey(), name(kind),
                        OPTIONS.get(kind).isEmpty() ? null : new TreeMap<>(names(kind)).values());
            }
            lower.put(key, e.getValue());
        }
        FileFormat f = new FileFormat(kind, Map.copyOf(lower));
        f.check();
        return f;
    }

    private static Map<String, String> names(Kind kind) {
        Map<String, String> m = new TreeMap<>();
        for (String o : List.of("multiLine", "timestampFormat", "timestampNTZFormat", "dateFormat", "header", "sep", "delimiter", "quote",
                "escape", "nullValue", "emptyValue", "comment", "ignoreLeadingWhiteSpace", "ignoreTrailingWhiteSpace", "nanValue",
                "positiveInf", "negativeInf", "enforceSchema", "inferSchema", "inferTimestamp", "wholetext", "typedMapKeys",
                "singleVariantColumn", "rowTag", "attributePrefix", "valueTag", "ignoreSurroundingSpaces", "rowValidationXSDPath",
                "samplingRatio", "excludeAttribute", "ignoreNamespace", "locale", "prefersDecimal", "wildcardColName")) {
            if (OPTIONS.get(kind).contains(o.toLowerCase(Locale.ROOT))) {
                m.put(o.toLowerCase(Locale.ROOT), o);
            }
        }
        return m;
    }

    private void check() {
        if (kind == Kind.XML) {
            XmlFormat.check(options);
            return;
        }
        for (String b : List.of("multiline", "header", "ignoreleadingwhitespace", "ignoretrailingwhitespace", "enforceschema", "wholetext",
                "inferschema", "infertimestamp", "typedmapkeys")) {
            String v = options.get(b);
            if (v != null && !v.strip().equalsIgnoreCase("true") && !v.strip().equalsIgnoreCase("false")) {
                throw IngestErrors.notBoolean(b, v);
            }
        }
        for (String c : List.of("sep", "delimiter", "quote", "escape", "comment")) {
            String v = options.get(c);
            if (v != null && csvChar(v) == null) {
                throw IngestErrors.notOneCharacter(c, v);
            }
        }
        String single = options.get("singlevariantcolumn");
        if (single != null && single.isBlank()) {
            throw SingleVariantErrors.singleVariantColumnBlank();
        }
    }

    /**
     * Spark's {@code singleVariantColumn}: the name of the one VARIANT column each whole JSON, CSV or XML record is read as, or null
     * when records are read as rows of the schema's fields.
     */
    public String singleVariantColumn() {
        return options.get("singlevariantcolumn");
    }

    /**
     * The schema of a source whose format reads {@link #singleVariantColumn()}: {@code NAME VARIANT}, as Spark's reader
     * gives it; {@code given} (the spec's {@code source.files.schema}, or null) may only be that, as Spark refuses any
     * other user schema beside the option ({@code INVALID_SINGLE_VARIANT_COLUMN}). Without the option, {@code given}.
     */
    public Schema singleVariantSchema(Schema given) {
        String name = singleVariantColumn();
        if (name == null) {
            return given;
        }
        Schema single = new Schema(List.of(new Field(name, DataType.VARIANT, true)));
        if (given != null && !(given.size() == 1 && given.field(0).name().equalsIgnoreCase(name) && given.field(0).type().isVariant())) {
            throw SingleVariantErrors.singleVariantColumnSchema(given.toDdl(), name);
        }
        return single;
    }

    /** One character of a CSV option: itself, or {@code \t}, {@code \u0000}-style escapes as Spark reads them; null if not one. */
    static Character csvChar(String v) {
        return CsvValues.optionChar(v);
    }

    public Kind kind() {
        return kind;
    }

    /** The format's name as a spec writes it. */
    public String name() {
        return name(kind);
    }

    private static String name(Kind kind) {
        return kind.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** True for the formats read as JSON: {@code json}, and {@code debezium-json}'s events. */
    public boolean readsJson() {
        return kind == Kind.JSON || kind == Kind.DEBEZIUM_JSON;
    }

    /** The options as given, keys lower-cased. */
    public Map<String, String> options() {
        return options;
    }

    /** An option's value, or {@code def}; {@code key} lower-case. */
    public String option(String key, String def) {
        return options.getOrDefault(key, def);
    }

    /** A true/false option; {@code key} lower-case. */
    public boolean flag(String key, boolean def) {
        String v = options.get(key);
        return v == null ? def : Boolean.parseBoolean(v.strip());
    }

    /** A one-character CSV option, or {@code def}; {@code \u0000} means none. */
    public char csvOption(String key, char def) {
        String v = options.get(key);
        if (v == null && key.equals("sep")) {
            v = options.get("delimiter");
        }
        return v == null ? def : csvChar(v);
    }

    /** True when a file is read whole as one record (JSON multiLine, text wholetext) rather than line by line. */
    public boolean wholeFile() {
        return (readsJson() && flag("multiline", false)) || (kind == Kind.TEXT && flag("wholetext", false));
    }

    /** How TIMESTAMP and DATE texts read: Spark's timestampFormat, timestampNTZFormat, dateFormat. */
    public TimeFormats times(ZoneId sessionZone) {
        return TimeFormats.of(sessionZone, options.get("timestampformat"), options.get("timestampntzformat"), options.get("dateformat"));
    }

    /** The XML reading of this format's options ({@code xml} only). */
    public io.tributary.expressions.XmlInput xmlInput() {
        return XmlFormat.input(options);
    }

    /** The schema of Spark's text source: one STRING column, {@code value}. */
    public static Schema textSchema() {
        return new Schema(List.of(new Field("value", DataType.STRING, true)));
    }

    /**
     * Checks that the format can read rows of {@code schema}: text reads one STRING column, CSV
     * no nested columns (Spark's CSV source neither), VARIANT columns in every format but text, JSON maps of STRING keys only unless its
     * option {@code typedMapKeys} (Tributary's own) reads other keys by Spark's cast.
     */
    public void checkSchema(Schema schema) {
        if (singleVariantColumn() != null) {
            singleVariantSchema(schema);
        }
        if (kind == Kind.TEXT) { // CSV: a VARIANT column, but nothing nested (below); debezium-json: JSON text parse_json reads
            for (Field f : schema.fields()) {
                if (f.type().holdsVariant()) {
                    throw IngestErrors.variantNotRead(f.name(), f.type().ddl(), name());
                }
            }
        }
        if (kind == Kind.JSON && !"true".equalsIgnoreCase(options.getOrDefault("typedmapkeys", "false").strip())) {
            for (Field f : schema.fields()) {
                if (f.type().hasTypedMapKeys()) {
                    throw IngestErrors.jsonTypedMapKey(f.name(), f.type().ddl());
                }
            }
        }
        if (kind == Kind.TEXT && (schema.size() != 1 || schema.field(0).type().kind() != DataType.Kind.STRING)) {
            throw IngestErrors.textSchemaNotValue(schema.toDdl());
        }
        if (kind == Kind.XML && singleVariantColumn() == null) {
            XmlFormat.checkSchema(schema);
        }
        if (kind == Kind.CSV) {
            for (Field f : schema.fields()) {
                if (f.type().isNested()) {
                    throw IngestErrors.csvCannotHold(f.name(), f.type().ddl());
                }
            }
        }
    }

    @Override
    public String toString() {
        return name() + (options.isEmpty() ? "" : " " + options);
    }
}
