package io.tributary.topology.internal;

import java.util.Arrays;
import java.util.function.IntBinaryOperator;

/**
 * The order of a {@link WindowTable}'s entries by key: their window starts sorted with their slots
 * ({@link #sortWith}), then the entries of each window start by the 8-byte words after it
 * ({@link #order}). Both are byte-wise radix sorts, least significant byte first, where a byte that
 * all entries share costs no pass.
 */
final class KeyRadixSort {
    private KeyRadixSort() {
    }

    /**
     * Sorts {@code keys[0, n)} as unsigned numbers, and {@code a} and {@code b} with them (what stands at an
     * index stays with its key; the order of equal keys is kept). Each pass reads the arrays in order.
     *
     * @param varying the bits in which some keys differ
     */
    static void sortWith(long[] keys, long[] a, long[] b, int n, long varying) {
        long[] k = keys;
        long[] x = a;
        long[] y = b;
        long[] kt = null;
        long[] xt = null;
        long[] yt = null;
        int[] count = new int[257];
        for (int shift = 0; shift < 64; shift += 8) {
            if ((varying >>> shift & 0xFF) == 0) {
                continue;
            }
            if (kt == null) {
                kt = new long[n];
                xt = new long[n];
                yt = new long[n];
            }
            Arrays.fill(count, 0);
            for (int i = 0; i < n; i++) {
                count[(int) (k[i] >>> shift & 0xFF) + 1]++;
            }
            for (int v = 0; v < 256; v++) {
                count[v + 1] += count[v];
            }
            for (int i = 0; i < n; i++) {
                int at = count[(int) (k[i] >>> shift & 0xFF)]++;
                kt[at] = k[i];
                xt[at] = x[i];
                yt[at] = y[i];
            }
            long[] t = k;
            k = kt;
            kt = t;
            t = x;
            x = xt;
            xt = t;
            t = y;
            y = yt;
            yt = t;
        }
        if (k != keys) {
            System.arraycopy(k, 0, keys, 0, n);
            System.arraycopy(x, 0, a, 0, n);
            System.arraycopy(y, 0, b, 0, n);
        }
    }

    /**
     * The entries {@code 0..n-1} in key order.
     *
     * @param words per word, each entry's word (the group's first bytes after the window start, zero-padded)
     * @param varying per word, the bits in which some entries' words differ
     * @param afterStart compares two entries by their keys' bytes after the window start (those of entries equal in every word)
     */
    static int[] order(long[][] words, long[] varying, int n, IntBinaryOperator afterStart) {
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        int[] tmp = new int[n];
        int[] count = new int[257];
        int sortWords = words.length;
        for (int pass = 0; pass < 8 * sortWords; pass++) { // least significant byte first: the last word's, the first's last
            int w = sortWords - 1 - pass / 8;
            long[] word = words[w];
            int shift = (pass % 8) * 8;
            if ((varying[w] >>> shift & 0xFF) == 0) {
                continue; // a byte every entry shares: this pass would not move anything
            }
            Arrays.fill(count, 0);
            for (int i = 0; i < n; i++) {
                count[(int) (word[i] >>> shift & 0xFF) + 1]++;
            }
            for (int b = 0; b < 256; b++) {
                count[b + 1] += count[b];
            }
            for (int k = 0; k < n; k++) {
                int i = order[k];
                tmp[count[(int) (word[i] >>> shift & 0xFF)]++] = i;
            }
            int[] t = order;
            order = tmp;
            tmp = t;
        }
        for (int from = 0; from < n;) { // runs equal in every word: their bytes after the window start decide
            int to = from + 1;
            while (to < n && sameWords(words, order[from], order[to])) {
                to++;
            }
            mergeSort(order, tmp, from, to, afterStart);
            from = to;
        }
        return order;
    }

    private static boolean sameWords(long[][] words, int a, int b) {
        for (long[] w : words) {
            if (w[a] != w[b]) {
                return false;
            }
        }
        return true;
    }

    /** Sorts {@code order[from, to)} by the keys' bytes after the window start. */
    private static void mergeSort(int[] order, int[] tmp, int from, int to, IntBinaryOperator afterStart) {
        if (to - from < 2) {
            return;
        }
        int mid = (from + to) >>> 1;
        mergeSort(order, tmp, from, mid, afterStart);
        mergeSort(order, tmp, mid, to, afterStart);
        if (afterStart.applyAsInt(order[mid - 1], order[mid]) <= 0) {
            return; // already in order
        }
        System.arraycopy(order, from, tmp, from, to - from);
        int i = from;
        int j = mid;
        for (int k = from; k < to; k++) {
            order[k] = j >= to || (i < mid && afterStart.applyAsInt(tmp[i], tmp[j]) <= 0) ? tmp[i++] : tmp[j++];
        }
    }
}
