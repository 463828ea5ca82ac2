package io.tributary.delta.kernel;

import io.delta.kernel.data.MapValue;
import io.delta.kernel.data.Row;
import io.delta.kernel.types.StructType;

/** A scan state with another logical schema (its JSON), every other field the original's. */
record LogicalSchemaRow(Row row, int logicalOrdinal, String logicalJson) implements Row {
    @Override
    public StructType getSchema() {
        return row.getSchema();
    }

    @Override
    public boolean isNullAt(int i) {
        return i != logicalOrdinal && row.isNullAt(i);
    }

    @Override
    public boolean getBoolean(int i) {
        return row.getBoolean(i);
    }

    @Override
    public byte getByte(int i) {
        return row.getByte(i);
    }

    @Override
    public short getShort(int i) {
        return row.getShort(i);
    }

    @Override
    public int getInt(int i) {
        return row.getInt(i);
    }

    @Override
    public long getLong(int i) {
        return row.getLong(i);
    }

    @Override
    public float getFloat(int i) {
        return row.getFloat(i);
    }

    @Override
    public double getDouble(int i) {
        return row.getDouble(i);
    }

    @Override
    public String getString(int i) {
        return i == logicalOrdinal ? logicalJson : row.getString(i);
    }

    @Override
    public java.math.BigDecimal getDecimal(int i) {
        return row.getDecimal(i);
    }

    @Override
    public byte[] getBinary(int i) {
        return row.getBinary(i);
    }

    @Override
    public Row getStruct(int i) {
        return row.getStruct(i);
    }

    @Override
    public io.delta.kernel.data.ArrayValue getArray(int i) {
        return row.getArray(i);
    }

    @Override
    public MapValue getMap(int i) {
        return row.getMap(i);
    }
}
