package io.tributary.sink.internal;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.TreeMap;

/**
 * A batch collapsed to one change per key: the row that replaces or inserts the key, or a delete.
 * Two forms: {@link ColumnChanges} for a key of one integral column, {@link MapChanges} for any other.
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
interface BatchChanges {
    /** What a batch does to a key it holds. */
    enum Change { UPSERT, DELETE }

    /** Takes a batch's records in Kafka order and collapses them as they come. */
    interface Collector {
        /** The next record: its origin (read for a tombstone's key) and its row, or null for a tombstone. */
        void add(RecordOrigin origin, Object[] row);

        BatchChanges build();
    }

    /**
     * A collector for records in Kafka order (those of one partition, in offset order, as a keyed
     * {@link TopicReader#readKeyed} gives them): only the latest change per key is kept, so a batch
     * never holds its superseded rows, nor the records' origins.
     *
     * @param orderIndex the order column's index in the row, or -1 for Kafka order alone
     * @param expectedRecords a hint for the initial size (0: unknown)
     */
    static Collector collector(KeyColumns keys, int orderIndex, int expectedRecords) {
        return ColumnChanges.fits(keys) ? new ColumnChanges.Collector(keys, orderIndex, expectedRecords)
                : new MapChanges.Collector(keys, orderIndex, expectedRecords);
    }

    /** @param orderIndex the order column's index in the row, or -1 for Kafka order alone */
    static BatchChanges collapse(TopicBatch batch, KeyColumns keys, int orderIndex) {
        List<Object[]> rows = batch.rows();
        List<RecordOrigin> origins = batch.origins();
        Collector collector = collector(keys, orderIndex, rows.size());
        for (int i : kafkaOrder(origins, rows.size())) {
            collector.add(origins == null ? null : origins.get(i), rows.get(i));
        }
        return collector.build();
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

    /** What the batch does to {@code key}; null when the batch does not hold it. */
    Change change(Key key);

    /** The keys the batch holds (upserted or deleted). */
    Collection<Key> keys();

    /** How many keys the batch holds. */
    int size();

    long deletes();

    /** The rows to write for the batch's keys (deletes excluded), in key order when {@link #upsertsInKeyOrder()}. */
    List<Object[]> upserts();

    boolean upsertsInKeyOrder();
}
