package io.tributary.delta;

import io.delta.kernel.types.ArrayType;
import io.delta.kernel.types.BinaryType;
import io.delta.kernel.types.BooleanType;
import io.delta.kernel.types.ByteType;
import io.delta.kernel.types.DateType;
import io.delta.kernel.types.DecimalType;
import io.delta.kernel.types.DoubleType;
import io.delta.kernel.types.FloatType;
import io.delta.kernel.types.IntegerType;
import io.delta.kernel.types.LongType;
import io.delta.kernel.types.MapType;
import io.delta.kernel.types.ShortType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.delta.kernel.types.TimestampNTZType;
import io.delta.kernel.types.TimestampType;
import io.delta.kernel.types.VariantType;
import io.tributary.delta.internal.DeltaErrors;
import io.tributary.schema.DataType;
import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import java.util.ArrayList;
import java.util.List;

/**
 * Tributary {@link Schema} to Kernel {@link StructType} and back (TIMESTAMP is Delta's UTC {@code timestamp}, VARIANT Delta's
 * {@code variant}). A VARIANT's Parquet form, a group of {@code value} and {@code metadata} BINARY fields, is
 * {@link #physicalVariants}' struct when Kernel's reader reads it.
 */
public final class KernelSchemas {
    private KernelSchemas() {
    }

    public static StructType toKernel(Schema schema) {
        StructType st = new StructType();
        for (Field f : schema.fields()) {
            st = st.add(f.name(), toKernel(f.type()), f.nullable());
        }
        return st;
    }

    public static io.delta.kernel.types.DataType toKernel(DataType t) {
        return switch (t.kind()) {
            case BYTE -> ByteType.BYTE;
            case SHORT -> ShortType.SHORT;
            case INT -> IntegerType.INTEGER;
            case LONG -> LongType.LONG;
            case FLOAT -> FloatType.FLOAT;
            case DOUBLE -> DoubleType.DOUBLE;
            case DECIMAL -> new DecimalType(t.precision(), t.scale());
            case STRING -> StringType.STRING;
            case BOOLEAN -> BooleanType.BOOLEAN;
            case DATE -> DateType.DATE;
            case TIMESTAMP -> TimestampType.TIMESTAMP;
            case TIMESTAMP_NTZ -> TimestampNTZType.TIMESTAMP_NTZ;
            case BINARY -> t.isVariant() ? VariantType.VARIANT : BinaryType.BINARY;
            case STRUCT -> toKernel(t.struct());
            case ARRAY -> new ArrayType(toKernel(t.element()), true);
            case MAP -> new MapType(toKernel(t.keyType()), toKernel(t.valueType()), true);
        };
    }

    /** The schema of the Delta table at {@code tablePath} (named in the error on a type Tributary cannot read). */
    public static Schema fromKernel(String tablePath, StructType st) {
        List<Field> fields = new ArrayList<>();
        for (StructField f : st.fields()) {
            fields.add(new Field(f.getName(), fromKernel(tablePath, f.getName(), f.getDataType()), f.isNullable()));
        }
        return new Schema(fields);
    }

    private static DataType fromKernel(String tablePath, String column, io.delta.kernel.types.DataType t) {
        if (t instanceof ByteType) {
            return DataType.BYTE;
        } else if (t instanceof ShortType) {
            return DataType.SHORT;
        } else if (t instanceof IntegerType) {
            return DataType.INT;
        } else if (t instanceof LongType) {
            return DataType.LONG;
        } else if (t instanceof FloatType) {
            return DataType.FLOAT;
        } else if (t instanceof DoubleType) {
            return DataType.DOUBLE;
        } else if (t instanceof DecimalType d) {
            return DataType.decimal(d.getPrecision(), d.getScale());
        } else if (t instanceof StringType) {
            return DataType.STRING;
        } else if (t instanceof BooleanType) {
            return DataType.BOOLEAN;
        } else if (t instanceof DateType) {
            return DataType.DATE;
        } else if (t instanceof TimestampType) {
            return DataType.TIMESTAMP;
        } else if (t instanceof TimestampNTZType) {
            return DataType.TIMESTAMP_NTZ;
        } else if (t instanceof BinaryType) {
            return DataType.BINARY;
        } else if (t instanceof VariantType) {
            return DataType.VARIANT;
        } else if (t instanceof StructType s) {
            return DataType.struct(fromKernel(tablePath, s));
        } else if (t instanceof ArrayType a) {
            return DataType.array(fromKernel(tablePath, column + "[]", a.getElementType()));
        } else if (t instanceof MapType m && !(m.getKeyType() instanceof StructType || m.getKeyType() instanceof ArrayType
                || m.getKeyType() instanceof MapType)) {
            return DataType.map(fromKernel(tablePath, column + " key", m.getKeyType()), fromKernel(tablePath, column + " value", m.getValueType()));
        }
        throw DeltaErrors.unreadableColumnType(tablePath, column, t);
    }

    /** The Parquet form of a VARIANT column, as Delta's {@code variantType} feature and Spark write it. */
    public static final StructType VARIANT_GROUP = new StructType()
            .add("value", BinaryType.BINARY, false).add("metadata", BinaryType.BINARY, false);

    /**
     * {@code schema} with each VARIANT (at any depth) as {@link #VARIANT_GROUP}: what Kernel's Parquet reader, which reads no
     * VARIANT, reads a VARIANT column as ({@link KernelRows} makes the struct a {@code VariantValue}). The same schema when it
     * has none.
     */
    public static StructType physicalVariants(StructType schema) {
        StructType out = new StructType();
        for (StructField f : schema.fields()) {
            io.delta.kernel.types.DataType physical = physicalVariants(f.getDataType());
            out = out.add(physical == f.getDataType() ? f : f.withDataType(physical));
        }
        return out;
    }

    private static io.delta.kernel.types.DataType physicalVariants(io.delta.kernel.types.DataType t) {
        if (t instanceof VariantType) {
            return VARIANT_GROUP;
        } else if (t instanceof StructType s) {
            StructType p = physicalVariants(s);
            return p.equals(s) ? t : p;
        } else if (t instanceof ArrayType a) {
            io.delta.kernel.types.DataType e = physicalVariants(a.getElementType());
            return e == a.getElementType() ? t : new ArrayType(e, a.containsNull());
        } else if (t instanceof MapType m) {
            io.delta.kernel.types.DataType k = physicalVariants(m.getKeyType());
            io.delta.kernel.types.DataType v = physicalVariants(m.getValueType());
            return k == m.getKeyType() && v == m.getValueType() ? t : new MapType(k, v, m.isValueContainsNull());
        }
        return t;
    }

    /** Whether {@code schema} has a VARIANT column, at any depth. */
    public static boolean hasVariant(StructType schema) {
        return !physicalVariants(schema).equals(schema);
    }
}
