package io.tributary.topology.internal;

import java.util.Arrays;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The open windows: one entry per (window start, group), holding the aggregate states. A
 * write-back map ({@link WindowTable}: encoded keys and values, few objects per entry) in front
 * of the (uncached) windows store: rows fold into the map, which reads the store only on a miss;
 * {@link #flush()} writes the changed entries into the store in batches, and runs before every
 * commit of the task ({@link CommitHook}) and when the map outgrows its budget (the processor
 * then asks for a commit). A window opened and closed between two commits is emitted from the
 * map and never reaches RocksDB or the changelog (no put, no tombstone). Commits come at each
 * marker (and at the 60 s commit interval), and a marker carries the watermark of the batches
 * before its own (Spark's rule), so a batch's windows close in the map when the marker that closes them comes
 * in the same ingest transaction as the batch: an availableNow run's last data batch carries its
 * no-data batch (file-ingest). Otherwise a window is written once and deleted once. When an aggregate's state is a whole
 * collection ({@link CollectionAccumulator}), the states rows fold into are held decoded ({@link LiveStates}) and encoded
 * into the map once, before anything reads the map: a flush (every commit), a scan (a batch's end, a closing) or a removal.
 */
final class OpenWindows {
    static final int NEW = OpenState.NEW;
    static final int FIRST_IN_BATCH = OpenState.FIRST_IN_BATCH;
    private static final int FLUSH_CHUNK = 10_000;

    private final KeyValueStore<Bytes, byte[]> store;
    private final StateLayout layout;
    private final long size;
    private final long budgetBytes;
    private final long budgetWindows;
    private final WindowTable map = new WindowTable();
    /** The states held decoded while rows fold into them, when an aggregate's state is a whole collection; else null. */
    private final LiveStates live;
    /**
     * The window starts the store may hold entries of, at least: a miss in the map outside them
     * needs no read of the store (a new window of a stream that moves forward, every window of a
     * first run). Taken from the store at start, widened by every flush, never narrowed.
     */
    private long storeMinStart = Long.MAX_VALUE;
    private long storeMaxStart = Long.MIN_VALUE;
    /** Whether the entry {@link #scan} visits now is in the store (removing it takes a tombstone), not only in the map. */
    private boolean visitingStored;
    /** The key {@link #update} builds, reused from row to row. */
    private byte[] keyBuffer = new byte[64];
    /** The value {@link #update} encodes, reused from row to row. */
    private final ByteSink valueSink = new ByteSink(64);
    /** The states {@link #update} folds a row into, reused from row to row (the states, not the array, are kept). */
    private final Object[] scratchStates;
    /** The output's {@code window {start, end}} arrays of the starts met last, by start ({@link #window}). */
    private final Object[][] windowCache = new Object[256][];
    /** The states a {@link #scan} gives its visitor, reused from entry to entry. */
    private final Object[] visitedStates;

    /**
     * @param budgetBytes the heap the map may take before it is written to the store
     * @param budgetWindows the windows it may hold before it is written to the store: a commit writes
     *     them all in its transaction, which must end within the transaction timeout
     */
    OpenWindows(KeyValueStore<Bytes, byte[]> store, StateLayout layout, long sizeMicros, long budgetBytes, long budgetWindows) {
        this.store = store;
        this.layout = layout;
        this.size = sizeMicros;
        this.budgetBytes = budgetBytes;
        this.budgetWindows = budgetWindows;
        this.live = layout.holdsCollections() ? new LiveStates() : null;
        this.scratchStates = new Object[layout.aggregateCount()];
        this.visitedStates = new Object[layout.aggregateCount()];
        try (KeyValueIterator<Bytes, byte[]> first = store.all(); KeyValueIterator<Bytes, byte[]> last = store.reverseAll()) {
            if (first.hasNext()) {
                storeMinStart = StateLayout.windowStart(first.next().key);
                storeMaxStart = StateLayout.windowStart(last.next().key);
            }
        }
    }

    private boolean storeMayHold(long start) {
        return start >= storeMinStart && start <= storeMaxStart;
    }

    /**
     * Folds a row into window {@code start} of its group; says whether the entry is {@link #NEW} and/or {@link #FIRST_IN_BATCH}.
     * The key is built in a reused buffer, the states decoded from the table's slabs into a reused array and encoded back
     * through a reused sink: a row that only updates the map allocates no array of its own.
     */
    int update(long start, byte[] groupBytes, Object[] row, long seq) {
        if (live != null) {
            return updateLive(StateLayout.key(start, groupBytes).get(), start, row, seq);
        }
        if (keyBuffer.length < 8 + groupBytes.length) {
            keyBuffer = new byte[Math.max(2 * keyBuffer.length, 8 + groupBytes.length)];
        }
        int keyLength = StateLayout.key(keyBuffer, start, groupBytes);
        int slot = map.find(keyBuffer, keyLength);
        Object[] states = scratchStates;
        int flags;
        boolean inStore;
        if (slot < 0) {
            byte[] old = storeMayHold(start) ? store.get(Bytes.wrap(Arrays.copyOf(keyBuffer, keyLength))) : null;
            inStore = old != null;
            if (old == null) {
                flags = NEW | FIRST_IN_BATCH;
                layout.zero(states);
            } else {
                flags = StateLayout.seq(old) == seq ? 0 : FIRST_IN_BATCH;
                layout.states(old, 0, states);
            }
        } else {
            inStore = true; // not used: the entry stays where it is
            byte[] slab = map.slab(slot);
            int at = map.valueOffset(slot);
            flags = StateLayout.readLong(slab, at) == seq ? 0 : FIRST_IN_BATCH;
            layout.states(slab, at, states);
        }
        if ((flags & (NEW | FIRST_IN_BATCH)) == FIRST_IN_BATCH) { // an entry of an earlier batch
            layout.nextBatch(states);
        }
        layout.add(states, row);
        layout.value(valueSink, seq, states);
        if (slot < 0) {
            map.insert(keyBuffer, keyLength, valueSink.array(), valueSink.size(),
                    inStore ? (byte) (WindowTable.DIRTY | WindowTable.IN_STORE) : WindowTable.DIRTY);
        } else {
            map.value(slot, valueSink.array(), valueSink.size()); // in place when its length did not change
            map.set(slot, WindowTable.DIRTY);
        }
        return flags;
    }

    /** {@link #update} when an aggregate's state is a whole collection: the states are held decoded ({@link LiveStates}). */
    private int updateLive(byte[] key, long start, Object[] row, long seq) {
        LiveStates.Entry held = live.get(key);
        if (held != null) {
            int flags = held.seq == seq ? 0 : FIRST_IN_BATCH;
            if (flags != 0) {
                layout.nextBatch(held.states);
                held.seq = seq;
            }
            layout.addInPlace(held.states, row);
            live.folded();
            return flags;
        }
        int slot = map.find(key);
        byte[] old;
        int flags;
        if (slot < 0) {
            old = storeMayHold(start) ? store.get(Bytes.wrap(key)) : null;
            flags = old == null ? NEW | FIRST_IN_BATCH : StateLayout.seq(old) == seq ? 0 : FIRST_IN_BATCH;
        } else {
            old = map.value(slot);
            flags = StateLayout.seq(old) == seq ? 0 : FIRST_IN_BATCH;
        }
        Object[] states = old == null ? layout.zero() : layout.states(old);
        if (old != null && (flags & FIRST_IN_BATCH) != 0) {
            layout.nextBatch(states);
        }
        // held decoded until the map's next reader (settle)
        boolean inStore = slot < 0 ? old != null : map.has(slot, WindowTable.IN_STORE);
        layout.addInPlace(live.hold(key, states, seq, inStore, old == null ? 0 : old.length).states, row);
        live.folded();
        return flags;
    }

    /** Encodes the states held decoded into the map, once each, before anything reads or writes the map. */
    private void settle() {
        if (live != null) {
            live.settle((key, e) -> {
                byte[] value = layout.value(e.seq, e.states);
                int slot = map.find(key);
                if (slot < 0) {
                    map.insert(key, value, e.inStore ? (byte) (WindowTable.DIRTY | WindowTable.IN_STORE) : WindowTable.DIRTY);
                } else {
                    map.value(slot, value);
                    map.set(slot, WindowTable.DIRTY);
                }
            });
        }
    }

    /** Whether the map holds more than its budget; then the caller flushes it (and commits). */
    boolean overBudget() {
        long heldBytes = live == null ? 0 : live.bytes();
        // what the slabs hold until their next compaction counts too
        return map.bytes() + heldBytes > budgetBytes || mapSize() > budgetWindows;
    }

    /** The entries in memory: the map's and those held decoded (some of which the map holds too, encoded as before the batch). */
    int mapSize() {
        return map.size() + (live == null ? 0 : live.size());
    }

    /** Writes the changed entries into the store (and so its changelog) and empties the map. */
    void flush() {
        settle();
        if (map.isEmpty()) {
            return;
        }
        ChunkedPuts puts = new ChunkedPuts(store, FLUSH_CHUNK);
        for (int i = 0; i < map.capacity(); i++) {
            byte[] key = map.key(i);
            if (key != null && map.has(i, WindowTable.DIRTY)) {
                long start = StateLayout.windowStart(key);
                storeMinStart = Math.min(storeMinStart, start);
                storeMaxStart = Math.max(storeMaxStart, start);
                puts.put(Bytes.wrap(key), map.value(i));
            }
        }
        puts.finish();
        map.clear();
    }

    /**
     * Visits the entries of windows starting at or before {@code maxStart}, oldest window first
     * (store key order), the map's version of an entry before the store's; the visitor returns
     * false to stop. The map's entries are sorted in place in its slabs, not copied to be sorted. When the
     * store holds none of these windows (an availableNow run's, which open and close between two commits),
     * the map's are visited in no particular order, not sorted: a batch's output is a set, and a step of a
     * closing stops only at windows held in the store.
     */
    void scan(long maxStart, Visitor visitor) {
        scan(Long.MIN_VALUE, maxStart, visitor);
    }

    /**
     * As {@link #scan(long, Visitor)}, for windows starting from {@code minStart} on: the map
     * holds none before it (a closing in steps removed them), and the store is read from there,
     * not across the tombstones of the steps before.
     */
    void scan(long minStart, long maxStart, Visitor visitor) {
        settle();
        if (maxStart < storeMinStart || minStart > maxStart) { // the store holds none of them: the map's, unsorted
            visitingStored = false;
            for (int slot : map.slotsUpTo(maxStart ^ Long.MIN_VALUE)) {
                if (!visitMapEntry(slot, visitor)) {
                    return;
                }
            }
            return;
        }
        int[] mine = map.sortedSlotsUpTo(maxStart ^ Long.MIN_VALUE);
        int i = 0;
        try (KeyValueIterator<Bytes, byte[]> it = storeBetween(minStart, maxStart)) {
            KeyValue<Bytes, byte[]> s = nextUpTo(it, maxStart);
            while (s != null || i < mine.length) {
                int c = s == null ? 1 : i == mine.length ? -1 : compareToMap(s.key.get(), mine[i]);
                boolean more;
                if (c < 0) {
                    visitingStored = true;
                    byte[] key = s.key.get();
                    layout.states(s.value, 0, visitedStates);
                    more = visitor.visit(key, 0, StateLayout.windowStart(key, 0), StateLayout.seq(s.value), visitedStates);
                    s = nextUpTo(it, maxStart);
                } else {
                    visitingStored = c == 0;
                    more = visitMapEntry(mine[i++], visitor);
                    if (c == 0) {
                        s = nextUpTo(it, maxStart);
                    }
                }
                if (!more) {
                    return;
                }
            }
        }
    }

    /** Visits the map's entry at {@code slot}, read in place from the table's slabs. */
    private boolean visitMapEntry(int slot, Visitor visitor) {
        byte[] slab = map.slab(slot);
        int keyAt = map.keyOffset(slot);
        int valueAt = map.valueOffset(slot);
        layout.states(slab, valueAt, visitedStates);
        return visitor.visit(slab, keyAt, StateLayout.windowStart(slab, keyAt), StateLayout.readLong(slab, valueAt), visitedStates);
    }

    /** Compares a store key with the map's key at {@code slot}, as unsigned bytes (the store's order). */
    private int compareToMap(byte[] storeKey, int slot) {
        int at = map.keyOffset(slot);
        return Arrays.compareUnsigned(storeKey, 0, storeKey.length, map.slab(slot), at, at + map.keyLength(slot));
    }

    /**
     * The store's entries in key order from window start {@code minStart} on, or null when it
     * holds none of windows starting at or before {@code maxStart}.
     */
    private KeyValueIterator<Bytes, byte[]> storeBetween(long minStart, long maxStart) {
        if (maxStart < storeMinStart || minStart > maxStart) {
            return null;
        }
        return minStart <= storeMinStart ? store.all() : store.range(StateLayout.key(minStart, new byte[0]), null);
    }

    private static KeyValue<Bytes, byte[]> nextUpTo(KeyValueIterator<Bytes, byte[]> it, long maxStart) {
        if (it == null || !it.hasNext()) {
            return null;
        }
        KeyValue<Bytes, byte[]> kv = it.next();
        return StateLayout.windowStart(kv.key) <= maxStart ? kv : null;
    }

    /**
     * Visits the windows starting in {@code (after, maxStart]} that only the map holds (opened since the
     * last commit), in no particular order, then removes them from the map; returns how many there were.
     * A closing that stops a step before its bound writes these out at once: left in the map, the
     * step's commit would write each into the store and the changelog, to be read and deleted again
     * by a later step.
     */
    long closeMapOnly(long after, long maxStart, Visitor visitor) {
        settle();
        if (after >= maxStart) {
            return 0;
        }
        for (int i = 0; i < map.capacity(); i++) {
            if (map.keyLength(i) != 0 && !map.has(i, WindowTable.IN_STORE)) {
                long start = StateLayout.windowStart(map.slab(i), map.keyOffset(i));
                if (start > after && start <= maxStart) {
                    visitMapEntry(i, visitor);
                }
            }
        }
        return map.removeWithoutUpTo(maxStart ^ Long.MIN_VALUE, WindowTable.IN_STORE);
    }

    /**
     * Removes the entries of windows starting at or before {@code maxStart} (closed windows): from
     * the map in one pass, and from the store with a tombstone each; returns how many there were.
     */
    long deleteUpTo(long maxStart) {
        return deleteBetween(Long.MIN_VALUE, maxStart);
    }

    /** As {@link #deleteUpTo}, where the map and the store hold no window starting before {@code minStart}. */
    long deleteBetween(long minStart, long maxStart) {
        settle();
        long removed = map.removeUpTo(maxStart ^ Long.MIN_VALUE, WindowTable.IN_STORE); // the entries the store holds are counted below
        ChunkedPuts puts = new ChunkedPuts(store, FLUSH_CHUNK);
        // the tombstones go in while the iterator is open, a chunk at a time (RocksDB's iterator reads the
        // store as it was when it opened), so memory holds a chunk of keys, not every closed window's
        try (KeyValueIterator<Bytes, byte[]> it = storeBetween(minStart, maxStart)) {
            for (KeyValue<Bytes, byte[]> s = nextUpTo(it, maxStart); s != null; s = nextUpTo(it, maxStart)) {
                puts.put(s.key, null); // a delete without delete()'s read of the old value
                removed++;
            }
        }
        puts.finish();
        return removed;
    }

    long size() {
        return size;
    }

    /** Spark's output row: {@code window {start, end}}, the group values of the key at {@code keyOffset} of {@code key}, the aggregates. */
    Object[] outputRow(byte[] key, int keyOffset, long start, Object[] states) {
        int groups = layout.groupCount();
        Object[] row = new Object[1 + groups + states.length];
        row[0] = window(start);
        layout.groupValues(key, keyOffset, row, 1);
        layout.results(states, row, 1 + groups);
        return row;
    }

    /**
     * The output's {@code window {start, end}}: one array per window start among the last few met, shared by the rows of
     * that start (a closing writes hundreds of windows of each start), not two boxed longs and an array per row.
     */
    private Object[] window(long start) {
        int at = (int) ((start * 0x9E3779B97F4A7C15L) >>> 56); // the product's top byte: starts are multiples of the slide
        Object[] w = windowCache[at];
        if (w == null || (Long) w[0] != start) {
            w = new Object[] {start, start + size};
            windowCache[at] = w;
        }
        return w;
    }

    /** The group part of the key, in an array the next call may reuse: {@link #update} copies it. */
    byte[] groupBytesOf(Object[] groupValues) {
        return layout.groupBytesReused(groupValues);
    }

    /** During a {@link #scan}: whether the entry visited is in the store, not only in the map. */
    boolean visitingStored() {
        return visitingStored;
    }

    /**
     * What a {@link #scan} visits: the entry's key at {@code keyOffset} of {@code key} and its states, both valid only
     * during the visit (read in place from the table's slabs, decoded into an array the next entry reuses).
     */
    interface Visitor {
        boolean visit(byte[] key, int keyOffset, long start, long seq, Object[] states);
    }
}
