package io.tributary.source.internal;

import io.delta.kernel.types.BinaryType;
import io.delta.kernel.types.BooleanType;
import io.delta.kernel.types.ByteType;
import io.delta.kernel.types.DateType;
import io.delta.kernel.types.DecimalType;
import io.delta.kernel.types.DoubleType;
import io.delta.kernel.types.FloatType;
import io.delta.kernel.types.IntegerType;
import io.delta.kernel.types.LongType;
import io.delta.kernel.types.ShortType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.delta.kernel.types.TimestampNTZType;
import io.delta.kernel.types.TimestampType;
import io.tributary.schema.DataType;
import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import java.util.ArrayList;
import java.util.List;

/** A Delta table's Kernel {@link StructType} as Tributary's {@link Schema} (Delta's {@code timestamp} is TIMESTAMP, UTC). */
public final class KernelSchemas {
    private KernelSchemas() {
    }

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
        } else if (t instanceof StructType s) {
            return DataType.struct(fromKernel(tablePath, s));
        }
        throw new TributaryException("delta-source: table " + tablePath + " has column '" + column + "' of Delta type " + t
                + ", which Tributary cannot read yet (only primitive types and structs); read the table with Spark, or drop the column");
    }
}
