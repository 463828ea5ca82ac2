package io.tributary.topology.internal;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The task's small changelogged store: its watermark, the batch sequence number and the counters
 * of the batch in progress. Kept in memory and written to the store by {@link #flush()}, which
 * runs before every commit ({@link CommitHook}), so that a commit in the middle of a batch and a
 * restart after it lose nothing. It also holds the markers whose closing is in progress
 * ({@link PendingClose}), oldest first, so that a restart resumes a closing where the last commit left it.
 */
final class MetaStore {
    private static final String WATERMARK_MS = "watermarkMs";
    private static final String SEQ = "seq";
    private static final String STATE_ROWS = "stateRows";
    private static final String DROPPED = "droppedInBatch";
    private static final String UPDATED = "updatedInBatch";
    private static final String CLOSES = "pendingCloses";
    private static final String[] CLOSE_FIELDS = {
        "batchId", "watermarkMs", "partition", "timestamp", "from", "bound", "emitted", "stateRows", "updated", "dropped"};

    private final KeyValueStore<String, Long> store;
    private Long watermarkMs;
    private long seq;
    private long stateRows;
    private long dropped;
    private long updated;
    private final List<PendingClose> closes = new ArrayList<>();
    /** How many closings the store holds entries of. */
    private int storedCloses;
    private boolean dirty;

    MetaStore(KeyValueStore<String, Long> store) {
        this.store = store;
        this.watermarkMs = store.get(WATERMARK_MS);
        this.seq = orZero(store.get(SEQ));
        this.stateRows = orZero(store.get(STATE_ROWS));
        this.dropped = orZero(store.get(DROPPED));
        this.updated = orZero(store.get(UPDATED));
        this.storedCloses = (int) orZero(store.get(CLOSES));
        for (int i = 0; i < storedCloses; i++) {
            closes.add(new PendingClose(get(i, 0), store.get(closeKey(i, 1)), (int) get(i, 2), get(i, 3), get(i, 4), get(i, 5),
                    get(i, 6), get(i, 7), get(i, 8), get(i, 9)));
        }
    }

    private static String closeKey(int index, int field) {
        return "close." + index + "." + CLOSE_FIELDS[field];
    }

    private long get(int index, int field) {
        return orZero(store.get(closeKey(index, field)));
    }

    private static long orZero(Long v) {
        return v == null ? 0L : v;
    }

    /** The watermark of the last marker, or null before any. */
    Long watermarkMs() {
        return watermarkMs;
    }

    /** Raises the watermark to a marker's {@code ms} (null: it has none) when that is later; says whether it did. */
    boolean raiseWatermark(Long ms) {
        if (ms == null || (watermarkMs != null && ms <= watermarkMs)) {
            return false;
        }
        watermarkMs = ms;
        dirty = true;
        return true;
    }

    /** The watermark in microseconds (saturated), or null before any. */
    Long watermarkMicros() {
        if (watermarkMs == null || watermarkMs < Long.MIN_VALUE / 1000) {
            return null;
        }
        return watermarkMs > Long.MAX_VALUE / 1000 ? Long.MAX_VALUE : watermarkMs * 1000;
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

    /** The markers whose closing is in progress, oldest first. */
    List<PendingClose> closes() {
        return Collections.unmodifiableList(closes);
    }

    void addClose(PendingClose close) {
        closes.add(close);
        dirty = true;
    }

    /** The oldest closing took a step: it wrote {@code rows}, goes on at {@code next}; every batch pending holds {@code purged} state rows fewer. */
    void closeStepped(long next, long rows, long purged) {
        closes.replaceAll(c -> c.purged(purged));
        closes.set(0, closes.get(0).stepped(next, rows));
        dirty = true;
    }

    /** The oldest closing is done. */
    void closeDone() {
        closes.remove(0);
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
        for (int i = 0; i < closes.size(); i++) {
            PendingClose c = closes.get(i);
            long[] v = {c.batchId(), 0, c.partition(), c.timestamp(), c.from(), c.bound(), c.emitted(), c.stateRows(), c.updated(), c.dropped()};
            for (int f = 0; f < v.length; f++) {
                if (f == 1) {
                    if (c.watermarkMs() == null) {
                        store.delete(closeKey(i, f));
                    } else {
                        store.put(closeKey(i, f), c.watermarkMs());
                    }
                } else {
                    store.put(closeKey(i, f), v[f]);
                }
            }
        }
        for (int i = closes.size(); i < storedCloses; i++) {
            for (int f = 0; f < CLOSE_FIELDS.length; f++) {
                store.delete(closeKey(i, f));
            }
        }
        if (closes.size() != storedCloses) {
            store.put(CLOSES, (long) closes.size());
            storedCloses = closes.size();
        }
        dirty = false;
    }
}
