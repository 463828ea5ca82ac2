package io.tributary.delta;

import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.types.DataType;
import io.delta.kernel.types.StructType;
import java.math.BigDecimal;
import java.util.List;

/**
 * One column of a list of {@code Object[]} rows, seen as a Kernel {@link ColumnVector} without
 * copying: value {@code i} is {@code rows.get(i)[ordinal]} (for a struct field, the parent's
 * {@code Object[]} value, or null where the parent is null).
 */
final class RowColumnVector implements ColumnVector {
    private final DataType type;
    private final List<Object[]> rows;
    private final int[] path; // ordinals from the top-level row down to this column

    RowColumnVector(DataType type, List<Object[]> rows, int[] path) {
        this.type = type;
        this.rows = rows;
        this.path = path;
    }

    private Object value(int rowId) {
        Object v = rows.get(rowId);
        for (int ordinal : path) {
            if (v == null) {
                return null;
            }
            v = ((Object[]) v)[ordinal];
        }
        return v;
    }

    @Override
    public DataType getDataType() {
        return type;
    }

    @Override
    public int getSize() {
        return rows.size();
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
        StructType st = (StructType) type;
        int[] childPath = java.util.Arrays.copyOf(path, path.length + 1);
        childPath[path.length] = ordinal;
        return new RowColumnVector(st.at(ordinal).getDataType(), rows, childPath);
    }
}
