package io.tributary.schema;

import com.fasterxml.jackson.core.io.NumberInput;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * {@link RowJson#parse}'s fast path: reads the common shape of a JSON-lines row, and of every
 * canonical record, straight from its bytes, with no parser object and no String per field
 * name. It takes only what it is sure of: one flat object of ASCII field names and scalar values
 * (strict JSON numbers, {@code true}/{@code false}/{@code null}, double-quoted ASCII strings without
 * escapes), each value of a type its column takes without a question. For anything else (a
 * single quote, an escape, a non-ASCII byte, a nested value, a type mismatch, a number out of
 * range, a NOT NULL column left null, trailing text) it returns {@code null} and {@link RowJson}
 * parses the bytes again with Jackson, which gives the row or the exact error of the slow path.
 * Hence a row it returns is the row Jackson's path returns for the same bytes.
 */
final class FlatRowReader {
    /** The longest string (value or field name) read here. */
    private static final int MAX_STRING_BYTES = 10_000;
    /** Longest integer read here (18 digits always fit in a long); longer ones go the slow way. */
    private static final int MAX_INT_DIGITS = 18;

    private final Schema schema;
    /** The lookup key of each column (its exact name, as {@link Schema#fieldIndex}), in ASCII; null when not ASCII. */
    private final byte[][] keys;
    /** The reader of each STRUCT column's objects; null for the other columns. */
    private final FlatRowReader[] structs;
    /** How TIMESTAMP and DATE texts read. */
    private final TimeTexts times;
    /** A field the schema lacks goes to the slow path (which reports it) instead of being skipped. */
    private final boolean strict;

    private FlatRowReader(Schema schema, byte[][] keys, FlatRowReader[] structs, TimeTexts times, boolean strict) {
        this.schema = schema;
        this.keys = keys;
        this.structs = structs;
        this.times = times;
        this.strict = strict;
    }

    /** This reader, leaving a record with a top-level field the schema lacks to the slow path. */
    FlatRowReader strict() {
        return new FlatRowReader(schema, keys, structs, times, true);
    }

    /** The reader for {@code schema}, or null when a column's type is one the fast path never takes. */
    static FlatRowReader of(Schema schema, TimeTexts times) {
        byte[][] keys = new byte[schema.size()][];
        FlatRowReader[] structs = new FlatRowReader[schema.size()];
        for (int i = 0; i < schema.size(); i++) {
            Field f = schema.field(i);
            switch (f.type().kind()) {
                case DECIMAL -> {
                    return null;
                }
                case BINARY -> {
                    if (f.type().isVariant()) {
                        return null; // an object: Jackson's
                    }
                }
                case STRUCT -> {
                    structs[i] = of(f.type().struct(), times);
                    if (structs[i] == null) {
                        return null;
                    }
                }
                default -> { }
            }
            String key = f.name();
            keys[i] = key.chars().allMatch(c -> c < 0x80) ? key.getBytes(StandardCharsets.US_ASCII) : null;
        }
        return new FlatRowReader(schema, keys, structs, times, false);
    }

    /** The row, or null: "not sure, parse it with Jackson". */
    Object[] parse(byte[] b, int off, int len) {
        int end = off + len;
        Object[] row = new Object[keys.length];
        int i = object(b, skipSpace(b, off, end), end, row);
        return i < 0 || skipSpace(b, i, end) != end ? null : row;
    }

    /** Reads the object at {@code i} into {@code row}; the index after its closing brace, or -1 for the slow path. */
    private int object(byte[] b, int i, int end, Object[] row) {
        if (i >= end || b[i] != '{') {
            return -1;
        }
        i = skipSpace(b, i + 1, end);
        if (i < end && b[i] == '}') {
            i++;
        } else {
            int expected = 0;
            while (true) {
                if (i >= end || b[i] != '"') {
                    return -1;
                }
                int nameStart = i + 1;
                int nameEnd = plainStringEnd(b, nameStart, end);
                if (nameEnd < 0) {
                    return -1;
                }
                int column = column(b, nameStart, nameEnd - nameStart, expected);
                if (column < 0 && strict) {
                    return -1;
                }
                i = skipSpace(b, nameEnd + 1, end);
                if (i >= end || b[i] != ':') {
                    return -1;
                }
                i = skipSpace(b, i + 1, end);
                i = value(b, i, end, row, column);
                if (i < 0) {
                    return -1;
                }
                expected = column + 1;
                i = skipSpace(b, i, end);
                if (i >= end) {
                    return -1;
                }
                if (b[i] == '}') {
                    i++;
                    break;
                }
                if (b[i] != ',') {
                    return -1;
                }
                i = skipSpace(b, i + 1, end);
            }
        }
        for (int c = 0; c < row.length; c++) {
            if (row[c] == null && !schema.field(c).nullable()) {
                return -1;
            }
        }
        return i;
    }

    /** The column whose key is the name (ASCII, compared exactly, case included), -1 for none; tries {@code expected} first. */
    private int column(byte[] b, int start, int length, int expected) {
        if (expected < keys.length && matches(keys[expected], b, start, length)) {
            return expected;
        }
        for (int c = 0; c < keys.length; c++) {
            if (c != expected && matches(keys[c], b, start, length)) {
                return c;
            }
        }
        return -1;
    }

    private static boolean matches(byte[] key, byte[] b, int start, int length) {
        if (key == null || key.length != length) {
            return false;
        }
        for (int k = 0; k < length; k++) {
            if (b[start + k] != key[k]) {
                return false;
            }
        }
        return true;
    }

    /**
     * Reads the value at {@code i} into {@code row[column]} (checks and drops it for column -1);
     * the index after it, or -1 when the slow path must decide.
     */
    private int value(byte[] b, int i, int end, Object[] row, int column) {
        if (i >= end) {
            return -1;
        }
        byte c = b[i];
        DataType.Kind kind = column < 0 ? null : schema.field(column).type().kind();
        if (c == '"') {
            int close = plainStringEnd(b, i + 1, end);
            if (close < 0) {
                return -1;
            }
            if (column >= 0) {
                Object v = fromString(kind, new String(b, i + 1, close - i - 1, StandardCharsets.ISO_8859_1));
                if (v == null) {
                    return -1;
                }
                row[column] = v;
            }
            return close + 1;
        }
        if (c == 'n' || c == 't' || c == 'f') {
            String word = c == 'n' ? "null" : c == 't' ? "true" : "false";
            int after = i + word.length();
            if (after > end || !delimited(b, after, end)) {
                return -1;
            }
            for (int k = 1; k < word.length(); k++) {
                if (b[i + k] != word.charAt(k)) {
                    return -1;
                }
            }
            if (column >= 0) {
                if (c == 'n') {
                    row[column] = null;
                } else if (kind == DataType.Kind.BOOLEAN) {
                    row[column] = c == 't';
                } else {
                    return -1;
                }
            }
            return after;
        }
        if (c == '-' || (c >= '0' && c <= '9')) {
            return number(b, i, end, row, column, kind);
        }
        if (c == '{' && kind == DataType.Kind.STRUCT) {
            FlatRowReader struct = structs[column];
            Object[] fields = new Object[struct.keys.length];
            int after = struct.object(b, i, end, fields);
            if (after >= 0) {
                row[column] = fields;
            }
            return after;
        }
        return -1;
    }

    private Object fromString(DataType.Kind kind, String s) {
        switch (kind) {
            case STRING:
                return s;
            case TIMESTAMP:
            case TIMESTAMP_NTZ:
                return times.micros(s, kind == DataType.Kind.TIMESTAMP);
            case DATE:
                return times.days(s);
            case BINARY:
                try {
                    return Base64.getDecoder().decode(s);
                } catch (IllegalArgumentException e) {
                    return null;
                }
            default:
                return null; // NaN/Infinity strings, and the type errors
        }
    }

    /** Powers of ten that are exact doubles. */
    private static final double[] EXACT_POWERS_OF_TEN = {
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    /** The most significant digits whose integer is exact in a double (below 2^53). */
    private static final int EXACT_DIGITS = 15;

    /** A strict JSON number: {@code -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?}, then a delimiter. */
    private static int number(byte[] b, int i, int end, Object[] row, int column, DataType.Kind kind) {
        int start = i;
        boolean negative = b[i] == '-';
        if (negative) {
            i++;
        }
        int intStart = i;
        long v = 0;
        while (i < end && b[i] >= '0' && b[i] <= '9') {
            v = v * 10 + (b[i] - '0');
            i++;
        }
        int intDigits = i - intStart;
        if (intDigits == 0 || intDigits > MAX_INT_DIGITS || (intDigits > 1 && b[intStart] == '0')) {
            return -1;
        }
        // the decimal's digits as an integer (mantissa) and its power of ten, while they are few enough to be exact
        long mantissa = v;
        int significant = v == 0 ? 0 : intDigits;
        int power = 0;
        boolean integral = true;
        if (i < end && b[i] == '.') {
            integral = false;
            int fracStart = ++i;
            while (i < end && b[i] >= '0' && b[i] <= '9') {
                if (significant <= EXACT_DIGITS) {
                    mantissa = mantissa * 10 + (b[i] - '0');
                    power--;
                    if (mantissa != 0) {
                        significant++;
                    }
                }
                i++;
            }
            if (i == fracStart) {
                return -1;
            }
        }
        if (i < end && (b[i] == 'e' || b[i] == 'E')) {
            integral = false;
            i++;
            boolean negativeExponent = i < end && b[i] == '-';
            if (i < end && (b[i] == '+' || b[i] == '-')) {
                i++;
            }
            int expStart = i;
            int exponent = 0;
            while (i < end && b[i] >= '0' && b[i] <= '9') {
                exponent = Math.min(exponent * 10 + (b[i] - '0'), 10_000);
                i++;
            }
            if (i == expStart) {
                return -1;
            }
            power += negativeExponent ? -exponent : exponent;
        }
        if (!delimited(b, i, end) || i - start > 64) {
            return -1;
        }
        if (column < 0) {
            return i;
        }
        if (negative) {
            v = -v;
        }
        Object value;
        switch (kind) {
            case BYTE -> value = integral && v >= Byte.MIN_VALUE && v <= Byte.MAX_VALUE ? (Object) (byte) v : null;
            case SHORT -> value = integral && v >= Short.MIN_VALUE && v <= Short.MAX_VALUE ? (Object) (short) v : null;
            case INT -> value = integral && v >= Integer.MIN_VALUE && v <= Integer.MAX_VALUE ? (Object) (int) v : null;
            case LONG -> value = integral ? (Object) v : null;
            case FLOAT, DOUBLE -> {
                // Jackson: an integer token converts from its long, a decimal one through Double.parseDouble
                double d = integral ? (double) v : decimal(b, start, i, negative, mantissa, significant, power);
                value = kind == DataType.Kind.FLOAT ? (Object) (float) d : (Object) d;
            }
            default -> value = null; // TIMESTAMP from epoch seconds, STRING from a number: the slow path
        }
        if (value == null) {
            return -1;
        }
        row[column] = value;
        return i;
    }

    /**
     * {@code Double.parseDouble} of the number's text. When its digits make an integer below 10^15
     * and its power of ten is within 22, that integer and the power are exact doubles and one
     * multiplication or division rounds correctly, as parseDouble does (Clinger's fast path). Otherwise
     * (17 digits, as {@code amt * 1.1} makes) the FastDoubleParser Jackson carries, which gives parseDouble's value.
     */
    private static double decimal(byte[] b, int start, int end, boolean negative, long mantissa, int significant, int power) {
        if (significant <= EXACT_DIGITS && power >= -22 && power <= 22) {
            double d = power < 0 ? mantissa / EXACT_POWERS_OF_TEN[-power] : mantissa * EXACT_POWERS_OF_TEN[power];
            return negative ? -d : d;
        }
        return NumberInput.parseDouble(new String(b, start, end - start, StandardCharsets.ISO_8859_1), true);
    }

    /**
     * The index of the closing quote of a string of printable ASCII without escapes starting at
     * {@code i}, or -1; also -1 past {@link #MAX_STRING_BYTES}, so that Jackson's length limits
     * (20 million characters a value, 50,000 a name) stay the slow path's to enforce.
     */
    private static int plainStringEnd(byte[] b, int i, int end) {
        end = (int) Math.min(end, (long) i + MAX_STRING_BYTES + 1);
        for (; i < end; i++) {
            byte c = b[i];
            if (c == '"') {
                return i;
            }
            if (c == '\\' || c < 0x20) { // an escape, a control character, or (negative) a non-ASCII byte
                return -1;
            }
        }
        return -1;
    }

    private static boolean delimited(byte[] b, int i, int end) {
        if (i >= end) {
            return true;
        }
        byte c = b[i];
        return c == ',' || c == '}' || c == ' ' || c == '\t' || c == '\r' || c == '\n';
    }

    private static int skipSpace(byte[] b, int i, int end) {
        while (i < end && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n')) {
            i++;
        }
        return i;
    }
}
