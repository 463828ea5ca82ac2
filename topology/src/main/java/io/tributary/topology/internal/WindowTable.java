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
    static final long ENTRY_OVERHEAD = 2 * (8 + 8 + 4 + 4 + 4 + 1);
    /** Bytes left behind below which no compaction runs. */
    private static final long COMPACT_MIN_GARBAGE = 4L * Slabs.SLAB_BYTES;
    /** The 8-byte words after the window start that {@link #sortedSlotsUpTo} radix-sorts within a window start: 16 bytes of the group. */
    private static final int GROUP_WORDS = 2;
    /** Entries of one window start up to which {@link #sortedSlotsUpTo} sorts them by comparing their bytes. */
    private static final int INSERTION_SORT_MAX = 16;

    private Slabs slabs = new Slabs();
    private long liveBytes;
    private long garbageBytes;

    /** Per slot: the entry's reference in the {@link Slabs}. */
    private long[] refs;
    /**
     * Per slot: the key's first 8 bytes, big-endian (the window start in {@link StateLayout}'s keys), so that
     * finding and ordering the entries of closed windows reads these arrays in order, not the slabs at random.
     */
    private long[] prefixes;
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
        prefixes = new long[capacity];
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
        prefixes[i] = slabs.word(ref, 0, key.length);
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
        long[] p = prefixes;
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
                prefixes[i] = p[j];
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
     * The slots of the entries whose key's first 8 bytes, read as an unsigned big-endian number, are at most
     * {@code maxPrefix}, in unsigned key byte order (the store's order), without copying a key. Valid until the
     * table changes. The entries are found from {@link #prefixes} read in order and radix-sorted by window start
     * with their references and slots ({@link KeyRadixSort#sortWith}: no read at random of a million entries,
     * which took a third of the stream thread's samples in the windowed bench); then each window start's entries,
     * which sit near one another in the slabs, by the rest of their keys.
     */
    int[] sortedSlotsUpTo(long maxPrefix) {
        int n = 0;
        long[] starts = new long[size];
        long[] entryRefs = new long[size];
        long[] slotLengths = new long[size]; // the slot (high 32 bits) and the key's length
        long varying = 0; // the bits in which some entries' starts differ
        for (int i = 0; i < refs.length; i++) {
            if (keyLengths[i] != 0 && Long.compareUnsigned(prefixes[i], maxPrefix) <= 0) {
                starts[n] = prefixes[i];
                entryRefs[n] = refs[i];
                slotLengths[n] = (long) i << 32 | keyLengths[i];
                varying |= prefixes[i] ^ starts[0];
                n++;
            }
        }
        KeyRadixSort.sortWith(starts, entryRefs, slotLengths, n, varying);
        for (int from = 0; from < n;) {
            int to = from + 1;
            while (to < n && starts[to] == starts[from]) {
                to++;
            }
            sortAfterStart(entryRefs, slotLengths, from, to);
            from = to;
        }
        int[] out = new int[n];
        for (int i = 0; i < n; i++) {
            out[i] = (int) (slotLengths[i] >>> 32);
        }
        lastSorted = out;
        lastSortedBound = maxPrefix;
        return out;
    }

    /**
     * Sorts the entries {@code [from, to)} of one window start (their references and slots with lengths, as
     * {@link #sortedSlotsUpTo} has them) by their keys' bytes after it: a few by insertion, more by a byte-wise
     * radix sort of their next {@value #GROUP_WORDS} words ({@link KeyRadixSort#order}) that compares the bytes
     * of those equal in all of them.
     */
    private void sortAfterStart(long[] entryRefs, long[] slotLengths, int from, int to) {
        int m = to - from;
        if (m <= INSERTION_SORT_MAX) {
            for (int i = from + 1; i < to; i++) {
                long ref = entryRefs[i];
                long slotLength = slotLengths[i];
                int j = i - 1;
                for (; j >= from && compareAfterStart(entryRefs[j], (int) slotLengths[j], ref, (int) slotLength) > 0; j--) {
                    entryRefs[j + 1] = entryRefs[j];
                    slotLengths[j + 1] = slotLengths[j];
                }
                entryRefs[j + 1] = ref;
                slotLengths[j + 1] = slotLength;
            }
            return;
        }
        long[][] words = new long[GROUP_WORDS][m];
        long[] varying = new long[GROUP_WORDS];
        for (int k = 0; k < m; k++) {
            for (int w = 0; w < GROUP_WORDS; w++) {
                words[w][k] = slabs.word(entryRefs[from + k], 8 * (w + 1), (int) slotLengths[from + k]);
                varying[w] |= words[w][k] ^ words[w][0];
            }
        }
        int[] order = KeyRadixSort.order(words, varying, m, (a, b) ->
                compareAfterStart(entryRefs[from + a], (int) slotLengths[from + a], entryRefs[from + b], (int) slotLengths[from + b]));
        long[] r = new long[m];
        long[] sl = new long[m];
        for (int k = 0; k < m; k++) {
            r[k] = entryRefs[from + order[k]];
            sl[k] = slotLengths[from + order[k]];
        }
        System.arraycopy(r, 0, entryRefs, from, m);
        System.arraycopy(sl, 0, slotLengths, from, m);
    }

    private int compareAfterStart(long a, int lengthA, long b, int lengthB) {
        return slabs.compare(a, lengthA, b, lengthB, 8);
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
            if (keyLengths[j] != 0 && (flags[j] & flag) == 0 && Long.compareUnsigned(prefixes[j], maxPrefix) <= 0) {
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

    /** The slots of the entries whose key's first 8 bytes are at most {@code maxPrefix}, in slot order. */
    private int[] slotsUpTo(long maxPrefix) {
        int n = 0;
        int[] slots = new int[size];
        for (int j = 0; j < refs.length; j++) {
            if (keyLengths[j] != 0 && Long.compareUnsigned(prefixes[j], maxPrefix) <= 0) {
                slots[n++] = j;
            }
        }
        return Arrays.copyOf(slots, n);
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
