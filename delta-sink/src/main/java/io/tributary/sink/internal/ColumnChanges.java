package io.tributary.sink.internal;

import io.tributary.schema.DataType;
import io.tributary.schema.Schema;
import java.util.AbstractCollection;
import java.util.AbstractList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * A batch collapsed to one change per key ({@link BatchChanges}) for a key of one INT, LONG, DATE
 * or TIMESTAMP column, the usual upsert key. Each key has a slot, found through an
 * open-addressing table of slot numbers (the key's value is kept once, by slot); the slot's row is
 * kept column by column in primitive arrays of 64-bit words (other types in an array of their
 * values, equal strings shared; the key column is the slots' key values), and is made into an
 * {@code Object[]} again only when written, in key order ({@link #upserts()}).
 *
 * <p>Why: the map form keeps about 200 bytes and eight objects per key (a map node, the key, the
 * row's array and its boxed values), live until the batch is written, so a one-batch upsert of a
 * million rows fills the old generation while it is read and pays for it in collections. Here a
 * key costs about 8 bytes per column plus 8 in the table (a batch's seven million keys of four
 * columns about 300 MB, not 500) and no object; the rows the reader parses die young.
 */
final class ColumnChanges implements BatchChanges {
    private static final int NO_SLOT = -1;

    private final int keyIndex;
    private final boolean intKey; // the key's values are Integers (INT, DATE), else Longs
    private final Column[] columns; // the key column's entry is null: its values are keyOf's
    private long[] keyOf = new long[16]; // per slot: its key's value (the null key's slot: unused)
    private final BitSet deleted = new BitSet();
    private int slots;
    private int nullKeySlot = NO_SLOT;
    // the open-addressing table: slot + 1 (0: empty) at the key value's hash, linear probing, at most half full
    private int[] tableSlots;
    private int[] sortedUpserts; // the upserted slots in key order, once built

    /** Whether a batch of {@code keys} can take this form: one key column of an integral type. */
    static boolean fits(KeyColumns keys) {
        Schema k = keys.keySchema();
        return k.size() == 1 && switch (k.field(0).type().kind()) {
            case INT, LONG, DATE, TIMESTAMP, TIMESTAMP_NTZ -> true;
            default -> false;
        };
    }

    private ColumnChanges(KeyColumns keys, int expectedRecords) {
        Schema schema = keys.schema();
        this.keyIndex = schema.indexOf(keys.keySchema().field(0).name());
        DataType.Kind kind = keys.keySchema().field(0).type().kind();
        this.intKey = kind == DataType.Kind.INT || kind == DataType.Kind.DATE;
        this.columns = new Column[schema.size()];
        for (int c = 0; c < columns.length; c++) {
            columns[c] = c == keyIndex ? null : Column.of(schema.field(c).type());
        }
        int capacity = Integer.highestOneBit(Math.max(16, Math.min(expectedRecords, 1 << 24)) - 1) * 4; // under half full
        this.tableSlots = new int[capacity];
    }

    /** Collapses records as they come, in Kafka order, as {@link MapChanges.Collector} does. */
    static final class Collector implements BatchChanges.Collector {
        private final KeyColumns keys;
        private final ColumnChanges changes;
        private final int orderIndex;
        private final Comparator<Object> order;

        Collector(KeyColumns keys, int orderIndex, int expectedRecords) {
            this.keys = keys;
            this.changes = new ColumnChanges(keys, expectedRecords);
            this.orderIndex = orderIndex;
            this.order = orderIndex < 0 ? null : KeyColumns.valueOrder(keys.schema().field(orderIndex).type());
        }

        @Override
        public void add(RecordOrigin origin, Object[] row) {
            ColumnChanges c = changes;
            if (row == null) {
                c.deleted.set(c.slotOf(keys.ofTombstone(origin).first(), true));
                return;
            }
            int before = c.slots;
            int slot = c.slotOf(row[c.keyIndex], true);
            boolean fresh = slot == before || c.deleted.get(slot);
            if (!fresh && order != null && order.compare(row[orderIndex], c.value(slot, orderIndex)) < 0) {
                return;
            }
            c.deleted.clear(slot);
            for (int i = 0; i < row.length; i++) {
                if (i != c.keyIndex) {
                    c.columns[i].set(slot, row[i]);
                }
            }
        }

        @Override
        public ColumnChanges build() {
            changes.sortUpserts();
            return changes;
        }
    }

    /** The slot of key value {@code v} (an Integer or Long, or null); a new one when {@code create}, else {@link #NO_SLOT}. */
    private int slotOf(Object v, boolean create) {
        if (v == null) {
            if (nullKeySlot == NO_SLOT && create) {
                nullKeySlot = newSlot(0);
            }
            return nullKeySlot;
        }
        long k = ((Number) v).longValue();
        int mask = tableSlots.length - 1;
        for (int i = hash(k) & mask; ; i = (i + 1) & mask) {
            int s = tableSlots[i];
            if (s == 0) {
                if (!create) {
                    return NO_SLOT;
                }
                int slot = newSlot(k);
                tableSlots[i] = slot + 1;
                if (slots * 2 > tableSlots.length) {
                    rehash();
                }
                return slot;
            }
            if (keyOf[s - 1] == k) { // the null key's slot is in no table entry
                return s - 1;
            }
        }
    }

    private int newSlot(long key) {
        if (slots == keyOf.length) {
            keyOf = Arrays.copyOf(keyOf, slots * 2);
        }
        keyOf[slots] = key;
        for (Column c : columns) {
            if (c != null) {
                c.ensure(slots + 1);
            }
        }
        return slots++;
    }

    private void rehash() {
        int[] oldSlots = tableSlots;
        tableSlots = new int[oldSlots.length * 2];
        int mask = tableSlots.length - 1;
        for (int s : oldSlots) {
            if (s != 0) {
                int i = hash(keyOf[s - 1]) & mask;
                while (tableSlots[i] != 0) {
                    i = (i + 1) & mask;
                }
                tableSlots[i] = s;
            }
        }
    }

    private static int hash(long k) {
        long h = k * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32));
    }

    /** The upserted slots in key order (the null key first), as {@link KeyColumns#rowOrder()} orders their rows. */
    private void sortUpserts() {
        long[] sortedKeys = new long[slots];
        int n = 0;
        for (int s = 0; s < slots; s++) {
            if (s != nullKeySlot && !deleted.get(s)) {
                sortedKeys[n++] = keyOf[s];
            }
        }
        Arrays.sort(sortedKeys, 0, n);
        boolean nullKey = nullKeySlot != NO_SLOT && !deleted.get(nullKeySlot);
        int[] out = new int[n + (nullKey ? 1 : 0)];
        int o = 0;
        if (nullKey) {
            out[o++] = nullKeySlot;
        }
        for (int i = 0; i < n; i++) {
            out[o++] = slotOf(sortedKeys[i], false);
        }
        sortedUpserts = out;
    }

    private Object[] row(int slot) {
        Object[] row = new Object[columns.length];
        for (int c = 0; c < row.length; c++) {
            row[c] = value(slot, c);
        }
        return row;
    }

    /** Column {@code c}'s value in {@code slot}: the key's as it was read (an Integer or Long), or the column's. */
    private Object value(int slot, int c) {
        if (c != keyIndex) {
            return columns[c].get(slot);
        }
        return slot == nullKeySlot ? null : intKey ? (Object) (int) keyOf[slot] : (Object) keyOf[slot];
    }

    @Override
    public Change change(Key key) {
        int slot = slotOf(key.first(), false);
        return slot == NO_SLOT ? null : deleted.get(slot) ? Change.DELETE : Change.UPSERT;
    }

    @Override
    public Collection<Key> keys() {
        return new AbstractCollection<>() {
            @Override
            public Iterator<Key> iterator() {
                return new Iterator<>() {
                    private int s;

                    @Override
                    public boolean hasNext() {
                        return s < slots;
                    }

                    @Override
                    public Key next() {
                        if (s >= slots) {
                            throw new NoSuchElementException();
                        }
                        return Key.single(value(s++, keyIndex));
                    }
                };
            }

            @Override
            public int size() {
                return slots;
            }
        };
    }

    @Override
    public int size() {
        return slots;
    }

    @Override
    public long deletes() {
        return deleted.cardinality();
    }

    /** The rows, made as they are read (by the file writers, in parallel); the same rows at every read. */
    @Override
    public List<Object[]> upserts() {
        return new AbstractList<>() {
            @Override
            public Object[] get(int i) {
                return row(sortedUpserts[i]);
            }

            @Override
            public int size() {
                return sortedUpserts.length;
            }
        };
    }

    @Override
    public boolean upsertsInKeyOrder() {
        return true;
    }

    /** One column's values, by slot. */
    private abstract static class Column {
        final BitSet nulls = new BitSet();
        private int capacity;

        static Column of(DataType type) {
            return switch (type.kind()) {
                case INT, DATE, LONG, TIMESTAMP, TIMESTAMP_NTZ, DOUBLE -> new Words(type.kind());
                case STRING -> new Values(true);
                default -> new Values(false);
            };
        }

        final void ensure(int size) {
            if (size > capacity) {
                capacity = Math.max(size, Math.max(16, capacity * 2));
                resize(capacity);
            }
        }

        final void set(int slot, Object v) {
            nulls.set(slot, v == null);
            if (v != null) {
                put(slot, v);
            }
        }

        final Object get(int slot) {
            return nulls.get(slot) ? null : value(slot);
        }

        abstract void resize(int capacity);

        abstract void put(int slot, Object v);

        abstract Object value(int slot);
    }

    /** Integers, longs and doubles (as their bits), one 64-bit word each, boxed again as they were read. */
    private static final class Words extends Column {
        private final DataType.Kind kind;
        private long[] v = new long[0];

        Words(DataType.Kind kind) {
            this.kind = kind;
        }

        @Override
        void resize(int capacity) {
            v = Arrays.copyOf(v, capacity);
        }

        @Override
        void put(int slot, Object x) {
            v[slot] = switch (kind) {
                case INT, DATE -> (Integer) x;
                case DOUBLE -> Double.doubleToRawLongBits((Double) x);
                default -> (Long) x;
            };
        }

        @Override
        Object value(int slot) {
            long w = v[slot];
            return switch (kind) {
                case INT, DATE -> (Object) (int) w;
                case DOUBLE -> (Object) Double.longBitsToDouble(w);
                default -> (Object) w;
            };
        }
    }

    /** Values as they are; with {@code shared}, equal ones (strings) as one object, up to {@link #SHARED_LIMIT} distinct. */
    private static final class Values extends Column {
        private static final int SHARED_LIMIT = 1 << 16;
        private final Map<Object, Object> shared;
        private Object[] v = new Object[0];

        Values(boolean shared) {
            this.shared = shared ? new HashMap<>() : null;
        }

        @Override
        void resize(int capacity) {
            v = Arrays.copyOf(v, capacity);
        }

        @Override
        void put(int slot, Object x) {
            if (shared != null) {
                Object s = shared.get(x);
                if (s != null) {
                    x = s;
                } else if (shared.size() < SHARED_LIMIT) {
                    shared.put(x, x);
                }
            }
            v[slot] = x;
        }

        @Override
        Object value(int slot) {
            return v[slot];
        }
    }
}
