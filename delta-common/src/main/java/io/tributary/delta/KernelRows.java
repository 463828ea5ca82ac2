package io.tributary.delta;

import io.delta.kernel.data.ArrayValue;
import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.data.FilteredColumnarBatch;
import io.delta.kernel.data.MapValue;
import io.tributary.schema.DataType;
import io.tributary.schema.Schema;
import io.tributary.schema.VariantValue;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Kernel column vectors read back into Tributary's {@code Object[]} rows. A VARIANT column is read as its Parquet group
 * ({@link KernelSchemas#physicalVariants}): the struct's {@code value} and {@code metadata} become a {@link VariantValue}.
 */
public final class KernelRows {
    private KernelRows() {
    }

    public static void addRows(Schema schema, FilteredColumnarBatch filtered, List<Object[]> out) {
        ColumnarBatch batch = filtered.getData();
        Optional<ColumnVector> selection = filtered.getSelectionVector();
        int n = batch.getSize();
        ColumnVector[] columns = new ColumnVector[schema.size()];
        for (int c = 0; c < columns.length; c++) {
            columns[c] = batch.getColumnVector(c);
        }
        for (int i = 0; i < n; i++) {
            if (selection.isPresent() && (selection.get().isNullAt(i) || !selection.get().getBoolean(i))) {
                continue;
            }
            Object[] row = new Object[columns.length];
            for (int c = 0; c < columns.length; c++) {
                row[c] = value(schema.field(c).type(), columns[c], i);
            }
            out.add(row);
        }
    }

    public static Object value(DataType type, ColumnVector v, int i) {
        if (v.isNullAt(i)) {
            return null;
        }
        return switch (type.kind()) {
            case BYTE -> v.getByte(i);
            case SHORT -> v.getShort(i);
            case INT, DATE -> v.getInt(i);
            case LONG, TIMESTAMP, TIMESTAMP_NTZ -> v.getLong(i);
            case FLOAT -> v.getFloat(i);
            case DOUBLE -> v.getDouble(i);
            case DECIMAL -> v.getDecimal(i);
            case STRING -> v.getString(i);
            case BOOLEAN -> v.getBoolean(i);
            case BINARY -> type.isVariant() ? new VariantValue(v.getChild(0).getBinary(i), v.getChild(1).getBinary(i)) : v.getBinary(i);
            case STRUCT -> {
                Schema s = type.struct();
                Object[] struct = new Object[s.size()];
                for (int c = 0; c < struct.length; c++) {
                    struct[c] = value(s.field(c).type(), v.getChild(c), i);
                }
                yield struct;
            }
            case ARRAY -> {
                ArrayValue a = v.getArray(i);
                ColumnVector elements = a.getElements();
                List<Object> list = new ArrayList<>(a.getSize());
                for (int e = 0; e < a.getSize(); e++) {
                    list.add(value(type.element(), elements, e));
                }
                yield list;
            }
            case MAP -> {
                MapValue m = v.getMap(i);
                ColumnVector keys = m.getKeys();
                ColumnVector values = m.getValues();
                Map<Object, Object> map = new LinkedHashMap<>();
                for (int e = 0; e < m.getSize(); e++) {
                    map.put(value(type.keyType(), keys, e), value(type.valueType(), values, e));
                }
                yield map;
            }
        };
    }
}
