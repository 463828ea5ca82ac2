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
    /** The 8-byte words of a key {@link #sortedSlotsUpTo} radix-sorts: the window start and 16 bytes of the group. */
    private static final int SORT_WORDS = 3;

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

    static int hash(byte[] key) {
        int h = Arrays.hashCode(key);
        return h ^ (h >>> 16);
    }

    /** The slot holding {@code key}, or -1. */
    int find(byte[] key) {
        int h = hash(key);
        int mask = refs.length - 1;
        for (int i = h & mask; ; i = (i + 1) & mask) {
            int length = keyLengths[i];
            if (length == 0) {
                return -1;
            }
            if (hashes[i] == h && length == key.length && slabs.equals(refs[i], key)) {
                return i;
            }
        }
    }

    /** Adds an entry that {@link #find} did not find; returns its slot. */
    int insert(byte[] key, byte[] value, byte entryFlags) {
        if (key.length == 0) {
            throw new IllegalArgumentException("an empty key");
        }
        if (2 * (size + 1) > refs.length) {
            grow();
        }
        int h = hash(key);
        int mask = refs.length - 1;
        int i = h & mask;
        while (keyLengths[i] != 0) {
            i = (i + 1) & mask;
        }
        long ref = slabs.reserve(key.length + value.length);
        slabs.write(ref, 0, key);
        slabs.write(ref, key.length, value);
        refs[i] = ref;
        keyLengths[i] = key.length;
        valueLengths[i] = value.length;
        hashes[i] = h;
        flags[i] = entryFlags;
        liveBytes += key.length + value.length;
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
        int mask = refs.length - 1;
        for (int j = 0; j < r.length; j++) {
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

    /** The first 8 bytes of the key at {@code ref}, big-endian (the window start in {@link StateLayout}'s keys, which are longer). */
    private long prefix(long ref) {
        return slabs.word(ref, 0, 8);
    }

    /**
     * The slots of the entries whose key's first 8 bytes, read as an unsigned big-endian number,
     * are at most {@code maxPrefix}, in unsigned key byte order (the store's order), read from
     * the slabs without copying a key. Valid until the table changes. Each entry's first
     * {@value #SORT_WORDS} 8-byte words (the window start, then the group's first bytes, zero-padded)
     * are read once and sorted by a byte-wise radix sort ({@link KeyRadixSort}: a byte that all entries
     * share costs no pass); only entries equal in all of them compare their bytes. A merge sort comparing
     * entries one pair at a time took 0.6 s for the million windows an availableNow run closed at once.
     */
    int[] sortedSlotsUpTo(long maxPrefix) {
        int n = 0;
        int[] slots = new int[size];
        long[][] words = new long[SORT_WORDS][size];
        long[] varying = new long[SORT_WORDS]; // the bits in which some entries' words differ
        for (int i = 0; i < refs.length; i++) {
            if (keyLengths[i] != 0) {
                long p = slabs.word(refs[i], 0, keyLengths[i]);
                if (Long.compareUnsigned(p, maxPrefix) <= 0) {
                    slots[n] = i;
                    words[0][n] = p;
                    for (int w = 1; w < SORT_WORDS; w++) {
                        words[w][n] = slabs.word(refs[i], 8 * w, keyLengths[i]);
                    }
                    for (int w = 0; w < SORT_WORDS; w++) {
                        varying[w] |= words[w][n] ^ words[w][0];
                    }
                    n++;
                }
            }
        }
        int[] order = KeyRadixSort.order(words, varying, n, (a, b) -> compareAfterStart(a, b, slots));
        int[] out = new int[n];
        for (int i = 0; i < n; i++) {
            out[i] = slots[order[i]];
        }
        lastSorted = out;
        lastSortedBound = maxPrefix;
        return out;
    }

    private int compareAfterStart(int a, int b, int[] slots) {
        return slabs.compare(refs[slots[a]], keyLengths[slots[a]], refs[slots[b]], keyLengths[slots[b]], 8);
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
            rehash(refs.length);
            size -= gone.length;
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
            if (keyLengths[j] != 0 && (flags[j] & flag) == 0 && Long.compareUnsigned(prefix(refs[j]), maxPrefix) <= 0) {
                freed += keyLengths[j] + valueLengths[j];
                keyLengths[j] = 0;
                n++;
            }
        }
        if (n == size) {
            clear();
        } else if (n > 0) {
            rehash(refs.length);
            size -= n;
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
            if (keyLengths[j] != 0 && Long.compareUnsigned(prefix(refs[j]), maxPrefix) <= 0) {
                slots[n++] = j;
            }
        }
        lastSorted = Arrays.copyOf(slots, n); // what removeUpTo of the same bound removes: its order does not matter
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
        long ref = refs[slot];
        int keyLength = keyLengths[slot];
        int old = valueLengths[slot];
        if (v.length == old) {
            slabs.write(ref, keyLength, v);
            return;
        }
        long moved = slabs.copyFrom(slabs, ref, keyLength, keyLength + v.length);
        slabs.write(moved, keyLength, v);
        refs[slot] = moved;
        valueLengths[slot] = v.length;
        liveBytes += v.length - old;
        garbageBytes += keyLength + old;
        compactIfWasteful();
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
