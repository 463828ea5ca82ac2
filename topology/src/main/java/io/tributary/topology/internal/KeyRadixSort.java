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
    /** The 8-byte words of a key {@link #slotsInKeyOrder} radix-sorts: the window start and 16 bytes of the group. */
    private static final int SORT_WORDS = 3;

    private KeyRadixSort() {
    }

    /**
     * The slots of {@code table}'s entries whose key's first 8 bytes, read as an unsigned big-endian number, are at most
     * {@code maxPrefix}, in unsigned key byte order (the store's order). Each entry's first {@value #SORT_WORDS} 8-byte
     * words (the window start, then the group's first bytes, zero-padded) are read once from the slabs and sorted by a
     * byte-wise radix sort ({@link #order}: a byte that all entries share costs no pass); only entries equal in all of
     * them compare their bytes. A merge sort comparing entries one pair at a time took 0.6 s for the million windows an
     * availableNow run closed at once.
     */
    static int[] slotsInKeyOrder(WindowTable table, long maxPrefix) {
        int n = 0;
        int[] slots = new int[table.size()];
        long[][] words = new long[SORT_WORDS][table.size()];
        long[] varying = new long[SORT_WORDS]; // the bits in which some entries' words differ
        for (int i = 0; i < table.capacity(); i++) {
            if (table.keyLength(i) != 0) {
                long p = table.word(i, 0);
                if (Long.compareUnsigned(p, maxPrefix) <= 0) {
                    slots[n] = i;
                    words[0][n] = p;
                    for (int w = 1; w < SORT_WORDS; w++) {
                        words[w][n] = table.word(i, 8 * w);
                    }
                    for (int w = 0; w < SORT_WORDS; w++) {
                        varying[w] |= words[w][n] ^ words[w][0];
                    }
                    n++;
                }
            }
        }
        int[] order = order(words, varying, n, (a, b) -> table.compareAfterStart(slots[a], slots[b]));
        int[] out = new int[n];
        for (int i = 0; i < n; i++) {
            out[i] = slots[order[i]];
        }
        return out;
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
