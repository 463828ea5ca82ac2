package io.tributary.schema;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.Base64;

/**
 * {@link RowJson#write}'s fast path: the canonical JSON of a row of scalars (and of STRUCTs of them) written into a byte array
 * directly, byte for byte what the Jackson generator writes (field names taken from Jackson once;
 * numbers from {@code Integer/Long/Double.toString}, as Jackson's {@code writeNumber} does;
 * strings copied as UTF-8). A string Jackson would escape (a quote, a backslash, a control
 * character) or that holds a surrogate returns null, and {@link RowJson} writes that row with
 * Jackson.
 */
final class FlatRowWriter {
    private static final byte[] NULL = {'n', 'u', 'l', 'l'};
    private static final byte[] TRUE = {'t', 'r', 'u', 'e'};
    private static final byte[] FALSE = {'f', 'a', 'l', 's', 'e'};
    private static final byte[] OPEN = {'{'};
    private static final byte[] CLOSE = {'}'};

    /** {@code {"name":} for the first column, {@code ,"name":} for the others, as Jackson writes them. */
    private final byte[][] prefixes;
    /** The writer of each column's non-null values. */
    private final ValueWriter[] writers;
    /** The size of the last row written (a racy hint for the next buffer, harmless when stale). */
    private int lastSize = 64;

    private FlatRowWriter(byte[][] prefixes, ValueWriter[] writers) {
        this.prefixes = prefixes;
        this.writers = writers;
    }

    /**
     * Appends one non-null value; false when Jackson must write the row. One per column, picked
     * once: the JIT compiles the writers of the types in use, each on its own (one method that
     * switched on the type grew to 18 KB of machine code, and was compiled again when a STRUCT
     * first came after flat rows).
     */
    private interface ValueWriter {
        boolean write(Out out, Object v);
    }

    /** The writer for {@code schema}, or null when a column's type is one the fast path never writes. */
    static FlatRowWriter of(Schema schema, JsonFactory json) {
        byte[][] prefixes = new byte[schema.size()][];
        ValueWriter[] writers = new ValueWriter[schema.size()];
        for (int i = 0; i < schema.size(); i++) {
            writers[i] = writer(schema.field(i).type(), json);
            if (writers[i] == null) {
                return null;
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] p; // {"name"  (the ':' comes with the value)
            try (JsonGenerator g = json.createGenerator(out)) {
                g.writeStartObject();
                g.writeFieldName(schema.field(i).name());
                g.flush();
                p = out.toByteArray();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            prefixes[i] = Arrays.copyOf(p, p.length + 1);
            prefixes[i][p.length] = ':';
            if (i > 0) {
                prefixes[i][0] = ',';
            }
        }
        return new FlatRowWriter(prefixes, writers);
    }

    /** The writer of {@code type}'s values, or null for a type the fast path never writes. */
    private static ValueWriter writer(DataType type, JsonFactory json) {
        return switch (type.kind()) {
            case BYTE, SHORT, INT -> (out, v) -> {
                out.integer(((Number) v).intValue());
                return true;
            };
            case LONG -> (out, v) -> {
                out.integer((Long) v);
                return true;
            };
            case FLOAT -> (out, v) -> {
                floating(out, ((Float) v).doubleValue());
                return true;
            };
            case DOUBLE -> (out, v) -> {
                floating(out, (Double) v);
                return true;
            };
            case BOOLEAN -> (out, v) -> {
                out.put((Boolean) v ? TRUE : FALSE);
                return true;
            };
            case STRING -> (out, v) -> out.string((String) v);
            case DATE -> (out, v) -> {
                out.date((Integer) v);
                return true;
            };
            case TIMESTAMP -> (out, v) -> {
                out.timestamp((Long) v, true);
                return true;
            };
            case TIMESTAMP_NTZ -> (out, v) -> {
                out.timestamp((Long) v, false);
                return true;
            };
            case BINARY -> type.isVariant() ? null : (out, v) -> out.string(Base64.getEncoder().encodeToString((byte[]) v));
            case STRUCT -> {
                FlatRowWriter struct = of(type.struct(), json);
                yield struct == null ? null : (out, v) -> struct.write(out, (Object[]) v);
            }
            case DECIMAL, ARRAY, MAP -> null;
        };
    }

    /** The canonical JSON of {@code row}, or null when Jackson must write it. */
    byte[] write(Object[] row) {
        Out out = new Out(lastSize + 16);
        if (!write(out, row)) {
            return null;
        }
        lastSize = out.size;
        return Arrays.copyOf(out.buf, out.size);
    }

    /** Appends the JSON object of {@code row}; false (and a buffer to drop) when Jackson must write it. */
    boolean write(Out out, Object[] row) {
        for (int i = 0; i < row.length; i++) {
            out.put(prefixes[i]);
            Object v = row[i];
            if (v == null) {
                out.put(NULL);
            } else if (!writers[i].write(out, v)) {
                return false;
            }
        }
        if (row.length == 0) {
            out.put(OPEN);
        }
        out.put(CLOSE);
        return true;
    }

    private static void floating(Out out, double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            out.string(Double.isNaN(d) ? "NaN" : d > 0 ? "Infinity" : "-Infinity");
        } else if (!shortDecimal(out, d)) {
            out.doubleText(d);
        }
    }

    private static final double[] POWERS_OF_TEN = {1, 10, 100, 1e3, 1e4, 1e5, 1e6};

    /**
     * {@code Double.toString(d)} for the common case, zero or a value from 0.001 to 10^7 (plain
     * notation) that has at most 6 decimals: the fewest decimals {@code k} such that {@code m / 10^k} is
     * {@code d} for an integer {@code m} (one correctly rounded division, hence exact), written as
     * digits. False (nothing written) for any other value. Checked against Double.toString for
     * every value with one, two or three decimals below 10^7, 10^6 and 10^5 and for random ones.
     */
    static boolean shortDecimal(Out out, double d) {
        if (d == 0) {
            out.ascii(1 / d > 0 ? "0.0" : "-0.0");
            return true;
        }
        double a = Math.abs(d);
        if (!(a >= 1e-3 && a < 1e7)) {
            return false;
        }
        for (int k = 1; k < POWERS_OF_TEN.length; k++) {
            long m = Math.round(a * POWERS_OF_TEN[k]);
            if ((double) m / POWERS_OF_TEN[k] != a) {
                continue;
            }
            while (k > 1 && m % 10 == 0) {
                m /= 10;
                k--;
            }
            if (d < 0) {
                out.ensure(1);
                out.buf[out.size++] = '-';
            }
            out.decimal(m, k);
            return true;
        }
        return false;
    }

    /** A growable byte buffer. */
    static final class Out {
        byte[] buf;
        int size;
        /** Where {@link #doubleText} has a double written, made on first use. */
        private StringBuilder text;

        Out(int capacity) {
            buf = new byte[capacity];
        }

        void ensure(int more) {
            if (size + more > buf.length) {
                buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + more));
            }
        }

        void put(byte[] b) {
            ensure(b.length);
            System.arraycopy(b, 0, buf, size, b.length);
            size += b.length;
        }

        /** Text known to be ASCII (numbers). */
        void ascii(String s) {
            ascii(s, 0, s.length());
        }

        void ascii(String s, int from, int to) {
            ensure(to - from);
            for (int k = from; k < to; k++) {
                buf[size++] = (byte) s.charAt(k);
            }
        }

        /** {@code Double.toString(d)}, through a reused builder rather than a String each. */
        void doubleText(double d) {
            if (text == null) {
                text = new StringBuilder(32);
            }
            text.setLength(0);
            text.append(d);
            int n = text.length();
            ensure(n);
            for (int k = 0; k < n; k++) {
                buf[size++] = (byte) text.charAt(k);
            }
        }

        /** {@code Long.toString(v)}'s digits, written without the string. */
        void integer(long v) {
            if (v == Long.MIN_VALUE) {
                ascii(Long.toString(v));
                return;
            }
            ensure(20);
            if (v < 0) {
                buf[size++] = '-';
                v = -v;
            }
            int n = 1;
            for (long t = v / 10; t != 0; t /= 10) {
                n++;
            }
            for (int at = size + n - 1; at >= size; at--) {
                buf[at] = (byte) ('0' + v % 10);
                v /= 10;
            }
            size += n;
        }

        /** {@code m >= 0} divided by {@code 10^k} ({@code k >= 1}) in plain notation: at least one digit before the point, {@code k} after it. */
        void decimal(long m, int k) {
            int n = 1;
            for (long t = m / 10; t != 0; t /= 10) {
                n++;
            }
            int length = Math.max(n, k + 1) + 1;
            ensure(length);
            int at = size + length - 1;
            for (int i = 0; i < k; i++) {
                buf[at--] = (byte) ('0' + m % 10);
                m /= 10;
            }
            buf[at--] = '.';
            do {
                buf[at--] = (byte) ('0' + m % 10);
                m /= 10;
            } while (m != 0);
            size += length;
        }

        /** A DATE, quoted, as {@link Timestamps#formatDays} writes it. */
        void date(int days) {
            ensure(Timestamps.MAX_WRITTEN + 2);
            buf[size] = '"';
            int end = Timestamps.writeDate(days, buf, size + 1);
            if (end < 0) {
                string(Timestamps.formatDays(days)); // a year before 0 or after 9999: always ASCII
                return;
            }
            buf[end] = '"';
            size = end + 1;
        }

        /** A TIMESTAMP (with {@code zone}) or TIMESTAMP_NTZ value, quoted, as {@link Timestamps#formatMicros} writes it. */
        void timestamp(long micros, boolean zone) {
            ensure(Timestamps.MAX_WRITTEN + 2);
            buf[size] = '"';
            int end = Timestamps.write(micros, zone, buf, size + 1);
            if (end < 0) {
                string(zone ? Timestamps.formatMicros(micros) : Timestamps.formatMicrosNtz(micros));
                return;
            }
            buf[end] = '"';
            size = end + 1;
        }

        /** A quoted string, UTF-8; false (and a buffer to drop) when Jackson would escape a character or it holds a surrogate. */
        boolean string(String s) {
            int n = s.length();
            ensure(3 * n + 2);
            buf[size++] = '"';
            for (int k = 0; k < n; k++) {
                char c = s.charAt(k);
                if (c < 0x80) {
                    if (c < 0x20 || c == '"' || c == '\\') {
                        return false;
                    }
                    buf[size++] = (byte) c;
                } else if (c < 0x800) {
                    buf[size++] = (byte) (0xC0 | (c >> 6));
                    buf[size++] = (byte) (0x80 | (c & 0x3F));
                } else if (Character.isSurrogate(c)) {
                    return false;
                } else {
                    buf[size++] = (byte) (0xE0 | (c >> 12));
                    buf[size++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                    buf[size++] = (byte) (0x80 | (c & 0x3F));
                }
            }
            buf[size++] = '"';
            return true;
        }
    }
}
