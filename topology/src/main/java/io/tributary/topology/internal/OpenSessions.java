package io.tributary.topology.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Spark's session windows ({@code session_window(ts, gap)}) in append mode, as an {@link OpenState}. A row
 * of event time {@code ts} is the session {@code [ts, ts + gap)}; it merges with every open session of its
 * group it overlaps or touches (Spark merges a session starting at or before another's end) into one, from
 * the earliest start to the latest end, the aggregates merged in order of start. At a batch end the
 * sessions that end at or before the watermark are written once and leave the state (Spark's
 * SessionWindowStateStoreSaveExec in append mode); until then a later row may still extend or merge them.
 *
 * <p>The open sessions live in memory, by group then start, and in the (uncached) store, keyed as
 * {@link StateLayout} keys windows (the start, then the group) with the end in the value: {@link #flush()}
 * deletes the store entries of sessions that merged away, closed or moved their start, and writes the
 * changed ones, before every commit of the task; a restart reads them all back. The watermark bounds them:
 * every session ends within a gap of its last row, and a session that ended leaves at the next batch end.
 */
final class OpenSessions implements OpenState {
    private final KeyValueStore<Bytes, byte[]> store;
    private final StateLayout layout;
    private final long gap;
    private final Map<Bytes, Group> groups = new HashMap<>();
    /** The store keys of sessions that left since the last flush, or whose start moved. */
    private final List<Bytes> deletes = new ArrayList<>();
    private final List<Session> changed = new ArrayList<>();
    private int size;

    OpenSessions(KeyValueStore<Bytes, byte[]> store, StateLayout layout, long gapMicros) {
        this.store = store;
        this.layout = layout;
        this.gap = gapMicros;
        try (KeyValueIterator<Bytes, byte[]> it = store.all()) {
            while (it.hasNext()) {
                KeyValue<Bytes, byte[]> kv = it.next();
                byte[] key = kv.key.get();
                long start = StateLayout.windowStart(key);
                Group g = group(Arrays.copyOfRange(key, 8, key.length));
                Session s = new Session(g, start, StateLayout.sessionEnd(kv.value), StateLayout.seq(kv.value),
                        layout.sessionStates(kv.value));
                s.stored = start;
                g.sessions.put(start, s);
                size++;
            }
        }
    }

    private Group group(byte[] groupBytes) {
        return groups.computeIfAbsent(Bytes.wrap(groupBytes), k -> new Group(groupBytes));
    }

    public boolean dropsLateRows() {
        return true;
    }

    public int maxSlots() {
        return 1;
    }

    public int assign(long ts, long[] out) {
        out[0] = ts;
        return 1;
    }

    public long span() {
        return gap;
    }

    public byte[] groupBytesOf(Object[] groupValues) {
        return layout.groupBytes(groupValues);
    }

    public int update(long ts, byte[] groupBytes, Object[] row, long seq) {
        Group g = group(groupBytes);
        long end = ts + gap;
        List<Session> hits = new ArrayList<>(2);
        // sessions of a group neither overlap nor touch: by descending start their ends descend too
        for (Session s : g.sessions.headMap(end, true).descendingMap().values()) {
            if (s.end < ts) {
                break;
            }
            hits.add(0, s);
        }
        Object[] rowStates = layout.zero();
        layout.add(rowStates, row);
        if (hits.isEmpty()) {
            Session s = new Session(g, ts, end, seq, rowStates);
            g.sessions.put(ts, s);
            changed(s);
            size++;
            return NEW | FIRST_IN_BATCH;
        }
        Object[] states = null;
        boolean rowMerged = false;
        boolean inBatch = false;
        for (Session s : hits) {
            if (!rowMerged && ts < s.start) {
                states = states == null ? rowStates : layout.merge(states, rowStates);
                rowMerged = true;
            }
            states = states == null ? s.states : layout.merge(states, s.states);
            end = Math.max(end, s.end);
            inBatch |= s.seq == seq;
        }
        if (!rowMerged) {
            states = layout.merge(states, rowStates);
        }
        Session survivor = hits.get(0);
        for (Session s : hits) {
            g.sessions.remove(s.start);
            if (s != survivor) {
                leave(s);
            }
        }
        survivor.start = Math.min(ts, survivor.start);
        survivor.end = end;
        survivor.seq = seq;
        survivor.states = states;
        g.sessions.put(survivor.start, survivor);
        changed(survivor);
        size -= hits.size() - 1;
        return (inBatch ? 0 : FIRST_IN_BATCH) | (hits.size() - 1) << 2;
    }

    private void changed(Session s) {
        if (!s.changed) {
            s.changed = true;
            changed.add(s);
        }
    }

    /** A session leaves the state: its store entry, if any, is deleted at the next flush. */
    private void leave(Session s) {
        s.gone = true;
        if (s.stored != null) {
            deletes.add(StateLayout.key(s.stored, s.group.bytes));
        }
    }

    public boolean overBudget() {
        return false; // the open sessions stay in memory; the watermark bounds them
    }

    public int mapSize() {
        return size;
    }

    public void flush() {
        List<KeyValue<Bytes, byte[]>> puts = new ArrayList<>();
        for (Bytes k : deletes) {
            puts.add(KeyValue.pair(k, null));
        }
        deletes.clear();
        List<KeyValue<Bytes, byte[]>> writes = new ArrayList<>();
        for (Session s : changed) {
            s.changed = false;
            if (s.gone) {
                continue;
            }
            if (s.stored != null && s.stored != s.start) {
                puts.add(KeyValue.pair(StateLayout.key(s.stored, s.group.bytes), null));
            }
            writes.add(KeyValue.pair(StateLayout.key(s.start, s.group.bytes), layout.sessionValue(s.seq, s.end, s.states)));
            s.stored = s.start;
        }
        changed.clear();
        puts.addAll(writes); // the deletes first: a new session may take the key of one that left
        if (!puts.isEmpty()) {
            store.putAll(puts);
        }
    }

    public long endBatch(Long watermarkMicros, long seq, Emit emit) {
        if (watermarkMicros == null) {
            return 0;
        }
        long purged = 0;
        for (Iterator<Group> groupIt = groups.values().iterator(); groupIt.hasNext(); ) {
            Group g = groupIt.next();
            for (Iterator<Session> it = g.sessions.values().iterator(); it.hasNext(); ) {
                Session s = it.next();
                if (s.end > watermarkMicros) {
                    break; // later sessions of the group end later
                }
                Object[] group = g.values(layout);
                Object[] results = layout.results(s.states);
                Object[] out = new Object[1 + group.length + results.length];
                out[0] = new Object[] {s.start, s.end};
                System.arraycopy(group, 0, out, 1, group.length);
                System.arraycopy(results, 0, out, 1 + group.length, results.length);
                emit.row(out);
                it.remove();
                leave(s);
                purged++;
            }
            if (g.sessions.isEmpty()) {
                groupIt.remove();
            }
        }
        size -= purged;
        return purged;
    }

    /** One group's open sessions by start. */
    private static final class Group {
        final byte[] bytes;
        final NavigableMap<Long, Session> sessions = new TreeMap<>();
        private Object[] values;

        Group(byte[] bytes) {
            this.bytes = bytes;
        }

        Object[] values(StateLayout layout) {
            if (values == null) {
                values = layout.groupValues(bytes, 0);
            }
            return values;
        }
    }

    /** One open session: {@code [start, end)}, the batch that last changed it, its aggregates' states. */
    private static final class Session {
        final Group group;
        long start;
        long end;
        long seq;
        Object[] states;
        /** The start its store entry is keyed by, or null when the store has none. */
        Long stored;
        boolean changed;
        boolean gone;

        Session(Group group, long start, long end, long seq, Object[] states) {
            this.group = group;
            this.start = start;
            this.end = end;
            this.seq = seq;
            this.states = states;
        }
    }
}
