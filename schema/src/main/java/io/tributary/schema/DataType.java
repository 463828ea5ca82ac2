package io.tributary.schema;

import java.util.Objects;

/**
 * A column type, as Spark's DDL names it: the primitive types, STRUCT, ARRAY and MAP. {@code precision}
 * and {@code scale} matter for {@link Kind#DECIMAL} only, {@code struct} for {@link Kind#STRUCT},
 * {@code element} for {@link Kind#ARRAY} (the element type) and {@link Kind#MAP} (the value type), {@code key}
 * for a {@link Kind#MAP} whose keys are not STRING (null for STRING keys).
 * As in Spark's DDL, array elements and map values may be null.
 *
 * <p>In-memory representation of values (the same as Delta Kernel's column vectors use):
 * BYTE {@code Byte}, SHORT {@code Short}, INT {@code Integer}, LONG {@code Long}, FLOAT
 * {@code Float}, DOUBLE {@code Double}, DECIMAL {@code BigDecimal} (at the type's scale), STRING
 * {@code String}, BOOLEAN {@code Boolean}, DATE {@code Integer} days since 1970-01-01,
 * TIMESTAMP and TIMESTAMP_NTZ {@code Long} microseconds since 1970-01-01T00:00 (UTC for
 * TIMESTAMP), BINARY {@code byte[]}, STRUCT {@code Object[]} in the order of {@link #struct()},
 * ARRAY a {@code java.util.List} of element values, MAP a {@code java.util.Map} from its keys' values
 * (in the representation of the key type: String for STRING keys, Integer for INT or DATE keys, ...) to values
 * that keeps the keys' order (a {@code LinkedHashMap}).
 */
public record DataType(Kind kind, int precision, int scale, Schema struct, DataType element, DataType key) {
    public enum Kind { BYTE, SHORT, INT, LONG, FLOAT, DOUBLE, DECIMAL, STRING, BOOLEAN, DATE, TIMESTAMP, TIMESTAMP_NTZ, BINARY, STRUCT,
        ARRAY, MAP }

    public static final DataType BYTE = of(Kind.BYTE);
    public static final DataType SHORT = of(Kind.SHORT);
    public static final DataType INT = of(Kind.INT);
    public static final DataType LONG = of(Kind.LONG);
    public static final DataType FLOAT = of(Kind.FLOAT);
    public static final DataType DOUBLE = of(Kind.DOUBLE);
    public static final DataType STRING = of(Kind.STRING);
    public static final DataType BOOLEAN = of(Kind.BOOLEAN);
    public static final DataType DATE = of(Kind.DATE);
    public static final DataType TIMESTAMP = of(Kind.TIMESTAMP);
    public static final DataType TIMESTAMP_NTZ = of(Kind.TIMESTAMP_NTZ);
    public static final DataType BINARY = of(Kind.BINARY);
    /**
     * Spark's VARIANT: a BINARY of precision -2, which no other column has, so that code that does not know it takes it
     * for bytes; its values are {@link VariantValue}s (Spark's {@code Variant} inside an expression).
     */
    public static final DataType VARIANT = new DataType(Kind.BINARY, -2, 0, null, null);

    public DataType {
        Objects.requireNonNull(kind, "kind");
        if (key != null && key.kind == Kind.STRING && key.precision == 0) {
            key = null; // STRING keys are the default: MAP<STRING, V> is one type however it was made
        }
    }

    /** A type of no MAP keys of its own: every kind but a MAP of keys other than STRING. */
    public DataType(Kind kind, int precision, int scale, Schema struct, DataType element) {
        this(kind, precision, scale, struct, element, null);
    }

    private static DataType of(Kind kind) {
        return new DataType(kind, 0, 0, null, null);
    }

    public static DataType decimal(int precision, int scale) {
        return new DataType(Kind.DECIMAL, precision, scale, null, null);
    }

    public static DataType struct(Schema fields) {
        return new DataType(Kind.STRUCT, 0, 0, Objects.requireNonNull(fields, "fields"), null);
    }

    /** {@code ARRAY<element>}; its elements may be null. */
    public static DataType array(DataType element) {
        return new DataType(Kind.ARRAY, 0, 0, null, Objects.requireNonNull(element, "element"));
    }

    /** {@code MAP<STRING, value>}; its values may be null, its keys never. */
    public static DataType map(DataType value) {
        return new DataType(Kind.MAP, 0, 0, null, Objects.requireNonNull(value, "value"));
    }

    /** {@code MAP<key, value>}; its values may be null, its keys never. */
    public static DataType map(DataType key, DataType value) {
        return new DataType(Kind.MAP, 0, 0, null, Objects.requireNonNull(value, "value"), Objects.requireNonNull(key, "key"));
    }

    /** The type of a MAP's values. */
    public DataType valueType() {
        return element;
    }

    /** The type of a MAP's keys (STRING unless the map was made with others); null for other kinds. */
    public DataType keyType() {
        return kind != Kind.MAP ? null : key == null ? STRING : key;
    }

    /** True when this type is, or holds at any depth, a MAP whose keys are not STRING (which Spark's JSON reader refuses). */
    public boolean hasTypedMapKeys() {
        return switch (kind) {
            case MAP -> keyType().kind() != Kind.STRING || element.hasTypedMapKeys();
            case ARRAY -> element.hasTypedMapKeys();
            case STRUCT -> struct.fields().stream().anyMatch(f -> f.type().hasTypedMapKeys());
            default -> false;
        };
    }

    /** True for {@link #VARIANT}. */
    public boolean isVariant() {
        return kind == Kind.BINARY && precision == -2;
    }

    /** Whether this type is VARIANT or holds one at any depth (an array, map or struct of VARIANT). */
    public boolean holdsVariant() {
        return switch (kind) {
            case BINARY -> isVariant();
            case ARRAY -> element.holdsVariant();
            case MAP -> keyType().holdsVariant() || element.holdsVariant();
            case STRUCT -> struct.fields().stream().anyMatch(f -> f.type().holdsVariant());
            default -> false;
        };
    }

    /** True for STRUCT, ARRAY and MAP. */
    public boolean isNested() {
        return kind == Kind.STRUCT || kind == Kind.ARRAY || kind == Kind.MAP;
    }

    /** The type as Spark prints it in DDL: {@code INT}, {@code DECIMAL(10,2)}, ... */
    public String ddl() {
        return switch (kind) {
            case BYTE -> "TINYINT";
            case SHORT -> "SMALLINT";
            case LONG -> "BIGINT";
            case DECIMAL -> "DECIMAL(" + precision + "," + scale + ")";
            case STRUCT -> structDdl();
            case ARRAY -> "ARRAY<" + element.ddl() + ">";
            case MAP -> "MAP<" + keyType().ddl() + ", " + element.ddl() + ">";
            case BINARY -> isVariant() ? "VARIANT" : "BINARY";
            default -> kind.name();
        };
    }

    private String structDdl() {
        StringBuilder sb = new StringBuilder("STRUCT<");
        for (Field f : struct.fields()) {
            if (sb.length() > "STRUCT<".length()) {
                sb.append(", ");
            }
            sb.append(Schema.quote(f.name())).append(": ").append(f.type().ddl());
            if (!f.nullable()) {
                sb.append(" NOT NULL");
            }
        }
        return sb.append('>').toString();
    }

    @Override
    public String toString() {
        return ddl();
    }
}
