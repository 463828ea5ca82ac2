package io.tributary.schema;

import java.util.Objects;

/**
 * A column type, as Spark's DDL names it. Only primitive types for now; {@code precision} and
 * {@code scale} matter for {@link Kind#DECIMAL} only.
 *
 * <p>In-memory representation of values (the same as Delta Kernel's column vectors use):
 * BYTE {@code Byte}, SHORT {@code Short}, INT {@code Integer}, LONG {@code Long}, FLOAT
 * {@code Float}, DOUBLE {@code Double}, DECIMAL {@code BigDecimal} (at the type's scale), STRING
 * {@code String}, BOOLEAN {@code Boolean}, DATE {@code Integer} days since 1970-01-01,
 * TIMESTAMP and TIMESTAMP_NTZ {@code Long} microseconds since 1970-01-01T00:00 (UTC for
 * TIMESTAMP), BINARY {@code byte[]}, STRUCT {@code Object[]} in the order of {@link #struct()}
 * (Tributary writes structs, e.g. an aggregate's {@code window struct<start, end>}; input
 * schemas do not take them yet).
 */
public record DataType(Kind kind, int precision, int scale, Schema struct) {
    public enum Kind { BYTE, SHORT, INT, LONG, FLOAT, DOUBLE, DECIMAL, STRING, BOOLEAN, DATE, TIMESTAMP, TIMESTAMP_NTZ, BINARY, STRUCT }

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

    public DataType {
        Objects.requireNonNull(kind, "kind");
    }

    private static DataType of(Kind kind) {
        return new DataType(kind, 0, 0, null);
    }

    public static DataType decimal(int precision, int scale) {
        return new DataType(Kind.DECIMAL, precision, scale, null);
    }

    public static DataType struct(Schema fields) {
        return new DataType(Kind.STRUCT, 0, 0, Objects.requireNonNull(fields, "fields"));
    }

    /** The type as Spark prints it in DDL: {@code INT}, {@code DECIMAL(10,2)}, ... */
    public String ddl() {
        return switch (kind) {
            case BYTE -> "TINYINT";
            case SHORT -> "SMALLINT";
            case LONG -> "BIGINT";
            case DECIMAL -> "DECIMAL(" + precision + "," + scale + ")";
            case STRUCT -> structDdl();
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
