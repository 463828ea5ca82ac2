package io.tributary.topology.internal;

import java.util.Arrays;

/**
 * The open windows held in memory: an open-addressing hash table (linear probing) from a
 * window's store key to its store value ({@link StateLayout}), with two flags per entry. Each
 * entry is two byte arrays and a few slots of parallel arrays, not a {@code HashMap} node, a
 * {@code Bytes} key, an entry object and decoded states: a million open windows (the bench's
 * batch) are two million small objects for the collector to copy and trace instead of about six
 * million, and half the heap.
 */
final class WindowTable {
    static final byte IN_STORE = 1;
    static final byte DIRTY = 2;
    /** The table's heap per entry besides the two arrays' contents: their headers and the slots at half load. */
    static final long ENTRY_OVERHEAD = 2 * 16 + 2 * (4 + 4 + 4 + 1);

    private byte[][] keys;
    private byte[][] values;
    private int[] hashes;
    private byte[] flags;
    private int size;

    WindowTable() {
        allocate(1024);
    }

    private void allocate(int capacity) {
        keys = new byte[capacity][];
        values = new byte[capacity][];
        hashes = new int[capacity];
        flags = new byte[capacity];
    }

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    static int hash(byte[] key) {
        int h = Arrays.hashCode(key);
        return h ^ (h >>> 16);
    }

    /** The slot holding {@code key}, or -1. */
    int find(byte[] key) {
        int h = hash(key);
        int mask = keys.length - 1;
        for (int i = h & mask; ; i = (i + 1) & mask) {
            byte[] k = keys[i];
            if (k == null) {
                return -1;
            }
            if (hashes[i] == h && Arrays.equals(k, key)) {
                return i;
            }
        }
    }

    /** Adds an entry that {@link #find} did not find; returns its slot. */
    int insert(byte[] key, byte[] value, byte entryFlags) {
        if (2 * (size + 1) > keys.length) {
            grow();
        }
        int h = hash(key);
        int mask = keys.length - 1;
        int i = h & mask;
        while (keys[i] != null) {
            i = (i + 1) & mask;
        }
        keys[i] = key;
        values[i] = value;
        hashes[i] = h;
        flags[i] = entryFlags;
        size++;
        return i;
    }

    private void grow() {
        byte[][] k = keys;
        byte[][] v = values;
        int[] h = hashes;
        byte[] f = flags;
        allocate(k.length * 2);
        int mask = keys.length - 1;
        for (int j = 0; j < k.length; j++) {
            if (k[j] != null) {
                int i = h[j] & mask;
                while (keys[i] != null) {
                    i = (i + 1) & mask;
                }
                keys[i] = k[j];
                values[i] = v[j];
                hashes[i] = h[j];
                flags[i] = f[j];
            }
        }
    }

    /** Removes the entry at {@code slot}, moving later entries of its probe run back (no tombstones). */
    void remove(int slot) {
        int mask = keys.length - 1;
        int gap = slot;
        keys[gap] = null;
        values[gap] = null;
        size--;
        for (int i = (gap + 1) & mask; keys[i] != null; i = (i + 1) & mask) {
            int home = hashes[i] & mask;
            // move the entry at i into the gap if its home is not in (gap, i] (cyclically)
            boolean stays = gap <= i ? (gap < home && home <= i) : (gap < home || home <= i);
            if (!stays) {
                keys[gap] = keys[i];
                values[gap] = values[i];
                hashes[gap] = hashes[i];
                flags[gap] = flags[i];
                keys[i] = null;
                values[i] = null;
                gap = i;
            }
        }
    }

    /** Empties the table, keeping a capacity near its last size. */
    void clear() {
        int capacity = Math.max(1024, Integer.highestOneBit(Math.max(1, size)) * 2);
        if (capacity < keys.length / 4) {
            allocate(capacity);
        } else {
            Arrays.fill(keys, null);
            Arrays.fill(values, null);
        }
        size = 0;
    }

    /** The number of slots; entries sit at the slots whose {@link #key} is not null. */
    int capacity() {
        return keys.length;
    }

    byte[] key(int slot) {
        return keys[slot];
    }

    byte[] value(int slot) {
        return values[slot];
    }

    void value(int slot, byte[] v) {
        values[slot] = v;
    }

    boolean has(int slot, byte flag) {
        return (flags[slot] & flag) != 0;
    }

    void set(int slot, byte flag) {
        flags[slot] |= flag;
    }
}
