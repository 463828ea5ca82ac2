package io.tributary.schema;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;

/**
 * A compact binary form of rows of a flat schema, for the events topic of a pipeline whose only reader is
 * the Delta sink ({@link Topics#ROWS_HEADER}): what {@link RowJson} writes and parses again, without the
 * text. A record value is its rows one after another, each a bitmap of its null columns, then each
 * non-null value: integers, dates and timestamps as zig-zag varints, FLOAT and DOUBLE as their IEEE bits,
 * BOOLEAN as a byte, STRING and BINARY as a varint length and their bytes (UTF-8), DECIMAL as its scale and
 * its unscaled value, a STRUCT as a row of its fields (its own null bitmap, then its values). A row read back is equal to the row written, as {@code RowJson}'s canonical JSON reads
 * back to an equal row; a reader whose schema differs renders it as that JSON ({@link #json}) and parses it.
 */
public final class RowBinary {
    private final Schema schema;
    private final DataType.Kind[] kinds;
    /** The binary form of each STRUCT column's fields, else null. */
    private final RowBinary[] structs;
    private final int nullBytes;
    /** The JSON of this schema's rows, made on first use ({@link #json}). */
    private RowJson json;

    private RowBinary(Schema schema) {
        this.schema = schema;
        this.kinds = new DataType.Kind[schema.size()];
        this.structs = new RowBinary[schema.size()];
        for (int i = 0; i < kinds.length; i++) {
            DataType type = schema.field(i).type();
            kinds[i] = type.kind();
            if (kinds[i] == DataType.Kind.STRUCT) {
                structs[i] = new RowBinary(type.struct());
            }
        }
        this.nullBytes = (kinds.length + 7) / 8;
    }

    /**
     * The binary form of {@code schema}'s rows, or null when a column is (or a STRUCT holds) an ARRAY, a MAP or a
     * VARIANT: those stay JSON. Readers take STRUCTs; a writer that keeps to flat rows checks {@link #flat} first.
     */
    public static RowBinary of(Schema schema) {
        return binaryFields(schema) ? new RowBinary(schema) : null;
    }

    /** True when no column is nested (STRUCT, ARRAY, MAP) or a VARIANT. */
    public static boolean flat(Schema schema) {
        return schema.fields().stream().noneMatch(f -> f.type().isNested() || f.type().isVariant());
    }

    private static boolean binaryFields(Schema schema) {
        for (Field f : schema.fields()) {
            DataType t = f.type();
            if (t.kind() == DataType.Kind.STRUCT ? !binaryFields(t.struct()) : t.isNested() || t.isVariant()) {
                return false;
            }
        }
        return true;
    }

    public Schema schema() {
        return schema;
    }

    /**
     * True when rows read here are the rows {@code reader}'s JSON parse would give: the same columns in the
     * same order with the same types (NOT NULL aside, which {@link Cursor#next} leaves to the caller).
     */
    public boolean sameColumns(Schema reader) {
        if (reader.size() != schema.size()) {
            return false;
        }
        for (int i = 0; i < kinds.length; i++) {
            Field a = schema.field(i);
            Field b = reader.field(i);
            if (!a.name().equals(b.name()) || !a.type().equals(b.type())) {
                return false;
            }
        }
        return true;
    }

    /** Appends {@code row}'s binary form to {@code out}. */
    void write(FlatRowWriter.Out out, Object[] row) {
        out.ensure(nullBytes);
        int bits = out.size;
        for (int k = 0; k < nullBytes; k++) {
            out.buf[out.size++] = 0;
        }
        for (int i = 0; i < kinds.length; i++) {
            Object v = row[i];
            if (v == null) {
                out.buf[bits + (i >> 3)] |= (byte) (1 << (i & 7));
                continue;
            }
            switch (kinds[i]) {
                case BYTE, SHORT, INT, DATE -> varint(out, zigzag(((Number) v).intValue()));
                case LONG, TIMESTAMP, TIMESTAMP_NTZ -> varint(out, zigzag((Long) v));
                case FLOAT -> fixed(out, Float.floatToIntBits((Float) v), 4);
                case DOUBLE -> fixed(out, Double.doubleToLongBits((Double) v), 8);
                case BOOLEAN -> {
                    out.ensure(1);
                    out.buf[out.size++] = (byte) ((Boolean) v ? 1 : 0);
                }
                case STRING -> string(out, (String) v);
                case BINARY -> bytes(out, (byte[]) v);
                case DECIMAL -> {
                    BigDecimal d = (BigDecimal) v;
                    varint(out, zigzag(d.scale()));
                    bytes(out, d.unscaledValue().toByteArray());
                }
                case STRUCT -> structs[i].write(out, (Object[]) v);
                default -> throw new IllegalStateException(kinds[i].name());
            }
        }
    }

    /** The canonical JSON of a row of this schema, as {@link RowJson#write} writes it. */
    public byte[] json(Object[] row) {
        if (json == null) {
            json = new RowJson(schema);
        }
        return json.write(row);
    }

    /** Reads the rows of one record value in order. */
    public Cursor cursor(byte[] value) {
        return new Cursor(value);
    }

    /** The rows of one record value. */
    public final class Cursor {
        private final byte[] b;
        private int at;

        private Cursor(byte[] b) {
            this.b = b;
        }

        public boolean hasNext() {
            return at < b.length;
        }

        /** The next row; throws {@link IllegalArgumentException} when the value ends inside a row. */
        public Object[] next() {
            try {
                return row(RowBinary.this);
            } catch (IndexOutOfBoundsException e) {
                throw new IllegalArgumentException("a binary row of " + schema.toDdl() + " ends early at byte " + at, e);
            }
        }

        private Object[] row(RowBinary shape) {
            DataType.Kind[] kinds = shape.kinds;
            int bits = at;
            at += shape.nullBytes;
            Object[] row = new Object[kinds.length];
            for (int i = 0; i < kinds.length; i++) {
                if ((b[bits + (i >> 3)] & (1 << (i & 7))) != 0) {
                    continue;
                }
                row[i] = switch (kinds[i]) {
                    case BYTE -> (byte) unzigzag(varint());
                    case SHORT -> (short) unzigzag(varint());
                    case INT, DATE -> (int) unzigzag(varint());
                    case LONG, TIMESTAMP, TIMESTAMP_NTZ -> unzigzag(varint());
                    case FLOAT -> {
                        float f = Float.intBitsToFloat((int) fixed(4));
                        yield Float.isNaN(f) ? Float.NaN : f;
                    }
                    case DOUBLE -> {
                        double d = Double.longBitsToDouble(fixed(8));
                        yield Double.isNaN(d) ? Double.NaN : d;
                    }
                    case BOOLEAN -> b[at++] != 0;
                    case STRING -> {
                        int n = (int) varint();
                        String s = new String(b, at, n, StandardCharsets.UTF_8);
                        at += n;
                        yield s;
                    }
                    case BINARY -> bytes();
                    case DECIMAL -> {
                        int scale = (int) unzigzag(varint());
                        yield new BigDecimal(new BigInteger(bytes()), scale);
                    }
                    case STRUCT -> row(shape.structs[i]);
                    default -> throw new IllegalStateException(kinds[i].name());
                };
            }
            return row;
        }

        private byte[] bytes() {
            int n = (int) varint();
            if (n < 0 || at + n > b.length) {
                throw new ArrayIndexOutOfBoundsException(at + n);
            }
            byte[] v = java.util.Arrays.copyOfRange(b, at, at + n);
            at += n;
            return v;
        }

        private long varint() {
            long v = 0;
            for (int shift = 0; ; shift += 7) {
                byte x = b[at++];
                v |= (long) (x & 0x7F) << shift;
                if (x >= 0) {
                    return v;
                }
            }
        }

        private long fixed(int n) {
            long v = 0;
            for (int k = 0; k < n; k++) {
                v |= (b[at++] & 0xFFL) << (8 * k);
            }
            return v;
        }
    }

    private static long zigzag(long v) {
        return (v << 1) ^ (v >> 63);
    }

    private static long unzigzag(long v) {
        return (v >>> 1) ^ -(v & 1);
    }

    private static void varint(FlatRowWriter.Out out, long v) {
        out.ensure(10);
        while ((v & ~0x7FL) != 0) {
            out.buf[out.size++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        out.buf[out.size++] = (byte) v;
    }

    private static void fixed(FlatRowWriter.Out out, long v, int n) {
        out.ensure(n);
        for (int k = 0; k < n; k++) {
            out.buf[out.size++] = (byte) (v >>> (8 * k));
        }
    }

    private static void bytes(FlatRowWriter.Out out, byte[] v) {
        varint(out, v.length);
        out.put(v);
    }

    /** A string's UTF-8 bytes after their length: written in place when every char is below U+0800 and no surrogate. */
    private static void string(FlatRowWriter.Out out, String s) {
        int n = s.length();
        boolean small = true;
        int length = n;
        for (int k = 0; k < n && small; k++) {
            char c = s.charAt(k);
            if (c >= 0x80) {
                if (c >= 0x800) {
                    small = false;
                }
                length++;
            }
        }
        if (!small) {
            bytes(out, s.getBytes(StandardCharsets.UTF_8));
            return;
        }
        varint(out, length);
        out.ensure(length);
        for (int k = 0; k < n; k++) {
            char c = s.charAt(k);
            if (c < 0x80) {
                out.buf[out.size++] = (byte) c;
            } else {
                out.buf[out.size++] = (byte) (0xC0 | (c >> 6));
                out.buf[out.size++] = (byte) (0x80 | (c & 0x3F));
            }
        }
    }
}
