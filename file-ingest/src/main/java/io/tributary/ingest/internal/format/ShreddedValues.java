package io.tributary.ingest.internal.format;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.UUID;
import org.apache.spark.types.variant.ShreddingUtils.ShreddedRow;

/**
 * A shredded variant's Parquet values as spark-variant's {@code ShreddingUtils.rebuild} reads them: a group's fields by
 * position ({@link Struct}) and a list's elements ({@link Elements}), each value as Parquet gave it (an INT32 an
 * {@code Integer}, an INT64 a {@code Long}, a UTF-8 BINARY a {@code String}, any other BINARY its bytes) and typed on the
 * way out by what the variant's schema asks for.
 */
abstract class ShreddedValues implements ShreddedRow {
    abstract Object get(int ordinal);

    @Override
    public boolean isNullAt(int ordinal) {
        return get(ordinal) == null;
    }

    @Override
    public boolean getBoolean(int ordinal) {
        return (Boolean) get(ordinal);
    }

    @Override
    public byte getByte(int ordinal) {
        return ((Number) get(ordinal)).byteValue();
    }

    @Override
    public short getShort(int ordinal) {
        return ((Number) get(ordinal)).shortValue();
    }

    @Override
    public int getInt(int ordinal) {
        return ((Number) get(ordinal)).intValue();
    }

    @Override
    public long getLong(int ordinal) {
        return ((Number) get(ordinal)).longValue();
    }

    @Override
    public float getFloat(int ordinal) {
        return (Float) get(ordinal);
    }

    @Override
    public double getDouble(int ordinal) {
        return (Double) get(ordinal);
    }

    @Override
    public BigDecimal getDecimal(int ordinal, int precision, int scale) {
        Object v = get(ordinal);
        BigInteger unscaled = v instanceof byte[] b ? new BigInteger(b) : BigInteger.valueOf(((Number) v).longValue());
        return new BigDecimal(unscaled, scale);
    }

    @Override
    public String getString(int ordinal) {
        Object v = get(ordinal);
        return v instanceof byte[] b ? new String(b, java.nio.charset.StandardCharsets.UTF_8) : (String) v;
    }

    @Override
    public byte[] getBinary(int ordinal) {
        Object v = get(ordinal);
        return v instanceof String s ? s.getBytes(java.nio.charset.StandardCharsets.UTF_8) : (byte[]) v;
    }

    @Override
    public UUID getUuid(int ordinal) {
        ByteBuffer b = ByteBuffer.wrap((byte[]) get(ordinal));
        return new UUID(b.getLong(), b.getLong());
    }

    @Override
    public ShreddedRow getStruct(int ordinal, int numFields) {
        return (ShreddedRow) get(ordinal);
    }

    @Override
    public ShreddedRow getArray(int ordinal) {
        return (ShreddedRow) get(ordinal);
    }

    /** A group's values by field position. */
    static final class Struct extends ShreddedValues {
        private final Object[] values;

        Struct(Object[] values) {
            this.values = values;
        }

        @Override
        Object get(int ordinal) {
            return values[ordinal];
        }

        @Override
        public int numElements() {
            return values.length;
        }
    }

    /** A list's elements. */
    static final class Elements extends ShreddedValues {
        private final List<Object> elements;

        Elements(List<Object> elements) {
            this.elements = elements;
        }

        @Override
        Object get(int ordinal) {
            return elements.get(ordinal);
        }

        @Override
        public int numElements() {
            return elements.size();
        }
    }
}
