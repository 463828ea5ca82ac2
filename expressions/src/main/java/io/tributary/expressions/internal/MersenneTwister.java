package io.tributary.expressions.internal;

/**
 * The MT19937 generator as Apache Commons Math 3's {@code MersenneTwister} seeds and draws it, which Spark's
 * {@code shuffle(array, seed)} ({@code RandomIndicesGenerator}) and {@code uuid(seed)} ({@code RandomUUIDGenerator}) use:
 * a long seed split into its two halves for MT19937's {@code init_by_array}, and {@code nextInt(n)}, {@code nextLong()}
 * as Commons Math's {@code BitsStreamGenerator} makes them.
 */
final class MersenneTwister {
    private static final int N = 624;
    private static final int M = 397;
    private static final int[] MAG01 = {0x0, 0x9908b0df};

    private final int[] mt = new int[N];
    private int mti;

    MersenneTwister(long seed) {
        int[] key = {(int) (seed >>> 32), (int) (seed & 0xffffffffL)};
        init(19650218);
        int i = 1;
        int j = 0;
        for (int k = Math.max(N, key.length); k != 0; k--) {
            long l0 = mt[i] & 0xffffffffL;
            long l1 = mt[i - 1] & 0xffffffffL;
            long l = (l0 ^ ((l1 ^ (l1 >> 30)) * 1664525L)) + key[j] + j;
            mt[i] = (int) (l & 0xffffffffL);
            i++;
            j++;
            if (i >= N) {
                mt[0] = mt[N - 1];
                i = 1;
            }
            if (j >= key.length) {
                j = 0;
            }
        }
        for (int k = N - 1; k != 0; k--) {
            long l0 = mt[i] & 0xffffffffL;
            long l1 = mt[i - 1] & 0xffffffffL;
            long l = (l0 ^ ((l1 ^ (l1 >> 30)) * 1566083941L)) - i;
            mt[i] = (int) (l & 0xffffffffL);
            i++;
            if (i >= N) {
                mt[0] = mt[N - 1];
                i = 1;
            }
        }
        mt[0] = 0x80000000;
    }

    private void init(int seed) {
        long longMT = seed;
        mt[0] = (int) longMT;
        for (mti = 1; mti < N; ++mti) {
            longMT = (1812433253L * (longMT ^ (longMT >> 30)) + mti) & 0xffffffffL;
            mt[mti] = (int) longMT;
        }
    }

    int next(int bits) {
        int y;
        if (mti >= N) {
            int mtNext = mt[0];
            for (int k = 0; k < N - M; ++k) {
                int mtCurr = mtNext;
                mtNext = mt[k + 1];
                y = (mtCurr & 0x80000000) | (mtNext & 0x7fffffff);
                mt[k] = mt[k + M] ^ (y >>> 1) ^ MAG01[y & 0x1];
            }
            for (int k = N - M; k < N - 1; ++k) {
                int mtCurr = mtNext;
                mtNext = mt[k + 1];
                y = (mtCurr & 0x80000000) | (mtNext & 0x7fffffff);
                mt[k] = mt[k + (M - N)] ^ (y >>> 1) ^ MAG01[y & 0x1];
            }
            y = (mtNext & 0x80000000) | (mt[0] & 0x7fffffff);
            mt[N - 1] = mt[M - 1] ^ (y >>> 1) ^ MAG01[y & 0x1];
            mti = 0;
        }
        y = mt[mti++];
        y ^= y >>> 11;
        y ^= (y << 7) & 0x9d2c5680;
        y ^= (y << 15) & 0xefc60000;
        y ^= y >>> 18;
        return y >>> (32 - bits);
    }

    /** A value in [0, n), n positive. */
    int nextInt(int n) {
        if ((n & -n) == n) {
            return (int) ((n * (long) next(31)) >> 31);
        }
        int bits;
        int val;
        do {
            bits = next(31);
            val = bits % n;
        } while (bits - val + (n - 1) < 0);
        return val;
    }

    long nextLong() {
        long high = ((long) next(32)) << 32;
        long low = next(32) & 0xffffffffL;
        return high | low;
    }
}
