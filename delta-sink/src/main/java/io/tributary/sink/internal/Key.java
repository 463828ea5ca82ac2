package io.tributary.sink.internal;

import java.util.Arrays;
import java.util.Objects;

/**
 * The key column values of one row, compared as values: a STRUCT column's {@code Object[]} as a
 * whole (every field), BINARY by content; null equals null (as Spark's {@code <=>}). A one-column
 * key holds its value alone (no array): a batch keeps one key per row it holds.
 */
final class Key {
    private final Object single; // the value of a one-column key
    private final Object[] values; // the values of a key of several columns; null for one column
    private final int hash;

    Key(Object[] values) {
        this(values.length == 1 ? values[0] : null, values.length == 1 ? null : values);
    }

    private Key(Object single, Object[] values) {
        this.single = single;
        this.values = values;
        this.hash = values == null ? 31 + valueHash(single) : Arrays.deepHashCode(values);
    }

    /** The key of a one-column key's value. */
    static Key single(Object value) {
        return new Key(value, null);
    }

    private static int valueHash(Object v) {
        if (v instanceof Object[] a) {
            return Arrays.deepHashCode(a);
        }
        if (v instanceof byte[] b) {
            return Arrays.hashCode(b);
        }
        return v == null ? 0 : v.hashCode();
    }

    /** The first column's value: a one-column key's value. */
    Object first() {
        return values == null ? single : values[0];
    }

    Object[] values() {
        return values == null ? new Object[] {single} : values;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Key k && hash == k.hash
                && (values == null ? k.values == null && Objects.deepEquals(single, k.single) : Arrays.deepEquals(values, k.values));
    }

    @Override
    public int hashCode() {
        return hash;
    }

    @Override
    public String toString() {
        return Arrays.deepToString(values());
    }
}
