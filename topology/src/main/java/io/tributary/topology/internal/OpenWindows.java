package io.tributary.topology.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The open windows: one entry per (window start, group), holding the aggregate states. A
 * write-back map in front of the (uncached) windows store: rows fold into the map's decoded
 * states, which reads the store only on a miss; {@link #flush()} writes the changed entries into
 * the store in batches, and runs before every commit of the task ({@link CommitHook}) and when
 * the map outgrows its budget. A window opened and closed between two commits is emitted from the
 * map and never reaches RocksDB or the changelog (no put, no tombstone); but the processor
 * commits at every marker (and every second), and a marker carries the watermark of the batches
 * before its own (Spark's rule), so that is only a window whose rows all arrived in the batch
 * right after the one that moved the watermark past its end (rows Spark still counts): most
 * windows are written once and deleted once.
 */
final class OpenWindows {
    static final int NEW = 1;
    static final int FIRST_IN_BATCH = 2;
    /** A rough heap cost of one map entry besides its key and state bytes (the HashMap node, the key and entry objects). */
    private static final long ENTRY_OVERHEAD = 160;
    private static final int FLUSH_CHUNK = 10_000;

    private final KeyValueStore<Bytes, byte[]> store;
    private final StateLayout layout;
    private final long size;
    private final long budgetBytes;
    private final HashMap<Bytes, Entry> map = new HashMap<>();
    private long mapBytes;

    /** A window's states in the map; {@code inStore}: the store holds an older version (so closing it needs a tombstone). */
    private static final class Entry {
        Object[] states;
        long seq;
        boolean inStore;
        boolean dirty;

        Entry(Object[] states, long seq, boolean inStore) {
            this.states = states;
            this.seq = seq;
            this.inStore = inStore;
        }
    }

    OpenWindows(KeyValueStore<Bytes, byte[]> store, StateLayout layout, long sizeMicros, long budgetBytes) {
        this.store = store;
        this.layout = layout;
        this.size = sizeMicros;
        this.budgetBytes = budgetBytes;
    }

    /** Folds a row into window {@code start} of its group; says whether the entry is {@link #NEW} and/or {@link #FIRST_IN_BATCH}. */
    int update(long start, byte[] groupBytes, Object[] row, long seq) {
        Bytes key = StateLayout.key(start, groupBytes);
        Entry e = map.get(key);
        int flags;
        if (e == null) {
            byte[] old = store.get(key);
            if (old == null) {
                e = new Entry(layout.zero(), seq, false);
                flags = NEW | FIRST_IN_BATCH;
            } else {
                e = new Entry(layout.states(old), StateLayout.seq(old), true);
                flags = e.seq == seq ? 0 : FIRST_IN_BATCH;
            }
            map.put(key, e);
            mapBytes += ENTRY_OVERHEAD + key.get().length + 16L * e.states.length;
        } else {
            flags = e.seq == seq ? 0 : FIRST_IN_BATCH;
        }
        layout.add(e.states, row);
        e.seq = seq;
        e.dirty = true;
        return flags;
    }

    /** Whether the map holds more than its budget; then the caller flushes it (and commits). */
    boolean overBudget() {
        return mapBytes > budgetBytes;
    }

    int mapSize() {
        return map.size();
    }

    /** Writes the changed entries into the store (and so its changelog) and empties the map. */
    void flush() {
        if (map.isEmpty()) {
            return;
        }
        List<KeyValue<Bytes, byte[]>> batch = new ArrayList<>(Math.min(map.size(), FLUSH_CHUNK));
        for (Map.Entry<Bytes, Entry> me : map.entrySet()) {
            Entry e = me.getValue();
            if (!e.dirty) {
                continue;
            }
            batch.add(KeyValue.pair(me.getKey(), layout.value(e.seq, e.states)));
            if (batch.size() == FLUSH_CHUNK) {
                store.putAll(batch);
                batch.clear();
            }
        }
        if (!batch.isEmpty()) {
            store.putAll(batch);
        }
        map.clear();
        mapBytes = 0;
    }

    /**
     * Visits the entries of windows starting at or before {@code maxStart}, oldest window first
     * (store key order), the map's version of an entry before the store's; the visitor returns
     * false to stop.
     */
    void scan(long maxStart, Visitor visitor) {
        List<Map.Entry<Bytes, Entry>> mine = new ArrayList<>();
        for (Map.Entry<Bytes, Entry> me : map.entrySet()) {
            if (StateLayout.windowStart(me.getKey()) <= maxStart) {
                mine.add(me);
            }
        }
        mine.sort(Map.Entry.comparingByKey());
        int i = 0;
        try (KeyValueIterator<Bytes, byte[]> it = store.all()) {
            KeyValue<Bytes, byte[]> s = nextUpTo(it, maxStart);
            while (s != null || i < mine.size()) {
                Map.Entry<Bytes, Entry> m = i < mine.size() ? mine.get(i) : null;
                int c = s == null ? 1 : m == null ? -1 : s.key.compareTo(m.getKey());
                boolean more;
                if (c < 0) {
                    more = visitor.visit(s.key, StateLayout.windowStart(s.key), StateLayout.seq(s.value), layout.states(s.value));
                    s = nextUpTo(it, maxStart);
                } else {
                    Entry e = m.getValue();
                    more = visitor.visit(m.getKey(), StateLayout.windowStart(m.getKey()), e.seq, e.states);
                    i++;
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

    private static KeyValue<Bytes, byte[]> nextUpTo(KeyValueIterator<Bytes, byte[]> it, long maxStart) {
        if (!it.hasNext()) {
            return null;
        }
        KeyValue<Bytes, byte[]> kv = it.next();
        return StateLayout.windowStart(kv.key) <= maxStart ? kv : null;
    }

    /** Removes entries (closed windows): from the map, and from the store with a tombstone if it holds them. */
    void delete(List<Bytes> keys) {
        List<KeyValue<Bytes, byte[]>> batch = new ArrayList<>();
        for (Bytes k : keys) {
            Entry e = map.remove(k);
            if (e != null) {
                mapBytes -= ENTRY_OVERHEAD + k.get().length + 16L * e.states.length;
            }
            if (e == null || e.inStore) {
                batch.add(KeyValue.pair(k, null)); // a delete without delete()'s read of the old value
                if (batch.size() == FLUSH_CHUNK) {
                    store.putAll(batch);
                    batch.clear();
                }
            }
        }
        if (!batch.isEmpty()) {
            store.putAll(batch);
        }
    }

    long size() {
        return size;
    }

    /** Spark's output row: {@code window {start, end}}, the group values, the aggregates. */
    Object[] outputRow(Bytes key, long start, Object[] states) {
        Object[] group = layout.groupValues(key);
        Object[] results = layout.results(states);
        Object[] row = new Object[1 + group.length + results.length];
        row[0] = new Object[] {start, start + size};
        System.arraycopy(group, 0, row, 1, group.length);
        System.arraycopy(results, 0, row, 1 + group.length, results.length);
        return row;
    }

    byte[] groupBytesOf(Object[] groupValues) {
        return layout.groupBytes(groupValues);
    }

    Object[] groupValues(Bytes key) {
        return layout.groupValues(key);
    }

    interface Visitor {
        boolean visit(Bytes key, long start, long seq, Object[] states);
    }

    static List<Bytes> newKeyList() {
        return new ArrayList<>();
    }
}
