package io.tributary.topology.internal;

import java.util.Arrays;

/**
 * A set of keys (byte strings), each with a long and whether it is in the store yet, held in a few
 * primitive arrays: no object per key, so a million keys are a handful of arrays to the garbage
 * collector rather than millions of objects to trace and copy. Open addressing with linear probing;
 * a removed key keeps its slot until {@link #compact()}.
 */
final class KeyTable {
    static final byte REMOVED = 0;
    static final byte UNSTORED = 1;
    static final byte STORED = 2;

    private byte[] arena = new byte[1 << 16];
    private int arenaSize;
    private int[] start = new int[1024];
    private int[] length = new int[1024];
    private int[] hash = new int[1024];
    private long[] value = new long[1024];
    private byte[] state = new byte[1024];
    /** Entries appended, removed ones included. */
    private int entries;
    private int live;
    /** Entry index + 1, 0 for an empty slot; a power of two, at most half full. */
    private int[] slots = new int[2048];

    int size() {
        return live;
    }

    int entries() {
        return entries;
    }

    /** The heap the table takes, about. */
    long bytes() {
        return arena.length + (long) start.length * (4 + 4 + 4 + 8 + 1) + (long) slots.length * 4;
    }

    private static int hashOf(byte[] key) {
        int h = Arrays.hashCode(key);
        return h ^ (h >>> 16);
    }

    /** The entry of {@code key}, or -1. */
    int find(byte[] key) {
        int h = hashOf(key);
        int mask = slots.length - 1;
        for (int i = h & mask; slots[i] != 0; i = (i + 1) & mask) {
            int e = slots[i] - 1;
            if (hash[e] == h && state[e] != REMOVED && length[e] == key.length
                    && Arrays.equals(arena, start[e], start[e] + length[e], key, 0, key.length)) {
                return e;
            }
        }
        return -1;
    }

    /** Adds {@code key}, not in the table, with {@code v} and state {@code s}. */
    void add(byte[] key, long v, byte s) {
        if (entries == start.length) {
            int n = start.length * 2;
            start = Arrays.copyOf(start, n);
            length = Arrays.copyOf(length, n);
            hash = Arrays.copyOf(hash, n);
            value = Arrays.copyOf(value, n);
            state = Arrays.copyOf(state, n);
        }
        if (arenaSize + key.length > arena.length) {
            arena = Arrays.copyOf(arena, Math.max(arena.length * 2, arenaSize + key.length));
        }
        int e = entries++;
        System.arraycopy(key, 0, arena, arenaSize, key.length);
        start[e] = arenaSize;
        length[e] = key.length;
        arenaSize += key.length;
        hash[e] = hashOf(key);
        value[e] = v;
        state[e] = s;
        live++;
        if (entries * 2 > slots.length) {
            rehash(slots.length * 2);
        } else {
            place(e);
        }
    }

    private void place(int e) {
        int mask = slots.length - 1;
        int i = hash[e] & mask;
        while (slots[i] != 0) {
            i = (i + 1) & mask;
        }
        slots[i] = e + 1;
    }

    private void rehash(int n) {
        slots = new int[n];
        for (int e = 0; e < entries; e++) {
            place(e);
        }
    }

    long value(int e) {
        return value[e];
    }

    byte state(int e) {
        return state[e];
    }

    void state(int e, byte s) {
        if (s == REMOVED && state[e] != REMOVED) {
            live--;
        }
        state[e] = s;
    }

    byte[] key(int e) {
        return Arrays.copyOfRange(arena, start[e], start[e] + length[e]);
    }

    /** Drops the removed entries: the live ones are copied to fresh arrays, in order. */
    void compact() {
        KeyTable t = new KeyTable();
        for (int e = 0; e < entries; e++) {
            if (state[e] != REMOVED) {
                t.add(key(e), value[e], state[e]);
            }
        }
        arena = t.arena;
        arenaSize = t.arenaSize;
        start = t.start;
        length = t.length;
        hash = t.hash;
        value = t.value;
        state = t.state;
        entries = t.entries;
        live = t.live;
        slots = t.slots;
    }
}
