package io.tributary.expressions.internal;

import java.util.Random;

/**
 * Spark's {@code org.apache.spark.util.random.XORShiftRandom}: a xorshift generator whose seed is first spread by
 * Scala's {@code MurmurHash3.bytesHash} over the seed's eight big-endian bytes, so that a seed gives Spark's sequence
 * of {@code nextDouble}, {@code nextGaussian} and {@code nextInt} ({@link Random}'s methods over {@link #next}).
 */
final class XorShiftRandom extends Random {
    private static final int ARRAY_SEED = 0x3c074a61; // Scala's MurmurHash3.arraySeed

    private long state;

    XorShiftRandom(long seed) {
        super(seed);
        state = hashSeed(seed);
    }

    @Override
    protected int next(int bits) {
        long s = state ^ (state << 21);
        s ^= s >>> 35;
        s ^= s << 4;
        state = s;
        return (int) (s & ((1L << bits) - 1));
    }

    @Override
    public synchronized void setSeed(long seed) {
        state = hashSeed(seed);
    }

    /** Spark's {@code XORShiftRandom.hashSeed}: two Murmur3 hashes of the seed's bytes, the low then the high half. */
    static long hashSeed(long seed) {
        byte[] bytes = new byte[8];
        for (int i = 0; i < 8; i++) {
            bytes[i] = (byte) (seed >>> (56 - 8 * i));
        }
        int low = bytesHash(bytes, ARRAY_SEED);
        int high = bytesHash(bytes, low);
        return ((long) high << 32) | (low & 0xFFFFFFFFL);
    }

    /** Scala 2.13's {@code MurmurHash3.bytesHash}. */
    private static int bytesHash(byte[] data, int seed) {
        int h = seed;
        int i = 0;
        int len = data.length;
        while (len >= 4) {
            int k = (data[i] & 0xFF) | (data[i + 1] & 0xFF) << 8 | (data[i + 2] & 0xFF) << 16 | (data[i + 3] & 0xFF) << 24;
            h = mix(h, k);
            i += 4;
            len -= 4;
        }
        int k = 0;
        if (len == 3) {
            k ^= (data[i + 2] & 0xFF) << 16;
        }
        if (len >= 2) {
            k ^= (data[i + 1] & 0xFF) << 8;
        }
        if (len >= 1) {
            k ^= data[i] & 0xFF;
            h = mixLast(h, k);
        }
        return avalanche(h ^ data.length);
    }

    private static int mix(int hash, int data) {
        int h = mixLast(hash, data);
        h = Integer.rotateLeft(h, 13);
        return h * 5 + 0xe6546b64;
    }

    private static int mixLast(int hash, int data) {
        int k = data * 0xcc9e2d51;
        k = Integer.rotateLeft(k, 15);
        k *= 0x1b873593;
        return hash ^ k;
    }

    private static int avalanche(int hash) {
        int h = hash;
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        h ^= h >>> 16;
        return h;
    }
}
