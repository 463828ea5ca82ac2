package io.tributary.sink.internal;

import io.delta.kernel.data.ColumnVector;
import io.tributary.schema.DataType;
import io.tributary.schema.Schema;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;

/**
 * A quick test of a table row's key, read straight from its key columns' vectors, against a batch's keys, so that the
 * rows of a file whose key the batch does not hold cost neither a row nor a {@link Key}. Each key column's value
 * becomes a {@code long} code ({@link Code}): the value itself for an integral column (BYTE, SHORT, INT, LONG, DATE's
 * days, TIMESTAMP's and TIMESTAMP_NTZ's microseconds) and BOOLEAN, a 64-bit hash for STRING, BINARY, DECIMAL, FLOAT and
 * DOUBLE; a key of several columns mixes its columns' codes into one. The batch's codes are a sorted array walked with
 * the file's (a file written in key order walks it forward); hashed codes have a small bit filter in front.
 * It may answer yes for a key the batch does not hold (two keys of one code), never the reverse: the rows it lets
 * through are matched by {@link Key} as before. Keys with a STRUCT, ARRAY or MAP column get no probe.
 */
final class KeyProbe {
    /** The code of a null value, in any column. */
    static final long NULL_CODE = 0x6a09e667f3bcc909L;
    private static final long PRIME = 0x100000001b3L;
    private final List<String> columns;
    private final Code[] codes;
    private final LongSet set;

    private KeyProbe(List<String> columns, Code[] codes, LongSet set) {
        this.columns = columns;
        this.codes = codes;
        this.set = set;
    }

    /** The probe of {@code batchKeys} for {@code keys}, or null when a key column has no code (or a key a value not of its type). */
    static KeyProbe of(KeyColumns keys, Collection<Key> batchKeys) {
        Schema schema = keys.keySchema();
        Code[] codes = new Code[schema.size()];
        List<String> columns = new ArrayList<>();
        boolean hashed = codes.length > 1;
        for (int c = 0; c < codes.length; c++) {
            codes[c] = Code.of(schema.field(c).type().kind());
            if (codes[c] == null) {
                return null;
            }
            hashed |= codes[c].hashed;
            columns.add(schema.field(c).name());
        }
        LongSet set = new LongSet(batchKeys.size(), hashed);
        long[] values = new long[codes.length];
        for (Key key : batchKeys) {
            Object[] k = key.values();
            for (int c = 0; c < codes.length; c++) {
                if (k[c] == null) {
                    values[c] = NULL_CODE;
                } else if (codes[c].accepts(k[c])) {
                    values[c] = codes[c].code(k[c]);
                } else {
                    return null;
                }
            }
            set.add(combine(values));
        }
        return new KeyProbe(List.copyOf(columns), codes, set.sorted());
    }

    /** The key columns' names, in key order. */
    List<String> columns() {
        return columns;
    }

    /** How key column {@code c} (in key order) becomes a code. */
    Code code(int c) {
        return codes[c];
    }

    /** True when row {@code row} of the key columns' vectors {@code key} (in key order) may hold one of the batch's keys. */
    boolean mayHold(ColumnVector[] key, int row) {
        if (codes.length == 1) {
            return set.contains(code(codes[0], key[0], row));
        }
        long h = 0;
        for (int c = 0; c < codes.length; c++) {
            h = h * 0x9e3779b97f4a7c15L + code(codes[c], key[c], row);
        }
        return set.contains(mix(h));
    }

    /**
     * True when a row whose key columns have the codes {@code keyCodes} (in key order; {@link #NULL_CODE} for a null)
     * may hold one of the batch's keys: for codes read straight from a Parquet file ({@link DirectKeyRead}).
     */
    boolean mayHold(long[] keyCodes) {
        return set.contains(combine(keyCodes));
    }

    private static long code(Code code, ColumnVector column, int row) {
        return column.isNullAt(row) ? NULL_CODE : code.code(column, row);
    }

    private static long combine(long[] values) {
        if (values.length == 1) {
            return values[0];
        }
        long h = 0;
        for (long v : values) {
            h = h * 0x9e3779b97f4a7c15L + v;
        }
        return mix(h);
    }

    /** MurmurHash3's 64-bit finalizer: every bit of {@code h} moves every bit of the result. */
    static long mix(long h) {
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        return h ^ (h >>> 33);
    }

    /**
     * How one key column's value becomes a {@code long}, read from a vector or from the value in memory, so that
     * two values {@link Key} finds equal have one code; {@code hashed}: codes in no order of the values.
     */
    enum Code {
        BYTE(false), SHORT(false), INT(false), LONG(false), BOOLEAN(false), FLOAT(true), DOUBLE(true), DECIMAL(true),
        STRING(true), BINARY(true);

        final boolean hashed;

        Code(boolean hashed) {
            this.hashed = hashed;
        }

        static Code of(DataType.Kind kind) {
            return switch (kind) {
                case BYTE -> BYTE;
                case SHORT -> SHORT;
                case INT, DATE -> INT;
                case LONG, TIMESTAMP, TIMESTAMP_NTZ -> LONG;
                case BOOLEAN -> BOOLEAN;
                case FLOAT -> FLOAT;
                case DOUBLE -> DOUBLE;
                case DECIMAL -> DECIMAL;
                case STRING -> STRING;
                case BINARY -> BINARY;
                default -> null;
            };
        }

        /** True when {@code value} (not null) is of the Java type this column's values have in memory. */
        boolean accepts(Object value) {
            return switch (this) {
                case BYTE, SHORT, INT, LONG -> value instanceof Byte || value instanceof Short || value instanceof Integer
                        || value instanceof Long;
                case BOOLEAN -> value instanceof Boolean;
                case FLOAT -> value instanceof Float;
                case DOUBLE -> value instanceof Double;
                case DECIMAL -> value instanceof BigDecimal;
                case STRING -> value instanceof String;
                case BINARY -> value instanceof byte[];
            };
        }

        /** The code of a value in memory that {@link #accepts} it. */
        long code(Object value) {
            return switch (this) {
                case BYTE, SHORT, INT, LONG -> ((Number) value).longValue();
                case BOOLEAN -> (Boolean) value ? 1 : 0;
                case FLOAT -> mix(Float.floatToIntBits((Float) value));
                case DOUBLE -> mix(Double.doubleToLongBits((Double) value));
                case DECIMAL -> mix(value.hashCode());
                case STRING -> hashUtf8((String) value);
                case BINARY -> hash((byte[]) value);
            };
        }

        /** The code of row {@code row} of {@code column} (not null there). */
        long code(ColumnVector column, int row) {
            return switch (this) {
                case BYTE -> column.getByte(row);
                case SHORT -> column.getShort(row);
                case INT -> column.getInt(row);
                case LONG -> column.getLong(row);
                case BOOLEAN -> column.getBoolean(row) ? 1 : 0;
                case FLOAT -> mix(Float.floatToIntBits(column.getFloat(row)));
                case DOUBLE -> mix(Double.doubleToLongBits(column.getDouble(row)));
                case DECIMAL -> mix(column.getDecimal(row).hashCode());
                case STRING -> hashUtf8(column.getString(row));
                case BINARY -> hash(column.getBinary(row));
            };
        }

        /**
         * The hash of {@code s}'s UTF-8 bytes, encoded on the way (an unpaired surrogate as {@code '?'}, as Java's
         * encoder and so the Parquet writer do): equal to {@link #hash(byte[])} of {@code s.getBytes(UTF_8)}, so a
         * STRING key read as raw bytes from a file has the code of the batch's String.
         */
        static long hashUtf8(String s) {
            long h = 0;
            long length = 0;
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                if (c < 0x80) {
                    h = h * PRIME + (byte) c;
                    length++;
                } else if (c < 0x800) {
                    h = (h * PRIME + (byte) (0xc0 | c >> 6)) * PRIME + (byte) (0x80 | c & 0x3f);
                    length += 2;
                } else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                    int p = Character.toCodePoint(c, s.charAt(++i));
                    h = (((h * PRIME + (byte) (0xf0 | p >> 18)) * PRIME + (byte) (0x80 | p >> 12 & 0x3f)) * PRIME
                            + (byte) (0x80 | p >> 6 & 0x3f)) * PRIME + (byte) (0x80 | p & 0x3f);
                    length += 4;
                } else if (Character.isSurrogate(c)) {
                    h = h * PRIME + '?';
                    length++;
                } else {
                    h = ((h * PRIME + (byte) (0xe0 | c >> 12)) * PRIME + (byte) (0x80 | c >> 6 & 0x3f)) * PRIME + (byte) (0x80 | c & 0x3f);
                    length += 3;
                }
            }
            return mix(h ^ length);
        }

        static long hash(byte[] b) {
            long h = 0;
            for (byte x : b) {
                h = h * PRIME + x;
            }
            return mix(h ^ b.length);
        }

        /** {@link #hash(byte[])} of the bytes from {@code buffer}'s position to its limit, read in place. */
        static long hash(java.nio.ByteBuffer buffer) {
            long h = 0;
            int end = buffer.limit();
            for (int i = buffer.position(); i < end; i++) {
                h = h * PRIME + buffer.get(i);
            }
            return mix(h ^ (end - buffer.position()));
        }
    }

    /**
     * A set of {@code long} values as a sorted array with a cursor: the values of a file written in key order
     * are found by walking forward (no random access into a large table); a value below the last one seeks anew.
     * With {@code hashed} values (in no order of the file's rows), a bit filter of about 16 bits a value, indexed by the
     * value's top bits, turns most values it does not hold away before the search.
     */
    static final class LongSet {
        private final boolean hashed;
        private long[] values;
        private int size;
        private int cursor;
        private long[] filter;
        private int shift;

        LongSet(int expected, boolean hashed) {
            this.values = new long[Math.max(1, expected)];
            this.hashed = hashed;
        }

        void add(long v) {
            if (size == values.length) {
                values = Arrays.copyOf(values, size * 2);
            }
            values[size++] = v;
        }

        /** Sorts the values added; call once, before {@link #contains}. */
        LongSet sorted() {
            Arrays.sort(values, 0, size);
            if (hashed) {
                int bits = Math.max(6, 64 - Long.numberOfLeadingZeros(Math.max(1, size) * 16L - 1));
                filter = new long[1 << (bits - 6)];
                shift = 64 - bits;
                for (int i = 0; i < size; i++) {
                    int at = (int) (values[i] >>> shift);
                    filter[at >>> 6] |= 1L << at;
                }
            }
            return this;
        }

        boolean contains(long v) {
            if (filter != null) {
                int at = (int) (v >>> shift);
                if ((filter[at >>> 6] & (1L << at)) == 0) {
                    return false;
                }
            }
            int c = cursor;
            if (c > 0 && values[c - 1] >= v) { // behind the cursor: seek
                c = 0;
            }
            for (int step = 0; c < size && values[c] < v; c++) {
                if (++step == 8) { // far ahead: seek
                    int at = Arrays.binarySearch(values, c, size, v);
                    c = at >= 0 ? at : -at - 1;
                    break;
                }
            }
            cursor = c;
            return c < size && values[c] == v;
        }
    }
}
