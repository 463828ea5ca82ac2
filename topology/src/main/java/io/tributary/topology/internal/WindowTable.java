package io.tributary.topology.internal;

import java.util.Arrays;

/**
 * The open windows held in memory: an open-addressing hash table (linear probing) from a
 * window's store key to its store value ({@link StateLayout}), with two flags per entry. The
 * entries' bytes sit one after another in large slabs (an entry's key, then its value), and a
 * slot is a few parallel primitive arrays ({@link Slabs}), so a million open windows (the bench's batch) are a
 * few dozen arrays for the collector to copy and trace, not two million small ones (measured: 20
 * collections with 1.6 s of pauses, four of them full, while the aggregation held them as arrays).
 * {@link #key} and {@link #value} return copies; {@link #value(int, byte[])} writes a value of
 * the same length in place and appends any other; the bytes replaced values leave behind are
 * reclaimed when they outgrow the live ones ({@link #compact}), those of removed entries at
 * {@link #clear}.
 */
final class WindowTable {
    static final byte IN_STORE = 1;
    static final byte DIRTY = 2;
    /** The table's heap per entry besides its bytes in the slabs: the slots at half load. */
    static final long ENTRY_OVERHEAD = 2 * (8 + 4 + 4 + 4 + 1);
    /** Bytes left behind below which no compaction runs. */
    private static final long COMPACT_MIN_GARBAGE = 4L * Slabs.SLAB_BYTES;

    private Slabs slabs = new Slabs();
    private long liveBytes;
    private long garbageBytes;

    /** Per slot: the entry's reference in the {@link Slabs}. */
    private long[] refs;
    /** Per slot: the key's length, 0 for an empty slot (keys are never empty). */
    private int[] keyLengths;
    private int[] valueLengths;
    private int[] hashes;
    private byte[] flags;
    private int size;
    /**
     * The last {@link #sortedSlotsUpTo}'s answer and bound, while the table keeps its slots (no
     * insert, growth or removal since): the {@link #removeUpTo} of the same bound that follows a
     * batch's emission removes these slots without reading every key again.
     */
    private int[] lastSorted;
    private long lastSortedBound;

    WindowTable() {
        allocate(1024);
    }

    private void allocate(int capacity) {
        lastSorted = null;
        refs = new long[capacity];
        keyLengths = new int[capacity];
        valueLengths = new int[capacity];
        hashes = new int[capacity];
        flags = new byte[capacity];
    }

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** {@code Arrays.hashCode} of {@code key[0, length)}, high bits folded in. */
    static int hash(byte[] key, int length) {
        int h = 1;
        for (int i = 0; i < length; i++) {
            h = 31 * h + key[i];
        }
        return h ^ (h >>> 16);
    }

    int find(byte[] key) {
        return find(key, key.length);
    }

    /** The slot holding the key {@code key[0, keyLength)}, or -1: a key built in a reused buffer. */
    int find(byte[] key, int keyLength) {
        int h = hash(key, keyLength);
        int mask = refs.length - 1;
        for (int i = h & mask; ; i = (i + 1) & mask) {
            int length = keyLengths[i];
            if (length == 0) {
                return -1;
            }
            if (hashes[i] == h && length == keyLength && slabs.equals(refs[i], key, keyLength)) {
                return i;
            }
        }
    }

    /** Adds an entry that {@link #find} did not find; returns its slot. */
    int insert(byte[] key, byte[] value, byte entryFlags) {
        return insert(key, key.length, value, value.length, entryFlags);
    }

    /** As {@link #insert(byte[], byte[], byte)}, the key {@code key[0, keyLength)} and the value {@code value[0, valueLength)}. */
    int insert(byte[] key, int keyLength, byte[] value, int valueLength, byte entryFlags) {
        if (keyLength == 0) {
            throw new IllegalArgumentException("an empty key");
        }
        if (2 * (size + 1) > refs.length) {
            grow();
        }
        int h = hash(key, keyLength);
        int mask = refs.length - 1;
        int i = h & mask;
        while (keyLengths[i] != 0) {
            i = (i + 1) & mask;
        }
        long ref = slabs.reserve(keyLength + valueLength);
        slabs.write(ref, 0, key, keyLength);
        slabs.write(ref, keyLength, value, valueLength);
        refs[i] = ref;
        keyLengths[i] = keyLength;
        valueLengths[i] = valueLength;
        hashes[i] = h;
        flags[i] = entryFlags;
        liveBytes += keyLength + valueLength;
        size++;
        lastSorted = null;
        return i;
    }

    private void grow() {
        rehash(refs.length * 2);
    }

    /** Places the entries again in {@code capacity} slots (their bytes stay where they are). */
    private void rehash(int capacity) {
        long[] r = refs;
        int[] k = keyLengths;
        int[] v = valueLengths;
        int[] h = hashes;
        byte[] f = flags;
        allocate(capacity);
        place(r, k, v, h, f, r.length);
    }

    /**
     * Places the {@link #size} entries left after a removal again in the same slots: they are copied
     * aside into arrays of their number, not of the table's capacity (a closing leaves few of a
     * million), the slots emptied, and each inserted again.
     */
    private void placeAgain() {
        lastSorted = null;
        long[] r = new long[size];
        int[] k = new int[size];
        int[] v = new int[size];
        int[] h = new int[size];
        byte[] f = new byte[size];
        int n = 0;
        for (int j = 0; j < refs.length; j++) {
            if (keyLengths[j] != 0) {
                r[n] = refs[j];
                k[n] = keyLengths[j];
                v[n] = valueLengths[j];
                h[n] = hashes[j];
                f[n++] = flags[j];
            }
        }
        Arrays.fill(keyLengths, 0);
        place(r, k, v, h, f, n);
    }

    /** Inserts the entries {@code [0, n)} of the arrays given whose key length is not 0 into the empty slots. */
    private void place(long[] r, int[] k, int[] v, int[] h, byte[] f, int n) {
        int mask = refs.length - 1;
        for (int j = 0; j < n; j++) {
            if (k[j] != 0) {
                int i = h[j] & mask;
                while (keyLengths[i] != 0) {
                    i = (i + 1) & mask;
                }
                refs[i] = r[j];
                keyLengths[i] = k[j];
                valueLengths[i] = v[j];
                hashes[i] = h[j];
                flags[i] = f[j];
            }
        }
    }

    /** Empties the table, keeping a capacity near its last size, and gives back the slabs but one. */
    void clear() {
        int capacity = Math.max(1024, Integer.highestOneBit(Math.max(1, size)) * 2);
        if (capacity < refs.length / 4) {
            allocate(capacity);
        } else {
            Arrays.fill(keyLengths, 0);
        }
        slabs.clear();
        liveBytes = 0;
        garbageBytes = 0;
        size = 0;
        lastSorted = null;
    }

    /**
     * The slots of the entries whose key's first 8 bytes, read as an unsigned big-endian number,
     * are at most {@code maxPrefix}, in unsigned key byte order (the store's order), read from
     * the slabs without copying a key ({@link KeyRadixSort#slotsInKeyOrder}). Valid until the table changes.
     */
    int[] sortedSlotsUpTo(long maxPrefix) {
        int[] out = KeyRadixSort.slotsInKeyOrder(this, maxPrefix);
        lastSorted = out;
        lastSortedBound = maxPrefix;
        return out;
    }

    /** The bytes {@code [from, from + 8)} of the key at {@code slot} as an unsigned big-endian number, zero bytes past its end. */
    long word(int slot, int from) {
        return slabs.word(refs[slot], from, keyLengths[slot]);
    }

    /** Compares the keys at two slots by their bytes after the window start, unsigned. */
    int compareAfterStart(int a, int b) {
        return slabs.compare(refs[a], keyLengths[a], refs[b], keyLengths[b], 8);
    }

    /**
     * Removes every entry whose key's first 8 bytes are at most {@code maxPrefix} (as in
     * {@link #sortedSlotsUpTo}): the table is emptied ({@link #clear}) when that is all of them,
     * else the others are placed again in one pass, their bytes left where they are. Returns how
     * many of the removed entries had no {@code flag}.
     */
    int removeUpTo(long maxPrefix, byte flag) {
        int[] gone = lastSorted != null && lastSortedBound == maxPrefix ? lastSorted : slotsUpTo(maxPrefix);
        int withoutFlag = 0;
        long freed = 0;
        for (int slot : gone) {
            withoutFlag += (flags[slot] & flag) == 0 ? 1 : 0;
            freed += keyLengths[slot] + valueLengths[slot];
        }
        if (gone.length == size) {
            clear();
        } else if (gone.length > 0) {
            for (int slot : gone) {
                keyLengths[slot] = 0; // an empty slot: placing the others again leaves it out
            }
            size -= gone.length;
            placeAgain();
            liveBytes -= freed;
            garbageBytes += freed;
        }
        return withoutFlag;
    }

    /**
     * Removes the entries whose key's first 8 bytes are at most {@code maxPrefix} and whose flags lack
     * {@code flag} (the windows only in the map, with {@link #IN_STORE}); returns how many it removed.
     */
    int removeWithoutUpTo(long maxPrefix, byte flag) {
        int n = 0;
        long freed = 0;
        for (int j = 0; j < refs.length; j++) {
            if (keyLengths[j] != 0 && (flags[j] & flag) == 0 && Long.compareUnsigned(word(j, 0), maxPrefix) <= 0) {
                freed += keyLengths[j] + valueLengths[j];
                keyLengths[j] = 0;
                n++;
            }
        }
        if (n == size) {
            clear();
        } else if (n > 0) {
            size -= n;
            placeAgain();
            liveBytes -= freed;
            garbageBytes += freed;
        }
        return n;
    }

    /** The slots of the entries whose key's first 8 bytes are at most {@code maxPrefix}, in slot order; valid until the table changes. */
    int[] slotsUpTo(long maxPrefix) {
        int n = 0;
        int[] slots = new int[size];
        for (int j = 0; j < refs.length; j++) {
            if (keyLengths[j] != 0 && Long.compareUnsigned(word(j, 0), maxPrefix) <= 0) {
                slots[n++] = j;
            }
        }
        // what removeUpTo of the same bound removes: its order does not matter (a closing of every entry copies none)
        lastSorted = n == slots.length ? slots : Arrays.copyOf(slots, n);
        lastSortedBound = maxPrefix;
        return lastSorted;
    }

    /** The number of slots; entries sit at the slots whose {@link #key} is not null. */
    int capacity() {
        return refs.length;
    }

    /** A copy of the key at {@code slot}, or null for an empty slot. */
    byte[] key(int slot) {
        int length = keyLengths[slot];
        if (length == 0) {
            return null;
        }
        return slabs.copy(refs[slot], 0, length);
    }

    /** A copy of the value at {@code slot} (an entry's). */
    byte[] value(int slot) {
        return slabs.copy(refs[slot], keyLengths[slot], valueLengths[slot]);
    }

    int valueLength(int slot) {
        return valueLengths[slot];
    }

    /** Replaces the value at {@code slot}: in place when it has the old one's length. */
    void value(int slot, byte[] v) {
        value(slot, v, v.length);
    }

    /** Replaces the value at {@code slot} with {@code v[0, length)}: in place when it has the old one's length. */
    void value(int slot, byte[] v, int length) {
        long ref = refs[slot];
        int keyLength = keyLengths[slot];
        int old = valueLengths[slot];
        if (length == old) {
            slabs.write(ref, keyLength, v, length);
            return;
        }
        long moved = slabs.copyFrom(slabs, ref, keyLength, keyLength + length);
        slabs.write(moved, keyLength, v, length);
        refs[slot] = moved;
        valueLengths[slot] = length;
        liveBytes += length - old;
        garbageBytes += keyLength + old;
        compactIfWasteful();
    }

    /**
     * The slab that holds the entry at {@code slot}, to read its key at {@link #keyOffset} and its value at
     * {@link #valueOffset} in place; valid until the table changes.
     */
    byte[] slab(int slot) {
        return slabs.array(refs[slot]);
    }

    int keyOffset(int slot) {
        return Slabs.offset(refs[slot]);
    }

    int keyLength(int slot) {
        return keyLengths[slot];
    }

    int valueOffset(int slot) {
        return Slabs.offset(refs[slot]) + keyLengths[slot];
    }

    boolean has(int slot, byte flag) {
        return (flags[slot] & flag) != 0;
    }

    void set(int slot, byte flag) {
        flags[slot] |= flag;
    }

    /** The heap the entries take (their slots and bytes) and the bytes left behind in the slabs: what a budget counts. */
    long bytes() {
        return ENTRY_OVERHEAD * size + liveBytes + garbageBytes;
    }

    /** The bytes of replaced values and removed entries still in the slabs, until a compaction or {@link #clear}. */
    long garbageBytes() {
        return garbageBytes;
    }

    /** The bytes the slabs take (live entries and those left behind). */
    long slabBytes() {
        return slabs.bytes();
    }

    private void compactIfWasteful() {
        if (garbageBytes > COMPACT_MIN_GARBAGE && garbageBytes > liveBytes) {
            compact();
        }
    }

    /** Copies the live entries into new slabs, leaving the bytes of replaced values and removed entries behind. */
    void compact() {
        Slabs old = slabs;
        slabs = new Slabs();
        for (int i = 0; i < refs.length; i++) {
            if (keyLengths[i] != 0) {
                refs[i] = slabs.copyFrom(old, refs[i], keyLengths[i] + valueLengths[i]);
            }
        }
        garbageBytes = 0;
    }
}
