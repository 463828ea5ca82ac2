package io.tributary.sink.internal;

import io.tributary.schema.DataType;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.AbstractCollection;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collection;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;

/**
 * A batch collapsed to one change per key ({@link BatchChanges}) that grew past a bound of keys: each time the
 * keys in memory ({@link ColumnChanges}) reach the bound, they are written to a local spill file in key order (a
 * run) and memory starts again empty; at the commit, the runs are merged by key, in the order they were written, as
 * the records would have collapsed in memory. Only the merge's cursors are in memory while the rows are written;
 * the keys' index ({@link #keys()}, {@link #change}), 8 bytes a key, is built only when a table exists to probe.
 * The runs ({@link SpillingCollector}) are in a {@link SpillFolder}, deleted by {@link #close()}.
 */
final class SpilledChanges implements BatchChanges, AutoCloseable {
    static final int DELETED = 1;
    static final int RESET = 2;
    static final int NULL_KEY = 4;

    private final List<Path> runs;
    private final Path folder;
    private final SpillRows codec;
    private final int keyIndex;
    private final boolean intKey;
    private final int orderIndex;
    private final Comparator<Object> order;
    private final java.util.Set<Merge> merges = java.util.concurrent.ConcurrentHashMap.newKeySet(); // closed by close()
    private volatile int size = -1;
    private int nullKeys; // 1 when the batch holds the null key
    private long deletes;
    private int upserts;
    private long[] indexKeys; // the keys in order (the null key aside), once asked for
    private BitSet indexDeleted;
    private Change nullKey;

    /** The changes of {@code runs} (in the order written) of rows of {@code keys}, in {@code folder}. */
    SpilledChanges(List<Path> runs, Path folder, SpillRows codec, KeyColumns keys, int orderIndex) {
        this.runs = List.copyOf(runs);
        this.folder = folder;
        this.codec = codec;
        DataType.Kind kind = keys.keySchema().field(0).type().kind();
        this.keyIndex = keys.schema().indexOf(keys.keySchema().field(0).name());
        this.intKey = kind == DataType.Kind.INT || kind == DataType.Kind.DATE;
        this.orderIndex = orderIndex;
        this.order = orderIndex < 0 ? null : KeyColumns.valueOrder(keys.schema().field(orderIndex).type());
    }

    /** Counts the keys and deletes, once. */
    private synchronized void count() {
        if (size >= 0) {
            return;
        }
        int count = 0;
        long deleted = 0;
        boolean withNullKey = false;
        try (Merge m = new Merge(false)) {
            while (m.next()) {
                count++;
                deleted += m.row == null ? 1 : 0;
                withNullKey |= m.nullKeyNow;
            }
        }
        nullKeys = withNullKey ? 1 : 0;
        deletes = deleted;
        upserts = (int) (count - deleted);
        size = count;
    }

    /** Writes the runs merged as one run to {@code out} (the first run: what it deletes needs no {@link #RESET}). */
    void writeMerged(DataOutputStream out) throws IOException {
        try (Merge m = new Merge(true)) {
            while (m.next()) {
                out.writeByte((m.row == null ? DELETED : 0) | (m.nullKeyNow ? NULL_KEY : 0));
                if (!m.nullKeyNow) {
                    out.writeLong(m.key);
                }
                if (m.row != null) {
                    codec.write(out, m.row);
                }
            }
        }
    }

    /** The runs merged by key: each key once, with its row, or a null row when the batch deletes it. */
    private final class Merge implements AutoCloseable {
        private final PriorityQueue<SpillRun> heads = new PriorityQueue<>((a, b) -> {
            int c = a.nullKey != b.nullKey ? (a.nullKey ? -1 : 1) : a.nullKey ? 0 : Long.compare(a.key, b.key);
            return c != 0 ? c : Integer.compare(a.number, b.number);
        });
        private final List<SpillRun> cursors = new ArrayList<>();
        boolean nullKeyNow;
        long key;
        Object[] row;

        /** @param rows whether the rows are read (else skipped: the keys and what the batch does to each alone) */
        Merge(boolean rows) {
            merges.add(this);
            try {
                for (int i = 0; i < runs.size(); i++) {
                    SpillRun r = new SpillRun(i, runs.get(i), codec, rows);
                    cursors.add(r);
                    if (r.advance()) {
                        heads.add(r);
                    }
                }
            } catch (IOException e) {
                close();
                throw failure(e);
            }
        }

        /** Moves to the next key; false at the end. */
        boolean next() {
            SpillRun first = heads.poll();
            if (first == null) {
                return false;
            }
            nullKeyNow = first.nullKey;
            key = first.key;
            boolean deleted = false;
            Object[] value = null;
            SpillRun r = first;
            try {
                while (true) {
                    if ((r.flags & DELETED) != 0) {
                        deleted = true;
                        value = null;
                    } else if (deleted || value == null || (r.flags & RESET) != 0 || order == null || value == SpillRun.SKIPPED
                            || order.compare(r.row[orderIndex], value[orderIndex]) >= 0) {
                        deleted = false;
                        value = r.row;
                    }
                    if (r.advance()) {
                        heads.add(r);
                    }
                    SpillRun peek = heads.peek();
                    if (peek == null || peek.nullKey != nullKeyNow || (!nullKeyNow && peek.key != key)) {
                        break;
                    }
                    r = heads.poll();
                }
            } catch (IOException e) {
                throw failure(e);
            }
            row = value;
            return true;
        }

        @Override
        public void close() {
            merges.remove(this);
            for (SpillRun r : cursors) {
                try {
                    r.in.close();
                } catch (IOException e) {
                    // read only: nothing lost
                }
            }
        }

        private UncheckedIOException failure(IOException e) {
            return new UncheckedIOException("cannot read an upsert batch's spilled keys in " + folder + ": " + e.getMessage(), e);
        }
    }

    private Object keyValue(long k) {
        return intKey ? (Object) (int) k : (Object) k;
    }

    /** The keys in order and which the batch deletes, read from the runs once. */
    private synchronized void index() {
        if (indexKeys != null) {
            return;
        }
        count();
        long[] k = new long[size - nullKeys]; // 8 bytes a key, once: no array grown or cut to size
        BitSet d = new BitSet();
        int n = 0;
        try (Merge m = new Merge(false)) {
            while (m.next()) {
                if (m.nullKeyNow) {
                    nullKey = m.row == null ? Change.DELETE : Change.UPSERT;
                    continue;
                }
                if (m.row == null) {
                    d.set(n);
                }
                k[n++] = m.key;
            }
        }
        indexKeys = k;
        indexDeleted = d;
    }

    @Override
    public Change change(Key key) {
        index();
        Object v = key.first();
        if (v == null) {
            return nullKey;
        }
        int at = Arrays.binarySearch(indexKeys, ((Number) v).longValue());
        return at < 0 ? null : indexDeleted.get(at) ? Change.DELETE : Change.UPSERT;
    }

    @Override
    public Collection<Key> keys() {
        index();
        return new AbstractCollection<>() {
            @Override
            public Iterator<Key> iterator() {
                return new Iterator<>() {
                    private int i = nullKey != null ? -1 : 0;

                    @Override
                    public boolean hasNext() {
                        return i < indexKeys.length;
                    }

                    @Override
                    public Key next() {
                        if (!hasNext()) {
                            throw new NoSuchElementException();
                        }
                        int at = i++;
                        return Key.single(at < 0 ? null : keyValue(indexKeys[at]));
                    }
                };
            }

            @Override
            public int size() {
                return SpilledChanges.this.size();
            }
        };
    }

    @Override
    public int size() {
        count();
        return size;
    }

    @Override
    public long deletes() {
        count();
        return deletes;
    }

    /** The rows read from the runs as they are asked for, in key order: a list to walk in order ({@link SortedFiles} does). */
    @Override
    public List<Object[]> upserts() {
        return new Rows();
    }

    @Override
    public boolean upsertsInKeyOrder() {
        return true;
    }

    /** Closes the merges still open and deletes the runs. */
    @Override
    public void close() {
        for (Merge m : List.copyOf(merges)) {
            m.close();
        }
        SpillFolder.delete(folder);
    }

    /**
     * The upserted rows, in key order, read from the runs in order: {@link #iterator()} merges them anew, {@link #get}
     * walks one merge forward (and starts it again for an index behind it), so rows are read in order, not held.
     */
    final class Rows extends AbstractList<Object[]> {
        private Merge walk;
        private int at = -1;

        @Override
        public Iterator<Object[]> iterator() {
            Merge m = new Merge(true);
            return new Iterator<>() {
                private Object[] next = advance();

                private Object[] advance() {
                    while (m.next()) {
                        if (m.row != null) {
                            return withKey(m);
                        }
                    }
                    m.close();
                    return null;
                }

                @Override
                public boolean hasNext() {
                    return next != null;
                }

                @Override
                public Object[] next() {
                    if (next == null) {
                        throw new NoSuchElementException();
                    }
                    Object[] out = next;
                    next = advance();
                    return out;
                }
            };
        }

        @Override
        public synchronized Object[] get(int i) {
            count();
            if (i < 0 || i >= upserts) {
                throw new IndexOutOfBoundsException(i);
            }
            if (walk == null || i <= at) {
                if (walk != null) {
                    walk.close();
                }
                walk = new Merge(true);
                at = -1;
            }
            while (at < i) {
                walk.next();
                if (walk.row != null) {
                    at++;
                }
            }
            Object[] out = withKey(walk);
            if (at == upserts - 1) {
                walk.close();
                walk = null;
            }
            return out;
        }

        @Override
        public int size() {
            count();
            return upserts;
        }

        private Object[] withKey(Merge m) {
            Object[] row = m.row; // read for this entry alone
            row[keyIndex] = m.nullKeyNow ? null : keyValue(m.key);
            return row;
        }
    }
}
