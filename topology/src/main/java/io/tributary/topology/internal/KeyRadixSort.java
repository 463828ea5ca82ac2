package io.tributary.topology.internal;

import java.util.Arrays;
import java.util.function.IntBinaryOperator;

/**
 * The order of a {@link WindowTable}'s entries by key, from the first 8-byte words of each key:
 * a byte-wise radix sort of the words (least significant byte first; a byte that all entries
 * share costs no pass), then a merge sort of each run of entries equal in every word, comparing
 * their bytes after the window start.
 */
final class KeyRadixSort {
    private KeyRadixSort() {
    }

    /**
     * The entries {@code 0..n-1} in key order.
     *
     * @param words per word, each entry's word (the window start, then the group's first bytes, zero-padded)
     * @param varying per word, the bits in which some entries' words differ
     * @param afterStart compares two entries by their keys' bytes after the window start
     */
    static int[] order(long[][] words, long[] varying, int n, IntBinaryOperator afterStart) {
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        int[] tmp = new int[n];
        int[] count = new int[257];
        int sortWords = words.length;
        for (int pass = 0; pass < 8 * sortWords; pass++) { // least significant byte first: the last word's, the prefix's last
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
