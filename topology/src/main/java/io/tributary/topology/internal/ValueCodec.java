package io.tributary.topology.internal;

import io.tributary.schema.DataType;
import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * The compact binary form of one typed value (see {@link DataType} for the Java types): a
 * presence byte, then the value. Floating-point values are normalised as Spark normalises
 * grouping keys (-0.0 as 0.0, one NaN), so equal keys give equal bytes; {@link #writeExact} keeps
 * their bits, for a value an aggregate returns as it came (Spark's {@code min(-0.0)} is -0.0).
 */
final class ValueCodec {
    private ValueCodec() {
    }

    static void write(ByteSink out, DataType type, Object v) {
        writeAs(out, type, v, true);
    }

    /** As {@link #write}, a FLOAT or DOUBLE as its exact bits; {@link #read} reads either. */
    static void writeExact(ByteSink out, DataType type, Object v) {
        writeAs(out, type, v, false);
    }

    private static void writeAs(ByteSink out, DataType type, Object v, boolean normalised) {
        if (v == null) {
            out.writeByte(0);
            return;
        }
        out.writeByte(1);
        switch (type.kind()) {
            case BYTE, SHORT, INT, DATE -> out.writeInt(((Number) v).intValue());
            case LONG, TIMESTAMP, TIMESTAMP_NTZ -> out.writeLong((Long) v);
            case FLOAT -> out.writeInt(normalised ? Float.floatToIntBits(normalise((Float) v)) : Float.floatToRawIntBits((Float) v));
            case DOUBLE -> out.writeLong(normalised ? Double.doubleToLongBits(normalise((Double) v)) : Double.doubleToRawLongBits((Double) v));
            case DECIMAL -> {
                BigDecimal d = (BigDecimal) v;
                out.writeInt(d.scale());
                out.writeBytes(d.unscaledValue().toByteArray());
            }
            case STRING -> out.writeString((String) v);
            case BOOLEAN -> out.writeByte((Boolean) v ? 1 : 0);
            case BINARY -> out.writeBytes((byte[]) v);
            default -> throw new IllegalArgumentException("cannot encode " + type.ddl());
        }
    }

    static Object read(ByteSource in, DataType type) {
        if (in.readByte() == 0) {
            return null;
        }
        return switch (type.kind()) {
            case BYTE -> (byte) in.readInt();
            case SHORT -> (short) in.readInt();
            case INT, DATE -> in.readInt();
            case LONG, TIMESTAMP, TIMESTAMP_NTZ -> in.readLong();
            case FLOAT -> Float.intBitsToFloat(in.readInt());
            case DOUBLE -> Double.longBitsToDouble(in.readLong());
            case DECIMAL -> {
                int scale = in.readInt();
                yield new BigDecimal(new BigInteger(in.readBytes()), scale);
            }
            case STRING -> in.readString();
            case BOOLEAN -> in.readByte() != 0;
            case BINARY -> in.readBytes();
            default -> throw new IllegalArgumentException("cannot decode " + type.ddl());
        };
    }

    /** A FLOAT or DOUBLE as Spark normalises a grouping key (-0.0 as 0.0, one NaN); any other value as it is. */
    static Object normalised(Object v) {
        if (v instanceof Double d) {
            return normalise(d);
        }
        if (v instanceof Float f) {
            return normalise(f);
        }
        return v;
    }

    private static float normalise(float f) {
        return Float.isNaN(f) ? Float.NaN : f == 0.0f ? 0.0f : f;
    }

    private static double normalise(double d) {
        return Double.isNaN(d) ? Double.NaN : d == 0.0 ? 0.0 : d;
    }
}
