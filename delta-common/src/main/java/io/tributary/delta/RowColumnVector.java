package io.tributary.delta;

import io.delta.kernel.data.ArrayValue;
import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.data.MapValue;
import io.delta.kernel.types.ArrayType;
import io.delta.kernel.types.DataType;
import io.delta.kernel.types.MapType;
import io.delta.kernel.types.StructType;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One column of a list of {@code Object[]} rows, seen as a Kernel {@link ColumnVector} without
 * copying: value {@code i} is {@code rows.get(i)[ordinal]} (for a struct field, the parent's
 * {@code Object[]} value, or null where the parent is null). An ARRAY value ({@code List}) and a
 * MAP value ({@code Map}) are seen the same way, their elements, keys and values as vectors.
 */
abstract class RowColumnVector implements ColumnVector {
    private final DataType type;

    RowColumnVector(DataType type) {
        this.type = type;
    }

    /** The column {@code ordinal} of {@code rows}. */
    static RowColumnVector of(DataType type, List<Object[]> rows, int ordinal) {
        return new Column(type, rows, ordinal);
    }

    /** The value at {@code rowId}, null included. */
    abstract Object value(int rowId);

    @Override
    public DataType getDataType() {
        return type;
    }

    @Override
    public void close() {
    }

    @Override
    public boolean isNullAt(int rowId) {
        return value(rowId) == null;
    }

    @Override
    public boolean getBoolean(int rowId) {
        return (Boolean) value(rowId);
    }

    @Override
    public byte getByte(int rowId) {
        return ((Number) value(rowId)).byteValue();
    }

    @Override
    public short getShort(int rowId) {
        return ((Number) value(rowId)).shortValue();
    }

    @Override
    public int getInt(int rowId) {
        return ((Number) value(rowId)).intValue();
    }

    @Override
    public long getLong(int rowId) {
        return ((Number) value(rowId)).longValue();
    }

    @Override
    public float getFloat(int rowId) {
        return ((Number) value(rowId)).floatValue();
    }

    @Override
    public double getDouble(int rowId) {
        return ((Number) value(rowId)).doubleValue();
    }

    @Override
    public byte[] getBinary(int rowId) {
        return (byte[]) value(rowId);
    }

    @Override
    public String getString(int rowId) {
        return (String) value(rowId);
    }

    @Override
    public BigDecimal getDecimal(int rowId) {
        return (BigDecimal) value(rowId);
    }

    @Override
    public ColumnVector getChild(int ordinal) {
        return new Field(((StructType) type).at(ordinal).getDataType(), this, ordinal);
    }

    @Override
    public ArrayValue getArray(int rowId) {
        List<?> list = (List<?>) value(rowId);
        ColumnVector elements = new Values(((ArrayType) type).getElementType(), list);
        return new ArrayValue() {
            @Override
            public int getSize() {
                return list.size();
            }

            @Override
            public ColumnVector getElements() {
                return elements;
            }
        };
    }

    @Override
    public MapValue getMap(int rowId) {
        Map<?, ?> map = (Map<?, ?>) value(rowId);
        MapType mt = (MapType) type;
        ColumnVector keys = new Values(mt.getKeyType(), new ArrayList<>(map.keySet()));
        ColumnVector values = new Values(mt.getValueType(), new ArrayList<>(map.values()));
        return new MapValue() {
            @Override
            public int getSize() {
                return map.size();
            }

            @Override
            public ColumnVector getKeys() {
                return keys;
            }

            @Override
            public ColumnVector getValues() {
                return values;
            }
        };
    }

    /** A top-level column of rows. */
    private static final class Column extends RowColumnVector {
        private final List<Object[]> rows;
        private final int ordinal;

        Column(DataType type, List<Object[]> rows, int ordinal) {
            super(type);
            this.rows = rows;
            this.ordinal = ordinal;
        }

        @Override
        Object value(int rowId) {
            Object[] row = rows.get(rowId);
            return ordinal < row.length ? row[ordinal] : null; // a row read before the table gained this column
        }

        @Override
        public int getSize() {
            return rows.size();
        }
    }

    /** A field of a struct column: null where the struct is. */
    private static final class Field extends RowColumnVector {
        private final RowColumnVector parent;
        private final int ordinal;

        Field(DataType type, RowColumnVector parent, int ordinal) {
            super(type);
            this.parent = parent;
            this.ordinal = ordinal;
        }

        @Override
        Object value(int rowId) {
            Object[] struct = (Object[]) parent.value(rowId);
            return struct == null || ordinal >= struct.length ? null : struct[ordinal];
        }

        @Override
        public int getSize() {
            return parent.getSize();
        }
    }

    /** The elements of an array, or the keys or values of a map. */
    private static final class Values extends RowColumnVector {
        private final List<?> values;

        Values(DataType type, List<?> values) {
            super(type);
            this.values = values;
        }

        @Override
        Object value(int rowId) {
            return values.get(rowId);
        }

        @Override
        public int getSize() {
            return values.size();
        }
    }
}
