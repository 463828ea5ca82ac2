package io.tributary.sink.internal;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A batch collapsed to one change per key in a map of rows ({@link BatchChanges}): for any key,
 * the general form; a key of one integral column takes {@link ColumnChanges}.
 */
final class MapChanges implements BatchChanges {
    /** The change of a key that is a delete. */
    private static final Object[] DELETE = new Object[0];

    private final Map<Key, Object[]> changes;
    private final long deletes;

    private MapChanges(Map<Key, Object[]> changes, long deletes) {
        this.changes = changes;
        this.deletes = deletes;
    }

    /** Collapses records as they come, in Kafka order: only the latest change per key is kept. */
    static final class Collector implements BatchChanges.Collector {
        private final KeyColumns keys;
        private final int orderIndex;
        private final Comparator<Object> order;
        private final Map<Key, Object[]> changes;

        /** @param expectedRecords a hint for the map's initial size (0: unknown) */
        Collector(KeyColumns keys, int orderIndex, int expectedRecords) {
            this.keys = keys;
            this.orderIndex = orderIndex;
            this.order = orderIndex < 0 ? null : KeyColumns.valueOrder(keys.schema().field(orderIndex).type());
            this.changes = new HashMap<>(Math.max(16, expectedRecords * 4 / 3));
        }

        @Override
        public void add(RecordOrigin origin, Object[] row) {
            if (row == null) {
                changes.put(keys.ofTombstone(origin), DELETE);
                return;
            }
            Key key = keys.of(row);
            Object[] before = changes.get(key);
            if (before == null || before == DELETE || order == null || order.compare(row[orderIndex], before[orderIndex]) >= 0) {
                changes.put(key, row);
            }
        }

        @Override
        public MapChanges build() {
            long deletes = changes.values().stream().filter(r -> r == DELETE).count();
            return new MapChanges(changes, deletes);
        }
    }

    @Override
    public Change change(Key key) {
        Object[] r = changes.get(key);
        return r == null ? null : r == DELETE ? Change.DELETE : Change.UPSERT;
    }

    @Override
    public Collection<Key> keys() {
        return changes.keySet();
    }

    @Override
    public int size() {
        return changes.size();
    }

    @Override
    public long deletes() {
        return deletes;
    }

    @Override
    public List<Object[]> upserts() {
        List<Object[]> rows = new ArrayList<>(changes.size());
        for (Object[] r : changes.values()) {
            if (r != DELETE) {
                rows.add(r);
            }
        }
        return rows;
    }

    @Override
    public boolean upsertsInKeyOrder() {
        return false;
    }
}
