package io.tributary.topology.internal;

import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The task's small changelogged store: its watermark, the batch sequence number and the counters
 * of the batch in progress. Kept in memory and written to the store by {@link #flush()}, which
 * runs before every commit ({@link CommitHook}), so that a commit in the middle of a batch and a
 * restart after it lose nothing.
 */
final class MetaStore {
    private static final String WATERMARK_MS = "watermarkMs";
    private static final String SEQ = "seq";
    private static final String STATE_ROWS = "stateRows";
    private static final String DROPPED = "droppedInBatch";
    private static final String UPDATED = "updatedInBatch";

    private final KeyValueStore<String, Long> store;
    private Long watermarkMs;
    private long seq;
    private long stateRows;
    private long dropped;
    private long updated;
    private boolean dirty;

    MetaStore(KeyValueStore<String, Long> store) {
        this.store = store;
        this.watermarkMs = store.get(WATERMARK_MS);
        this.seq = orZero(store.get(SEQ));
        this.stateRows = orZero(store.get(STATE_ROWS));
        this.dropped = orZero(store.get(DROPPED));
        this.updated = orZero(store.get(UPDATED));
    }

    private static long orZero(Long v) {
        return v == null ? 0L : v;
    }

    /** The watermark of the last marker, or null before any. */
    Long watermarkMs() {
        return watermarkMs;
    }

    void watermarkMs(long ms) {
        watermarkMs = ms;
        dirty = true;
    }

    /** The number of markers seen: the sequence number of the batch in progress. */
    long seq() {
        return seq;
    }

    long stateRows() {
        return stateRows;
    }

    long dropped() {
        return dropped;
    }

    long updated() {
        return updated;
    }

    void addStateRows(long n) {
        stateRows += n;
        dirty = true;
    }

    void addDropped() {
        dropped++;
        dirty = true;
    }

    void addUpdated() {
        updated++;
        dirty = true;
    }

    /** Ends the batch: the next sequence number, counters back to zero. */
    void nextBatch() {
        seq++;
        dropped = 0;
        updated = 0;
        dirty = true;
    }

    /** Writes the values into the store (and its changelog) if they changed since the last flush. */
    void flush() {
        if (!dirty) {
            return;
        }
        if (watermarkMs != null) {
            store.put(WATERMARK_MS, watermarkMs);
        }
        store.put(SEQ, seq);
        store.put(STATE_ROWS, stateRows);
        store.put(DROPPED, dropped);
        store.put(UPDATED, updated);
        dirty = false;
    }
}
