package io.tributary.sink.internal;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.TreeMap;

/**
 * A batch collapsed to one change per key: the row that replaces or inserts the key, or a delete.
 *
 * <p>Order of the records: within a partition, offset order. Across partitions (the rows of one
 * key share a partition when the producer keys its records, so this only matters for unkeyed
 * producers): the partitions' records are merged by record timestamp, ties by partition number,
 * as Kafka Streams picks its next record; each partition's own order is kept.
 *
 * <p>Per key, in that order: a tombstone deletes the key and forgets the rows before it; a row
 * replaces the one before it, or, with an order column, replaces it only if its order value is
 * at least as large (nulls are smallest; equal values: the later record wins).
 */
final class BatchChanges {
    /** The change of a key that is a delete. */
    static final Object[] DELETE = new Object[0];

    private final Map<Key, Object[]> changes;
    private final long deletes;

    private BatchChanges(Map<Key, Object[]> changes, long deletes) {
        this.changes = changes;
        this.deletes = deletes;
    }

    /**
     * @param orderIndex the order column's index in the row, or -1 for Kafka order alone
     */
    static BatchChanges collapse(TopicBatch batch, KeyColumns keys, int orderIndex) {
        List<Object[]> rows = batch.rows();
        List<RecordOrigin> origins = batch.origins();
        Collector collector = new Collector(keys, orderIndex, rows.size());
        for (int i : kafkaOrder(origins, rows.size())) {
            collector.add(origins == null ? null : origins.get(i), rows.get(i));
        }
        return collector.build();
    }

    /**
     * Collapses records as they come, in Kafka order (those of one partition, in offset order, as a
     * keyed {@link TopicReader#readKeyed} gives them): only the latest change per key is kept, so a
     * batch never holds its superseded rows, nor the records' origins.
     */
    static final class Collector {
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

        /** The next record: its origin (read for a tombstone's key) and its row, or null for a tombstone. */
        void add(RecordOrigin origin, Object[] row) {
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

        BatchChanges build() {
            long deletes = changes.values().stream().filter(r -> r == DELETE).count();
            return new BatchChanges(changes, deletes);
        }
    }

    /** Record indexes in Kafka order (see the class doc); list order when the batch has no origins. */
    static int[] kafkaOrder(List<RecordOrigin> origins, int size) {
        int[] out = new int[size];
        if (origins == null) {
            for (int i = 0; i < size; i++) {
                out[i] = i;
            }
            return out;
        }
        Map<Integer, List<Integer>> byPartition = new TreeMap<>();
        for (int i = 0; i < size; i++) {
            byPartition.computeIfAbsent(origins.get(i).partition(), p -> new ArrayList<>()).add(i);
        }
        if (byPartition.size() <= 1) {
            for (int i = 0; i < size; i++) {
                out[i] = i;
            }
            return out;
        }
        // cursor = {partition list index, position}; heads compared by timestamp, then partition
        List<List<Integer>> lists = new ArrayList<>(byPartition.values());
        PriorityQueue<int[]> heads = new PriorityQueue<>((a, b) -> {
            RecordOrigin x = origins.get(lists.get(a[0]).get(a[1]));
            RecordOrigin y = origins.get(lists.get(b[0]).get(b[1]));
            int c = Long.compare(x.timestamp(), y.timestamp());
            return c != 0 ? c : Integer.compare(x.partition(), y.partition());
        });
        for (int l = 0; l < lists.size(); l++) {
            heads.add(new int[] {l, 0});
        }
        int n = 0;
        while (!heads.isEmpty()) {
            int[] h = heads.poll();
            List<Integer> list = lists.get(h[0]);
            out[n++] = list.get(h[1]);
            if (h[1] + 1 < list.size()) {
                heads.add(new int[] {h[0], h[1] + 1});
            }
        }
        return out;
    }

    /** Per key, its row or {@link #DELETE}. */
    Map<Key, Object[]> changes() {
        return changes;
    }

    int size() {
        return changes.size();
    }

    long deletes() {
        return deletes;
    }

    /** The rows to write for the batch's keys (deletes excluded). */
    List<Object[]> upserts() {
        List<Object[]> rows = new ArrayList<>(changes.size());
        for (Object[] r : changes.values()) {
            if (r != DELETE) {
                rows.add(r);
            }
        }
        return rows;
    }
}
