package io.tributary.sink.internal;

import io.delta.kernel.data.ColumnVector;
import io.tributary.schema.DataType;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;

/**
 * A quick test of a table row's key, read straight from its column vector, against a batch's keys, for the
 * common key of one BYTE, SHORT, INT, LONG or STRING column: a sorted array of primitive {@code long} values walked
 * with the file's keys (or a hash set of strings), so that the rows of a file whose key the batch does not hold cost neither a row nor a {@link Key}.
 * It may answer yes for a key the batch does not hold (never the reverse): the rows it lets through are
 * matched by {@link Key} as before.
 */
abstract class KeyProbe {
    private final String column;
    private final boolean nullKey;

    private KeyProbe(String column, boolean nullKey) {
        this.column = column;
        this.nullKey = nullKey;
    }

    /** The probe of {@code batchKeys} for {@code keys}, or null when the key is not one column of those types. */
    static KeyProbe of(KeyColumns keys, Collection<Key> batchKeys) {
        if (keys.keySchema().size() != 1) {
            return null;
        }
        String column = keys.keySchema().field(0).name();
        DataType.Kind kind = keys.keySchema().field(0).type().kind();
        boolean nullKey = false;
        switch (kind) {
            case BYTE, SHORT, INT, LONG -> {
                LongSet set = new LongSet(batchKeys.size());
                for (Key key : batchKeys) {
                    Object v = key.first();
                    if (v == null) {
                        nullKey = true;
                    } else if (v instanceof Number n && !(v instanceof Float || v instanceof Double)) {
                        set.add(n.longValue());
                    } else {
                        return null;
                    }
                }
                return new Integral(column, nullKey, kind, set.sorted());
            }
            case STRING -> {
                Set<String> set = new HashSet<>(batchKeys.size() * 2);
                for (Key key : batchKeys) {
                    Object v = key.first();
                    if (v == null) {
                        nullKey = true;
                    } else if (v instanceof String s) {
                        set.add(s);
                    } else {
                        return null;
                    }
                }
                return new Strings(column, nullKey, set);
            }
            default -> {
                return null;
            }
        }
    }

    /** The key column's name. */
    final String column() {
        return column;
    }

    /** True when row {@code row} of the key column {@code column} may hold one of the batch's keys. */
    final boolean mayHold(ColumnVector column, int row) {
        return column.isNullAt(row) ? nullKey : holds(column, row);
    }

    abstract boolean holds(ColumnVector column, int row);

    private static final class Integral extends KeyProbe {
        private final DataType.Kind kind;
        private final LongSet set;

        Integral(String column, boolean nullKey, DataType.Kind kind, LongSet set) {
            super(column, nullKey);
            this.kind = kind;
            this.set = set;
        }

        @Override
        boolean holds(ColumnVector column, int row) {
            long v = switch (kind) {
                case BYTE -> column.getByte(row);
                case SHORT -> column.getShort(row);
                case INT -> column.getInt(row);
                default -> column.getLong(row);
            };
            return set.contains(v);
        }
    }

    private static final class Strings extends KeyProbe {
        private final Set<String> set;

        Strings(String column, boolean nullKey, Set<String> set) {
            super(column, nullKey);
            this.set = set;
        }

        @Override
        boolean holds(ColumnVector column, int row) {
            return set.contains(column.getString(row));
        }
    }

    /**
     * A set of {@code long} values as a sorted array with a cursor: the values of a file written in key order
     * are found by walking forward (no random access into a large table); a value below the last one seeks anew.
     */
    static final class LongSet {
        private long[] values;
        private int size;
        private int cursor;

        LongSet(int expected) {
            this.values = new long[Math.max(1, expected)];
        }

        void add(long v) {
            if (size == values.length) {
                values = java.util.Arrays.copyOf(values, size * 2);
            }
            values[size++] = v;
        }

        /** Sorts the values added; call once, before {@link #contains}. */
        LongSet sorted() {
            java.util.Arrays.sort(values, 0, size);
            return this;
        }

        boolean contains(long v) {
            int c = cursor;
            if (c > 0 && values[c - 1] >= v) { // behind the cursor: seek
                c = 0;
            }
            for (int step = 0; c < size && values[c] < v; c++) {
                if (++step == 8) { // far ahead: seek
                    int at = java.util.Arrays.binarySearch(values, c, size, v);
                    c = at >= 0 ? at : -at - 1;
                    break;
                }
            }
            cursor = c;
            return c < size && values[c] == v;
        }
    }
}
