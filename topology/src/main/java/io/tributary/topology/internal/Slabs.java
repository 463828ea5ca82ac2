package io.tributary.topology.internal;

import java.util.Arrays;

/**
 * The bytes of a {@link WindowTable}'s entries: large slabs filled one after another, so a million
 * entries are a few dozen arrays for the collector, not two million small ones. A place in them is a
 * reference: its slab (high 32 bits) and its offset in that slab (low 32). Bytes are only appended;
 * what is left behind is reclaimed by copying the live entries into new slabs ({@link #copyFrom}).
 */
final class Slabs {
    static final int SLAB_BYTES = 1 << 20;

    private byte[][] slabs = new byte[8][];
    private int slabCount;
    private int slabUsed; // bytes used in the last slab

    /** Takes {@code need} bytes at the end of the slabs (a new slab when the last is full); returns their reference. */
    long reserve(int need) {
        if (slabCount == 0 || slabUsed + need > slabs[slabCount - 1].length) {
            if (slabCount == slabs.length) {
                slabs = Arrays.copyOf(slabs, slabCount * 2);
            }
            slabs[slabCount++] = new byte[Math.max(SLAB_BYTES, need)];
            slabUsed = 0;
        }
        long ref = ((long) (slabCount - 1) << 32) | slabUsed;
        slabUsed += need;
        return ref;
    }

    static int slab(long ref) {
        return (int) (ref >>> 32);
    }

    static int offset(long ref) {
        return (int) ref;
    }

    /** True if the {@code key.length} bytes at {@code ref} are {@code key}'s. */
    boolean equals(long ref, byte[] key) {
        return equals(ref, key, key.length);
    }

    /** True if the {@code length} bytes at {@code ref} are {@code key[0, length)}. */
    boolean equals(long ref, byte[] key, int length) {
        int offset = offset(ref);
        return Arrays.equals(slabs[slab(ref)], offset, offset + length, key, 0, length);
    }

    /** The slab that holds the bytes at {@code ref}, to read in place from {@link #offset}. */
    byte[] array(long ref) {
        return slabs[slab(ref)];
    }

    /** A copy of the bytes {@code [from, from + length)} after {@code ref}. */
    byte[] copy(long ref, int from, int length) {
        int offset = offset(ref) + from;
        return Arrays.copyOfRange(slabs[slab(ref)], offset, offset + length);
    }

    /** Writes {@code bytes} at {@code from} bytes after {@code ref}. */
    void write(long ref, int from, byte[] bytes) {
        write(ref, from, bytes, bytes.length);
    }

    /** Writes {@code bytes[0, length)} at {@code from} bytes after {@code ref}. */
    void write(long ref, int from, byte[] bytes, int length) {
        System.arraycopy(bytes, 0, slabs[slab(ref)], offset(ref) + from, length);
    }

    /** Appends a copy of the {@code length} bytes at {@code ref} in {@code source} (this or others); returns its reference. */
    long copyFrom(Slabs source, long ref, int length) {
        return copyFrom(source, ref, length, length);
    }

    /** Takes {@code room} bytes, the first {@code length} a copy of those at {@code ref} in {@code source}; returns their reference. */
    long copyFrom(Slabs source, long ref, int length, int room) {
        long to = reserve(room);
        System.arraycopy(source.slabs[slab(ref)], offset(ref), slabs[slab(to)], offset(to), length);
        return to;
    }

    /** The bytes {@code [from, from + 8)} at {@code ref} as an unsigned big-endian number, zero bytes past {@code length}. */
    long word(long ref, int from, int length) {
        byte[] slab = slabs[slab(ref)];
        int o = offset(ref);
        if (from + 8 <= length) { // one expression, not a loop: this runs a few times per run, mostly not yet compiled
            int at = o + from;
            return (slab[at] & 0xFFL) << 56 | (slab[at + 1] & 0xFFL) << 48 | (slab[at + 2] & 0xFFL) << 40 | (slab[at + 3] & 0xFFL) << 32
                    | (slab[at + 4] & 0xFFL) << 24 | (slab[at + 5] & 0xFFL) << 16 | (slab[at + 6] & 0xFFL) << 8 | slab[at + 7] & 0xFFL;
        }
        long v = 0;
        for (int k = from; k < from + 8; k++) {
            v = (v << 8) | (k < length ? slab[o + k] & 0xFF : 0);
        }
        return v;
    }

    /** Compares the bytes {@code [from, lengthA)} at {@code a} with {@code [from, lengthB)} at {@code b}, unsigned. */
    int compare(long a, int lengthA, long b, int lengthB, int from) {
        return Arrays.compareUnsigned(slabs[slab(a)], offset(a) + from, offset(a) + lengthA,
                slabs[slab(b)], offset(b) + from, offset(b) + lengthB);
    }

    /** Forgets every byte, keeping the first slab (of the usual size) for what comes next. */
    void clear() {
        byte[] first = slabCount > 0 && slabs[0].length == SLAB_BYTES ? slabs[0] : null;
        slabs = new byte[8][];
        slabCount = first == null ? 0 : 1;
        slabs[0] = first;
        slabUsed = 0;
    }

    /** The bytes the slabs take (live entries and those left behind). */
    long bytes() {
        long bytes = 0;
        for (int i = 0; i < slabCount; i++) {
            bytes += slabs[i].length;
        }
        return bytes;
    }
}
