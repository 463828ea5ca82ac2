package io.tributary.sink.internal;

import java.util.Arrays;

/**
 * The key column values of one row, compared as values: a STRUCT column's {@code Object[]} as a
 * whole (every field), BINARY by content; null equals null (as Spark's {@code <=>}).
 */
final class Key {
    private final Object[] values;
    private final int hash;

    Key(Object[] values) {
        this.values = values;
        this.hash = Arrays.deepHashCode(values);
    }

    Object[] values() {
        return values;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Key k && hash == k.hash && Arrays.deepEquals(values, k.values);
    }

    @Override
    public int hashCode() {
        return hash;
    }

    @Override
    public String toString() {
        return Arrays.deepToString(values);
    }
}
