package io.tributary.topology.internal;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.utils.Bytes;

/**
 * The open windows' states held decoded in memory, for an aggregation with an aggregate whose state is a whole collection
 * ({@link CollectionAccumulator}): the first row of a batch for a (window, group) decodes its states once, later rows fold into
 * them in place, and {@link OpenWindows} encodes each into its write-back map once, where the topology persists them
 * ({@link #settle}), rather than decoding and encoding the whole collection per row. Nothing here outlives a commit: the
 * open windows settle before every commit, so a crash loses what the map would have lost.
 */
final class LiveStates {
    /**
     * The heap one row may add to a state held here, about, for the budget of the open windows: a new distinct value's entry
     * in a count of values (a tree node, the boxed value and its count), eight bytes in a head buffer.
     */
    private static final long ROW_BYTES = 96;
    /** The heap of an entry besides its states: the hash map's node, the key's wrapper, the states' array. */
    private static final long ENTRY_BYTES = 96;
    /**
     * The heap of states decoded per byte of their encoding, about: a count of values holds a tree node, a boxed value and a
     * boxed count (some 72 bytes) for 16 encoded; a summary's samples and head buffer and a sketch take little more.
     */
    private static final long DECODED_PER_ENCODED_BYTE = 4;

    /** A (window, group)'s states, decoded; the batch that last changed them; whether the store holds the entry. */
    static final class Entry {
        final Object[] states;
        long seq;
        final boolean inStore;

        Entry(Object[] states, long seq, boolean inStore) {
            this.states = states;
            this.seq = seq;
            this.inStore = inStore;
        }
    }

    /** Where {@link #settle} writes an entry: the write-back map of the open windows. */
    interface Sink {
        void put(byte[] key, Entry entry);
    }

    private final Map<Bytes, Entry> entries = new HashMap<>();
    private long bytes;

    Entry get(byte[] key) {
        return entries.get(Bytes.wrap(key));
    }

    /** Holds {@code states} (of {@code encodedBytes} when they were read, 0 when new) under {@code key}. */
    Entry hold(byte[] key, Object[] states, long seq, boolean inStore, int encodedBytes) {
        Entry e = new Entry(states, seq, inStore);
        entries.put(Bytes.wrap(key), e);
        bytes += ENTRY_BYTES + key.length + DECODED_PER_ENCODED_BYTE * encodedBytes;
        return e;
    }

    /** Counts the heap a row folded into a held state may have added. */
    void folded() {
        bytes += ROW_BYTES;
    }

    int size() {
        return entries.size();
    }

    /** The heap the held states take, about (see {@link #ROW_BYTES}). */
    long bytes() {
        return bytes;
    }

    /** Hands every held entry to {@code sink} (to be encoded once), then holds none. */
    void settle(Sink sink) {
        if (entries.isEmpty()) {
            return;
        }
        entries.forEach((key, e) -> sink.put(key.get(), e));
        entries.clear();
        bytes = 0;
    }
}
