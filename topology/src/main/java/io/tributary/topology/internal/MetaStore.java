package io.tributary.topology.internal;

import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The task's small changelogged store: its watermark, the batch sequence number and the counters
 * of the batch in progress. Written through on every change (the store's cache absorbs the
 * repeats), so that a commit in the middle of a batch and a restart after it lose nothing.
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
        store.put(WATERMARK_MS, ms);
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
        store.put(STATE_ROWS, stateRows);
    }

    void addDropped() {
        store.put(DROPPED, ++dropped);
    }

    void addUpdated() {
        store.put(UPDATED, ++updated);
    }

    /** Ends the batch: the next sequence number, counters back to zero. */
    void nextBatch() {
        store.put(SEQ, ++seq);
        dropped = 0;
        updated = 0;
        store.put(DROPPED, 0L);
        store.put(UPDATED, 0L);
    }
}
