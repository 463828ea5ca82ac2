package io.tributary.sink.internal;

import io.tributary.schema.DataType;
import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;

/**
 * Rows of a flat schema written to a local spill file and read back equal ({@link SpilledChanges}): a bitmap of
 * the null columns, then each non-null value in its natural width (strings and binaries with their length,
 * decimals as their scale and unscaled bytes).
 */
final class SpillRows {
    private final DataType.Kind[] kinds;
    private final int nullBytes;

    private SpillRows(Schema schema) {
        this.kinds = new DataType.Kind[schema.size()];
        for (int i = 0; i < kinds.length; i++) {
            kinds[i] = schema.field(i).type().kind();
        }
        this.nullBytes = (kinds.length + 7) / 8;
    }

    /** The codec of {@code schema}'s rows, or null when a column is nested (STRUCT, ARRAY, MAP): those batches stay in memory. */
    static SpillRows of(Schema schema) {
        for (Field f : schema.fields()) {
            if (f.type().isNested()) {
                return null;
            }
        }
        return new SpillRows(schema);
    }

    void write(DataOutputStream out, Object[] row) throws IOException {
        byte[] nulls = new byte[nullBytes];
        for (int i = 0; i < kinds.length; i++) {
            if (row[i] == null) {
                nulls[i >> 3] |= (byte) (1 << (i & 7));
            }
        }
        out.write(nulls);
        for (int i = 0; i < kinds.length; i++) {
            Object v = row[i];
            if (v == null) {
                continue;
            }
            switch (kinds[i]) {
                case BYTE -> out.writeByte((Byte) v);
                case SHORT -> out.writeShort((Short) v);
                case INT, DATE -> out.writeInt((Integer) v);
                case LONG, TIMESTAMP, TIMESTAMP_NTZ -> out.writeLong((Long) v);
                case FLOAT -> out.writeInt(Float.floatToRawIntBits((Float) v));
                case DOUBLE -> out.writeLong(Double.doubleToRawLongBits((Double) v));
                case BOOLEAN -> out.writeBoolean((Boolean) v);
                case STRING -> bytes(out, ((String) v).getBytes(StandardCharsets.UTF_8));
                case BINARY -> bytes(out, (byte[]) v);
                case DECIMAL -> {
                    BigDecimal d = (BigDecimal) v;
                    out.writeInt(d.scale());
                    bytes(out, d.unscaledValue().toByteArray());
                }
                default -> throw new IllegalStateException(kinds[i].name());
            }
        }
    }

    Object[] read(DataInputStream in) throws IOException {
        byte[] nulls = new byte[nullBytes];
        in.readFully(nulls);
        Object[] row = new Object[kinds.length];
        for (int i = 0; i < kinds.length; i++) {
            if ((nulls[i >> 3] & (1 << (i & 7))) != 0) {
                continue;
            }
            row[i] = switch (kinds[i]) {
                case BYTE -> in.readByte();
                case SHORT -> in.readShort();
                case INT, DATE -> in.readInt();
                case LONG, TIMESTAMP, TIMESTAMP_NTZ -> in.readLong();
                case FLOAT -> Float.intBitsToFloat(in.readInt());
                case DOUBLE -> Double.longBitsToDouble(in.readLong());
                case BOOLEAN -> in.readBoolean();
                case STRING -> new String(bytes(in), StandardCharsets.UTF_8);
                case BINARY -> bytes(in);
                case DECIMAL -> {
                    int scale = in.readInt();
                    yield new BigDecimal(new BigInteger(bytes(in)), scale);
                }
                default -> throw new IllegalStateException(kinds[i].name());
            };
        }
        return row;
    }

    /** Reads past one row. */
    void skip(DataInputStream in) throws IOException {
        byte[] nulls = new byte[nullBytes];
        in.readFully(nulls);
        for (int i = 0; i < kinds.length; i++) {
            if ((nulls[i >> 3] & (1 << (i & 7))) != 0) {
                continue;
            }
            int n = switch (kinds[i]) {
                case BYTE, BOOLEAN -> 1;
                case SHORT -> 2;
                case INT, DATE, FLOAT -> 4;
                case LONG, TIMESTAMP, TIMESTAMP_NTZ, DOUBLE -> 8;
                case STRING, BINARY -> in.readInt();
                case DECIMAL -> {
                    in.readInt();
                    yield in.readInt();
                }
                default -> throw new IllegalStateException(kinds[i].name());
            };
            in.skipNBytes(n);
        }
    }

    private static void bytes(DataOutputStream out, byte[] b) throws IOException {
        out.writeInt(b.length);
        out.write(b);
    }

    private static byte[] bytes(DataInputStream in) throws IOException {
        byte[] b = new byte[in.readInt()];
        in.readFully(b);
        return b;
    }
}
