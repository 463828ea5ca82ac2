package io.tributary.kafka.internal.format;

import io.tributary.schema.DataType;
import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.avro.LogicalType;
import org.apache.avro.LogicalTypes;

/**
 * An Avro schema's columns as Spark's {@code from_avro} types them (spark-avro's
 * {@code SchemaConverters.toSqlType}): boolean, int, long, float, double, string, bytes as
 * themselves; enum STRING; fixed BINARY; a union with null its other branch, nullable; a union of
 * int and long BIGINT, of float and double DOUBLE, of other types a struct {@code member0,
 * member1, ...}; logical types date DATE, timestamp-millis and -micros TIMESTAMP,
 * local-timestamp-millis and -micros TIMESTAMP_NTZ, decimal DECIMAL; record STRUCT, array ARRAY,
 * map MAP. Every column is nullable: Delta writes a stream's columns so ({@code asNullable}).
 */
public final class AvroColumns {
    private AvroColumns() {
    }

    /** The columns of values of {@code schema}: a record's fields, or one column {@code value} of another type. */
    public static Schema of(org.apache.avro.Schema schema) {
        if (schema.getType() != org.apache.avro.Schema.Type.RECORD) {
            return new Schema(List.of(new Field("value", type(schema, new HashSet<>(), "value"), true)));
        }
        return type(schema, new HashSet<>(), "").struct();
    }

    static DataType type(org.apache.avro.Schema s, Set<String> records, String path) {
        LogicalType logical = s.getLogicalType();
        return switch (s.getType()) {
            case BOOLEAN -> DataType.BOOLEAN;
            case INT -> logical instanceof LogicalTypes.Date ? DataType.DATE : DataType.INT;
            case LONG -> {
                if (logical instanceof LogicalTypes.TimestampMillis || logical instanceof LogicalTypes.TimestampMicros) {
                    yield DataType.TIMESTAMP;
                }
                if (logical instanceof LogicalTypes.LocalTimestampMillis || logical instanceof LogicalTypes.LocalTimestampMicros) {
                    yield DataType.TIMESTAMP_NTZ;
                }
                yield DataType.LONG;
            }
            case FLOAT -> DataType.FLOAT;
            case DOUBLE -> DataType.DOUBLE;
            case STRING, ENUM -> DataType.STRING;
            case BYTES, FIXED -> {
                if (logical instanceof LogicalTypes.Decimal d) {
                    if (d.getPrecision() > 38) {
                        throw FormatErrors.unsupportedAvro(path, "decimal(" + d.getPrecision() + "," + d.getScale()
                                + "), wider than Spark's DECIMAL(38)");
                    }
                    yield DataType.decimal(d.getPrecision(), d.getScale());
                }
                yield DataType.BINARY;
            }
            case RECORD -> record(s, records, path);
            case ARRAY -> DataType.array(type(s.getElementType(), records, path + "[]"));
            case MAP -> DataType.map(type(s.getValueType(), records, path + "{}"));
            case UNION -> union(s, records, path);
            case NULL -> throw FormatErrors.unsupportedAvro(path, "type null (Spark's NullType, which a Delta table cannot hold)");
        };
    }

    private static DataType record(org.apache.avro.Schema s, Set<String> records, String path) {
        if (!records.add(s.getFullName())) {
            throw FormatErrors.unsupportedAvro(path, "record " + s.getFullName() + " refers to itself (Spark refuses recursive"
                    + " records unless recursiveFieldMaxDepth)");
        }
        List<Field> fields = new ArrayList<>();
        for (org.apache.avro.Schema.Field f : s.getFields()) {
            fields.add(new Field(f.name(), type(f.schema(), records, path.isEmpty() ? f.name() : path + "." + f.name()), true));
        }
        records.remove(s.getFullName());
        if (fields.isEmpty()) {
            throw FormatErrors.unsupportedAvro(path, "record " + s.getFullName() + " without fields");
        }
        return DataType.struct(new Schema(fields));
    }

    private static DataType union(org.apache.avro.Schema s, Set<String> records, String path) {
        List<org.apache.avro.Schema> branches = nonNullBranches(s);
        if (branches.isEmpty()) {
            throw FormatErrors.unsupportedAvro(path, "a union of null alone");
        }
        if (branches.size() == 1) {
            return type(branches.get(0), records, path);
        }
        Set<org.apache.avro.Schema.Type> kinds = EnumSet.noneOf(org.apache.avro.Schema.Type.class);
        branches.forEach(b -> kinds.add(b.getType()));
        if (branches.size() == 2 && kinds.equals(EnumSet.of(org.apache.avro.Schema.Type.INT, org.apache.avro.Schema.Type.LONG))) {
            return DataType.LONG;
        }
        if (branches.size() == 2 && kinds.equals(EnumSet.of(org.apache.avro.Schema.Type.FLOAT, org.apache.avro.Schema.Type.DOUBLE))) {
            return DataType.DOUBLE;
        }
        List<Field> members = new ArrayList<>();
        for (int i = 0; i < branches.size(); i++) {
            members.add(new Field("member" + i, type(branches.get(i), records, path + ".member" + i), true));
        }
        return DataType.struct(new Schema(members));
    }

    /** A union's branches other than null, in order. */
    static List<org.apache.avro.Schema> nonNullBranches(org.apache.avro.Schema union) {
        return union.getTypes().stream().filter(b -> b.getType() != org.apache.avro.Schema.Type.NULL).toList();
    }
}
