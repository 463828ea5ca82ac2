package io.tributary.topology.internal;

import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.KeyValue;

/** The store of open windows: one entry per (window start, group), holding the aggregate states. */
final class OpenWindows {
    static final int NEW = 1;
    static final int FIRST_IN_BATCH = 2;

    private final KeyValueStore<Bytes, byte[]> store;
    private final StateLayout layout;
    private final long size;

    OpenWindows(KeyValueStore<Bytes, byte[]> store, StateLayout layout, long sizeMicros) {
        this.store = store;
        this.layout = layout;
        this.size = sizeMicros;
    }

    /** Folds a row into window {@code start} of its group; says whether the entry is {@link #NEW} and/or {@link #FIRST_IN_BATCH}. */
    int update(long start, byte[] groupBytes, Object[] row, long seq) {
        Bytes key = StateLayout.key(start, groupBytes);
        byte[] old = store.get(key);
        Object[] states;
        int flags;
        if (old == null) {
            states = layout.zero();
            flags = NEW | FIRST_IN_BATCH;
        } else {
            states = layout.states(old);
            flags = StateLayout.seq(old) == seq ? 0 : FIRST_IN_BATCH;
        }
        layout.add(states, row);
        store.put(key, layout.value(seq, states));
        return flags;
    }

    /** Visits entries oldest window first; the visitor returns false to stop. */
    void scan(Visitor visitor) {
        try (KeyValueIterator<Bytes, byte[]> it = store.all()) {
            while (it.hasNext()) {
                KeyValue<Bytes, byte[]> kv = it.next();
                if (!visitor.visit(kv.key, StateLayout.windowStart(kv.key), kv.value)) {
                    return;
                }
            }
        }
    }

    void delete(List<Bytes> keys) {
        for (Bytes k : keys) {
            store.put(k, null); // a delete without delete()'s read of the old value (a RocksDB get when the entry left the cache)
        }
    }

    long size() {
        return size;
    }

    /** Spark's output row: {@code window {start, end}}, the group values, the aggregates. */
    Object[] outputRow(Bytes key, long start, byte[] value) {
        Object[] group = layout.groupValues(key);
        Object[] results = layout.results(layout.states(value));
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
        boolean visit(Bytes key, long start, byte[] value);
    }

    static List<Bytes> newKeyList() {
        return new ArrayList<>();
    }
}
