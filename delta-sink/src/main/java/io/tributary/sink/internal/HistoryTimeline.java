package io.tributary.sink.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One key's versions (SCD type 2) with a batch's changes placed among them by sequence: each change
 * that inserts or updates the key opens a version whose {@code __START_AT} is its sequence, and the
 * next change of the key in sequence order, whatever batch it came in, ends it ({@code __END_AT});
 * the last is current ({@code __END_AT} null) unless a delete follows it. A change whose sequence the
 * key already has (in the table, or earlier in the batch) is a duplicate and is ignored.
 *
 * <p>A version row is the table's data columns, then {@code __START_AT} and {@code __END_AT}; a change
 * is the data columns, then whether it deletes its key.
 */
final class HistoryTimeline {
    /**
     * @param changedVersions the versions of the table whose {@code __END_AT} the batch changes (to replace)
     * @param postimages the changed versions with their new end (to write), in the order of {@code changedVersions}
     * @param inserts the new versions (to write)
     * @param duplicates the batch's changes ignored as duplicates of a sequence the key has
     * @param deletes the key's deletes that no version's {@code __END_AT} shows
     */
    record Result(List<Object[]> changedVersions, List<Object[]> postimages, List<Object[]> inserts, long duplicates,
                  List<HistoryDeletes.Delete> deletes) {
    }

    /** A change of the key: a version (from the table or the batch), or a delete. */
    private record Event(Object[] data, Object[] stored, long atMillis) {
        boolean delete() {
            return data == null;
        }
    }

    private HistoryTimeline() {
    }

    /**
     * @param versions the key's rows in the table
     * @param deletes the key's deletes that its rows do not show
     * @param changes the batch's changes of the key, in Kafka order
     * @param width how many data columns a row has (before {@code __START_AT})
     * @param sequenceIndex the sequence column among them
     */
    static Result place(List<Object[]> versions, List<HistoryDeletes.Delete> deletes, List<Object[]> changes, int width,
                        int sequenceIndex, Comparator<Object> order, long nowMillis) {
        TreeMap<Object, Event> events = new TreeMap<>(order);
        for (Object[] v : versions) {
            events.put(v[width], new Event(v, v, 0));
        }
        for (Object[] v : versions) {
            if (v[width + 1] != null) {
                events.putIfAbsent(v[width + 1], new Event(null, null, nowMillis));
            }
        }
        for (HistoryDeletes.Delete d : deletes) {
            events.putIfAbsent(d.sequence(), new Event(null, null, d.atMillis()));
        }
        long duplicates = 0;
        for (Object[] c : changes) {
            Object sequence = c[sequenceIndex];
            if (events.containsKey(sequence)) {
                duplicates++;
            } else {
                events.put(sequence, Boolean.TRUE.equals(c[width]) ? new Event(null, null, nowMillis) : new Event(c, null, 0));
            }
        }
        List<Map.Entry<Object, Event>> timeline = new ArrayList<>(events.entrySet());
        List<Object[]> changed = new ArrayList<>();
        List<Object[]> postimages = new ArrayList<>();
        List<Object[]> inserts = new ArrayList<>();
        List<HistoryDeletes.Delete> unshown = new ArrayList<>();
        for (int i = 0; i < timeline.size(); i++) {
            Event e = timeline.get(i).getValue();
            Object start = timeline.get(i).getKey();
            if (e.delete()) {
                if (i == 0 || timeline.get(i - 1).getValue().delete()) {
                    unshown.add(new HistoryDeletes.Delete(start, e.atMillis()));
                }
                continue;
            }
            Object end = i + 1 < timeline.size() ? timeline.get(i + 1).getKey() : null;
            if (e.stored() != null && Objects.equals(e.stored()[width + 1], end)) {
                continue;
            }
            Object[] row = Arrays.copyOf(e.data(), width + 2);
            row[width] = start;
            row[width + 1] = end;
            if (e.stored() != null) {
                changed.add(e.stored());
                postimages.add(row);
            } else {
                inserts.add(row);
            }
        }
        return new Result(changed, postimages, inserts, duplicates, unshown);
    }
}
