package io.tributary.sink.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One key's versions (SCD type 2) with a batch's changes placed among them by sequence: each change
 * that inserts or updates the key opens a version whose {@code __START_AT} is its sequence, and the
 * next change of the key in sequence order, whatever batch it came in, ends it ({@code __END_AT});
 * the last is current ({@code __END_AT} null) unless a delete follows it. A change whose sequence the
 * key already has (in the table, or earlier in the batch) is a duplicate and is ignored. With tracked
 * columns (TRACK HISTORY ON), a change that leaves them as the version before it had them does not open a
 * version: it is folded into that one, whose data columns are those of its latest change by sequence.
 *
 * <p>A version row is the table's data columns, then {@code __START_AT} and {@code __END_AT}; a change
 * is the data columns, then whether it deletes its key.
 */
final class HistoryTimeline {
    /**
     * @param changedVersions the versions of the table whose {@code __END_AT} (or, folding a change, data) the batch changes
     * @param postimages the changed versions as they are now (to write), in the order of {@code changedVersions}
     * @param removedVersions the versions of the table folded into the version before them (to remove)
     * @param inserts the new versions (to write)
     * @param duplicates the batch's changes ignored as duplicates of a sequence the key has
     * @param deletes the key's deletes that no version's {@code __END_AT} shows
     */
    record Result(List<Object[]> changedVersions, List<Object[]> postimages, List<Object[]> removedVersions, List<Object[]> inserts,
                  long duplicates, List<DeleteMarkers.Marker> deletes) {
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
     * @param tracked the data columns whose change opens a version (TRACK HISTORY ON); null: every change opens one
     */
    static Result place(List<Object[]> versions, List<DeleteMarkers.Marker> deletes, List<Object[]> changes, int width,
                        int sequenceIndex, int[] tracked, Comparator<Object> order, long nowMillis) {
        TreeMap<Object, Event> events = new TreeMap<>(order);
        TreeSet<Object> known = new TreeSet<>(order);
        for (Object[] v : versions) {
            events.put(v[width], new Event(v, v, 0));
        }
        for (Object[] v : versions) {
            // a version with changes folded into it: its latest change, so that a late change or delete before that one
            // (a change of the tracked columns, or a delete) ends the version there and the latest change opens the next
            if (order.compare(v[sequenceIndex], v[width]) > 0) {
                events.putIfAbsent(v[sequenceIndex], new Event(v, null, 0));
            }
        }
        for (Object[] v : versions) {
            if (v[width + 1] != null) {
                events.putIfAbsent(v[width + 1], new Event(null, null, nowMillis));
            }
        }
        for (DeleteMarkers.Marker d : deletes) {
            events.putIfAbsent(d.sequence(), new Event(null, null, d.atMillis()));
        }
        known.addAll(events.keySet());
        long duplicates = 0;
        for (Object[] c : changes) {
            Object sequence = c[sequenceIndex];
            if (!known.add(sequence)) {
                duplicates++;
            } else {
                events.put(sequence, Boolean.TRUE.equals(c[width]) ? new Event(null, null, nowMillis) : new Event(c, null, 0));
            }
        }
        List<Map.Entry<Object, Event>> timeline = new ArrayList<>(events.entrySet());
        List<Object[]> changed = new ArrayList<>();
        List<Object[]> postimages = new ArrayList<>();
        List<Object[]> removed = new ArrayList<>();
        List<Object[]> inserts = new ArrayList<>();
        List<DeleteMarkers.Marker> unshown = new ArrayList<>();
        int i = 0;
        while (i < timeline.size()) {
            Event e = timeline.get(i).getValue();
            Object start = timeline.get(i).getKey();
            if (e.delete()) {
                if (i == 0 || timeline.get(i - 1).getValue().delete()) {
                    unshown.add(new DeleteMarkers.Marker(start, e.atMillis()));
                }
                i++;
                continue;
            }
            // a version, and the changes after it that leave its tracked columns as they are (folded into it)
            Object[] data = e.data();
            int next = i + 1;
            for (; tracked != null && next < timeline.size(); next++) {
                Event f = timeline.get(next).getValue();
                if (f.delete() || !sameTracked(e.data(), f.data(), tracked)) {
                    break;
                }
                if (order.compare(f.data()[sequenceIndex], data[sequenceIndex]) > 0) {
                    data = f.data();
                }
                if (f.stored() != null) {
                    removed.add(f.stored());
                }
            }
            Object[] row = Arrays.copyOf(data, width + 2);
            row[width] = start;
            row[width + 1] = next < timeline.size() ? timeline.get(next).getKey() : null;
            if (e.stored() == null) {
                inserts.add(row);
            } else if (!Arrays.deepEquals(e.stored(), row)) {
                changed.add(e.stored());
                postimages.add(row);
            }
            i = next;
        }
        return new Result(changed, postimages, removed, inserts, duplicates, unshown);
    }

    private static boolean sameTracked(Object[] a, Object[] b, int[] tracked) {
        for (int c : tracked) {
            if (!Objects.deepEquals(a[c], b[c])) {
                return false;
            }
        }
        return true;
    }
}
