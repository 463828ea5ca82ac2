package io.tributary.sink.internal;

import io.delta.kernel.data.ColumnVector;
import io.tributary.schema.DataType;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;

/**
 * A quick test of a table row's key, read straight from its column vector, against a batch's keys, for the
 * common key of one BYTE, SHORT, INT, LONG or STRING column: a hash set of primitive {@code long} values (or of
 * strings), so that the rows of a file whose key the batch does not hold cost neither a row nor a {@link Key}.
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
                return new Integral(column, nullKey, kind, set);
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

    /** An open-addressing hash set of {@code long} values (linear probing; 0 kept aside as the empty slot). */
    static final class LongSet {
        private final long[] slots;
        private final int shift;
        private boolean zero;

        LongSet(int expected) {
            int bits = Math.max(4, 64 - Long.numberOfLeadingZeros(Math.max(1, expected) * 2L));
            this.slots = new long[1 << bits];
            this.shift = 64 - bits;
        }

        private int slot(long v) {
            return (int) ((v * 0x9E3779B97F4A7C15L) >>> shift);
        }

        void add(long v) {
            if (v == 0) {
                zero = true;
                return;
            }
            int mask = slots.length - 1;
            for (int i = slot(v); ; i = (i + 1) & mask) {
                if (slots[i] == 0) {
                    slots[i] = v;
                    return;
                }
                if (slots[i] == v) {
                    return;
                }
            }
        }

        boolean contains(long v) {
            if (v == 0) {
                return zero;
            }
            int mask = slots.length - 1;
            for (int i = slot(v); ; i = (i + 1) & mask) {
                long s = slots[i];
                if (s == v) {
                    return true;
                }
                if (s == 0) {
                    return false;
                }
            }
        }
    }
}
