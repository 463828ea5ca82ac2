package io.tributary.expressions;

/**
 * Spark's Murmur3 x86_32 ({@code Murmur3_x86_32}), the one copy of its mixing: Spark's {@code hash} of a row feeds each value
 * to it with the previous hash as seed, and Spark's {@code OpenHashSet} mixes a key's Java hash code with it (seed 0) to
 * choose the key's slot.
 */
public final class Murmur3 {
    private Murmur3() {
    }

    /** The hash of one int (Spark's {@code hashInt}). */
    public static int hashInt(int v, int seed) {
        return fmix(mixH1(seed, mixK1(v)), 4);
    }

    /** The hash of one long, its low word first (Spark's {@code hashLong}). */
    public static int hashLong(long v, int seed) {
        int h1 = mixH1(seed, mixK1((int) v));
        h1 = mixH1(h1, mixK1((int) (v >>> 32)));
        return fmix(h1, 8);
    }

    /**
     * The hash of bytes as Spark's {@code hashUnsafeBytes} gives it: the whole little-endian words, then each byte left
     * over mixed as a word of its own (a signed byte, Spark's legacy tail, which {@code hash} and {@code UTF8String} keep).
     */
    public static int hashBytes(byte[] b, int seed) {
        int aligned = b.length - b.length % 4;
        int h1 = seed;
        for (int i = 0; i < aligned; i += 4) {
            h1 = mixH1(h1, mixK1((b[i] & 0xFF) | (b[i + 1] & 0xFF) << 8 | (b[i + 2] & 0xFF) << 16 | b[i + 3] << 24));
        }
        for (int i = aligned; i < b.length; i++) {
            h1 = mixH1(h1, mixK1(b[i]));
        }
        return fmix(h1, b.length);
    }

    /** One word of input, mixed before it meets the hash. */
    public static int mixK1(int k1) {
        return Integer.rotateLeft(k1 * 0xcc9e2d51, 15) * 0x1b873593;
    }

    /** The hash so far with one mixed word. */
    public static int mixH1(int h1, int k1) {
        return Integer.rotateLeft(h1 ^ k1, 13) * 5 + 0xe6546b64;
    }

    /** The final avalanche, over the hash and the input's length in bytes. */
    public static int fmix(int h1, int length) {
        h1 ^= length;
        h1 ^= h1 >>> 16;
        h1 *= 0x85ebca6b;
        h1 ^= h1 >>> 13;
        h1 *= 0xc2b2ae35;
        return h1 ^ (h1 >>> 16);
    }
}
