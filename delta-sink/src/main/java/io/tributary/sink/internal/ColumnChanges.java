package io.tributary.sink.internal;

import io.tributary.schema.DataType;
import io.tributary.schema.Schema;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.AbstractCollection;
import java.util.AbstractList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collection;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * A batch collapsed to one change per key ({@link BatchChanges}) for a key of one INT, LONG, DATE
 * or TIMESTAMP column, the usual upsert key. Each key has a slot, found through an
 * open-addressing table of slot numbers (the key's value is kept once, by slot); the slot's row is
 * kept column by column in chunks of 64-bit words ({@link SlotColumn}; other types in chunks of their
 * values, equal strings shared; the key column is the slots' key values), and is made into an
 * {@code Object[]} again only when written, in key order ({@link #upserts()}).
 *
 * <p>Why: the map form keeps about 200 bytes and eight objects per key (a map node, the key, the
 * row's array and its boxed values), live until the batch is written, so a one-batch upsert of a
 * million rows fills the old generation while it is read and pays for it in collections. Here a
 * key costs about 8 bytes per column (4 for a string's reference) plus 8 to 16 in the table (a batch's
 * seven million keys of four columns about 260 MB, not 500) and no object; the rows the reader parses
 * die young. The table is sized for the batch's records up to a million and grows with its keys past
 * that, and the columns grow a chunk at a time, so memory follows the keys a batch holds.
 */
final class ColumnChanges implements BatchChanges {
    private static final int NO_SLOT = -1;

    private final int keyIndex;
    private final boolean intKey; // the key's values are Integers (INT, DATE), else Longs
    private final SlotColumn[] columns; // the key column's entry is null: its values are keyOf's
    private final SlotColumn.Longs keyOf = new SlotColumn.Longs(); // per slot: its key's value (the null key's slot: unused)
    private final BitSet deleted = new BitSet();
    private final BitSet reset = new BitSet(); // slots whose key a tombstone deleted in this batch: what came before is forgotten
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
        this.columns = new SlotColumn[schema.size()];
        for (int c = 0; c < columns.length; c++) {
            columns[c] = c == keyIndex ? null : SlotColumn.of(schema.field(c).type());
        }
        // under half full for the records expected, up to a million: past that the table grows with the keys, not the records
        int capacity = Integer.highestOneBit(Math.max(16, Math.min(expectedRecords, 1 << 20)) - 1) * 4;
        this.tableSlots = new int[capacity];
    }

    /** Collapses records as they come, in Kafka order, as {@link MapChanges.Collector} does. */
    static final class Collector implements BatchChanges.Collector {
        private final KeyColumns keys;
        private final ColumnChanges changes;
        private final int orderIndex;
        private final Comparator<Object> order;
        private long[] runKeys = new long[0]; // writeRun's keys to sort, kept from one run to the next

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
                int slot = c.slotOf(keys.ofTombstone(origin).first(), true);
                c.deleted.set(slot);
                c.reset.set(slot);
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

        /** How many keys the records so far hold. */
        int size() {
            return changes.slots;
        }

        /**
         * Forgets the records so far and keeps the memory they took (the table, the columns' chunks), to collect the next
         * ones: a batch that spills ({@link SpillingCollector}) reuses one collector's memory rather than leaving a full one
         * to the garbage collector at each spill.
         */
        void clear() {
            changes.clear();
        }

        /**
         * Writes every key the records so far hold, in key order (the null key first), to {@code out} as
         * {@link SpilledChanges} reads a run: a flags byte ({@link SpilledChanges#DELETED}, {@link SpilledChanges#RESET},
         * {@link SpilledChanges#NULL_KEY}), the key's value unless null, and the row unless deleted; the number written.
         */
        int writeRun(DataOutputStream out, SpillRows rows) throws IOException {
            ColumnChanges c = changes;
            if (runKeys.length < c.slots) {
                runKeys = new long[c.slots];
            }
            int n = c.keyOrder(runKeys, false);
            if (c.nullKeySlot != NO_SLOT) {
                writeEntry(out, rows, c.nullKeySlot, true);
            }
            for (int i = 0; i < n; i++) {
                writeEntry(out, rows, c.slotAt(runKeys, i), false);
            }
            return c.slots;
        }

        private void writeEntry(DataOutputStream out, SpillRows rows, int slot, boolean nullKey) throws IOException {
            ColumnChanges c = changes;
            boolean deleted = c.deleted.get(slot);
            out.writeByte((deleted ? SpilledChanges.DELETED : 0) | (c.reset.get(slot) ? SpilledChanges.RESET : 0)
                    | (nullKey ? SpilledChanges.NULL_KEY : 0));
            if (!nullKey) {
                out.writeLong(c.keyOf.get(slot));
            }
            if (!deleted) {
                rows.write(out, c.row(slot));
            }
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
            if (keyOf.get(s - 1) == k) { // the null key's slot is in no table entry
                return s - 1;
            }
        }
    }

    private void clear() {
        Arrays.fill(tableSlots, 0);
        for (SlotColumn c : columns) {
            if (c != null) {
                c.clear();
            }
        }
        deleted.clear();
        reset.clear();
        slots = 0;
        nullKeySlot = NO_SLOT;
        sortedUpserts = null;
    }

    private int newSlot(long key) {
        keyOf.ensure(slots + 1);
        keyOf.set(slots, key);
        for (SlotColumn c : columns) {
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
                int i = hash(keyOf.get(s - 1)) & mask;
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
        long[] sorted = new long[slots];
        int n = keyOrder(sorted, true);
        boolean nullKey = nullKeySlot != NO_SLOT && !deleted.get(nullKeySlot);
        int[] out = new int[n + (nullKey ? 1 : 0)];
        int o = 0;
        if (nullKey) {
            out[o++] = nullKeySlot;
        }
        for (int i = 0; i < n; i++) {
            out[o++] = slotAt(sorted, i);
        }
        sortedUpserts = out;
    }

    /**
     * Fills {@code sorted} with the non-null keys' slots in key order (without the deleted ones when
     * {@code upsertsOnly}) and returns their number; {@link #slotAt} reads the slot of each entry. An
     * INT or DATE key and its slot share one long (the key in the high half, so the longs sort by key),
     * which saves looking each key up again in the table, a cache miss or two per key; a LONG or
     * TIMESTAMP key is sorted alone and looked up.
     */
    private int keyOrder(long[] sorted, boolean upsertsOnly) {
        int n = 0;
        for (int s = 0; s < slots; s++) {
            if (s != nullKeySlot && !(upsertsOnly && deleted.get(s))) {
                sorted[n++] = intKey ? keyOf.get(s) << 32 | s : keyOf.get(s);
            }
        }
        Arrays.sort(sorted, 0, n);
        return n;
    }

    /** The slot of entry {@code i} of an array {@link #keyOrder} sorted. */
    private int slotAt(long[] sorted, int i) {
        return intKey ? (int) sorted[i] : slotOf(sorted[i], false);
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
        return slot == nullKeySlot ? null : intKey ? (Object) (int) keyOf.get(slot) : (Object) keyOf.get(slot);
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
}
